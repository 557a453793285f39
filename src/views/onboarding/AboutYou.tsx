import { useSelector } from '@xstate/react';
import { Chip } from '../../widgets/Chip.tsx';
import { OnboardingFrame, useOnboardingActor } from './OnboardingFrame.tsx';
import { ABOUT_YOU_CHOICES } from './profileFields.ts';

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
        {ABOUT_YOU_CHOICES.map((choice) => (
          <Chip key={choice.answerId} variant="checkbox" title={choice.title} description={choice.description}
            isSelected={choices.includes(choice.answerId)} isDisabled={isSaving}
            onChange={(selected) => actor.send({ type: 'TOGGLE_CHOICE', answerId: choice.answerId, selected })} />
        ))}
      </fieldset>
    </OnboardingFrame>
  );
}
