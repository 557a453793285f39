import { OnboardingFrame, useOnboardingActor } from './OnboardingFrame.tsx';

/** Onboarding step 1 of 3: what the service is, and the privacy promise (SPEC §1). */
export default function AboutUs() {
  const actor = useOnboardingActor('aboutUs');
  return (
    <OnboardingFrame actor={actor} title="Welcome to Life Concierge"
      intro={
        <>
          <p>
            Hand us the chores of everyday life: the car, the move, the vet, the insurance claim. Answer a few questions
            and a real concierge takes it from there, talking with you in a message thread on your request.
          </p>
          <ul className="lc-onboarding__promises">
            <li>Members save an estimated 3-4 hours per task.</li>
            <li>Your personal information stays confidential and is not disclosed to your employer.</li>
          </ul>
        </>
      }
    />
  );
}
