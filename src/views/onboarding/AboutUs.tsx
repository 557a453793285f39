import { LinkButton } from '../../widgets/Button.tsx';

/** Onboarding step 1 of 3: what the service is and the privacy promise (SPEC §1). */
export default function AboutUs() {
  return (
    <main className="lc-onboarding">
      <p className="lc-onboarding__step">Step 1 of 3</p>
      <h1>Welcome to Life Concierge</h1>
      <p>
        Hand us the chores of everyday life: the car, the move, the vet, the insurance claim. Answer a few questions
        and a real concierge takes it from there, talking with you in a message thread on your request.
      </p>
      <p>Members save an estimated 3-4 hours per task.</p>
      <p>Your personal information stays confidential and is not disclosed to your employer.</p>
      <LinkButton href="/welcome/about-you">Continue</LinkButton>
    </main>
  );
}
