// Samples for `npm run flows` (scripts/flows.ts) and the model-based tests: onboarding.machine.ts.

import { ONBOARDING_ANSWER_IDS as IDS } from '../../../src/contract/surveys.ts';
import type { OnboardingInput } from '../../../src/machines/onboarding.machine.ts';

/** Payloads for `npm run flows` (scripts/flows.ts): the about-you step of a pet owner. */
export const flowSamples = {
  input: { step: 'aboutYou' } satisfies OnboardingInput,
  events: [
    { type: 'xstate.done.actor.loadAnswers', output: [{ answer_id: IDS.pet, value: true }] },
    { type: 'TOGGLE_CHOICE', answerId: IDS.parent, selected: true },
  ],
};
