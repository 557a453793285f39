import { useSelector } from '@xstate/react';
import { ONBOARDING_ANSWER_IDS as IDS } from '../../contract/surveys.ts';
import type { AboutYouChoice } from '../../machines/onboarding.machine.ts';
import { Chip } from '../../widgets/Chip.tsx';
import { OnboardingFrame, useOnboardingActor } from './OnboardingFrame.tsx';

/** SPEC §2/§3 about-you choices, with the kind of help each one brings. */
const CHOICES: { answerId: AboutYouChoice; title: string; description: string }[] = [
  { answerId: IDS.ownHome, title: 'I own a home', description: 'Repairs, cleaning, moving and home insurance' },
  { answerId: IDS.ownOrLeaseCar, title: 'I own or lease a car', description: 'Registration, service, tickets and insurance' },
  { answerId: IDS.parent, title: "I'm a parent", description: 'Babysitters, camps, schools and parties' },
  { answerId: IDS.pet, title: 'I have a pet', description: 'Vets, sitters, walkers and grooming' },
  { answerId: IDS.partner, title: 'I have a partner', description: 'Trips, gifts and plans for two' },
];

/** Onboarding step 2 of 3: what applies to the user, so that the Dashboard suggests what fits. */
export default function AboutYou() {
  const actor = useOnboardingActor('aboutYou');
  const choices = useSelector(actor, (snapshot) => snapshot.context.choices);
  const isSaving = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  return (
    <OnboardingFrame actor={actor} title="Tell us about you"
      intro={<p>Choose everything that applies to you, and we will suggest requests that fit your life.</p>}>
      <fieldset className="lc-onboarding__choices lc-tile-grid">
        <legend className="lc-visually-hidden">What applies to you</legend>
        {CHOICES.map((choice) => (
          <Chip key={choice.answerId} variant="checkbox" title={choice.title} description={choice.description}
            isSelected={choices.includes(choice.answerId)} isDisabled={isSaving}
            onChange={(selected) => actor.send({ type: 'TOGGLE_CHOICE', answerId: choice.answerId, selected })} />
        ))}
      </fieldset>
    </OnboardingFrame>
  );
}
