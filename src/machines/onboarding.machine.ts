import { assign, fromPromise, sendTo, setup } from 'xstate';
import {
  ABOUT_YOU_ANSWER_IDS,
  type ADDRESS_PART_IDS,
  ONBOARDING_ANSWER_IDS as IDS,
  type OnboardingAnswer,
  type OnboardingAnswersRequest,
  checkAnswer,
  formatPhone,
  phoneDigits,
} from '../contract/surveys.ts';
import { reportError } from '../services/errorReporting.ts';
import { serverMessage } from '../services/http.ts';
import { navigate } from '../services/navigation.ts';
import { fetchOnboardingAnswers, saveOnboardingAnswers } from '../services/surveys.ts';
import { SYSTEM_IDS, inSystem } from './system.ts';

/** SPEC §2: onboarding is three steps, each its own route; the last one leads to the Dashboard. */
export const ONBOARDING_STEPS = ['aboutUs', 'aboutYou', 'contactInfo'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];
export const ONBOARDING_PATHS: Record<OnboardingStep, string> = {
  aboutUs: '/welcome/about-us',
  aboutYou: '/welcome/about-you',
  contactInfo: '/welcome/contact-info',
};
export const AFTER_ONBOARDING_PATH = '/dashboard';

export type AboutYouChoice = (typeof ABOUT_YOU_ANSWER_IDS)[number];

/** SPEC §3 Contact: the fields of step 3, by name. */
export const CONTACT_FIELDS = ['phone', 'preferredEmail', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactInfo = Record<ContactField, string>;

const ADDRESS_FIELDS = ['addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country'] as const;
type AddressField = (typeof ADDRESS_FIELDS)[number];
/** SPEC §5: once any address part is filled, all of these are required (line 2 stays optional). */
export const REQUIRED_ADDRESS_FIELDS = ['addressLine1', 'city', 'state', 'postalCode', 'country'] as const satisfies readonly AddressField[];
const ADDRESS_PART_ID_OF: Record<AddressField, (typeof ADDRESS_PART_IDS)[number]> = {
  addressLine1: IDS.addressLine1,
  addressLine2: IDS.addressLine2,
  city: IDS.city,
  state: IDS.state,
  postalCode: IDS.postalCode,
  country: IDS.country,
};

export const ONBOARDING_MESSAGES = {
  loadFailed: 'We could not load your answers. Please try again.',
  saveFailed: 'We could not save your answers. Please try again.',
  required: {
    addressLine1: 'Please enter the street address',
    city: 'Please enter the city',
    state: 'Please enter the state',
    postalCode: 'Please enter the postal code',
    country: 'Please enter the country',
  } satisfies Record<(typeof REQUIRED_ADDRESS_FIELDS)[number], string>,
} as const;

export const EMPTY_CONTACT: ContactInfo = {
  phone: '',
  preferredEmail: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  postalCode: '',
  country: '',
};

export type ContactErrors = Partial<Record<ContactField, string>>;

/** Whether the address has any part filled in: then SPEC §5 requires most of the others. */
export function isAddressStarted(contact: ContactInfo): boolean {
  return ADDRESS_FIELDS.some((field) => contact[field].trim() !== '');
}

/** The error of an optional phone or e-mail, by the rule survey answers follow (SPEC §5). */
function optionalFieldError(type: 'PhoneNumberInput' | 'ManagedEmailInput', value: string): string | undefined {
  const check = checkAnswer({ type, optional: true }, value);
  return check.ok ? undefined : check.error;
}

/** SPEC §5 Contact info: phone and e-mail optional (but well formed when given); the address rule. */
export function contactErrors(contact: ContactInfo): ContactErrors {
  const errors: ContactErrors = {
    phone: optionalFieldError('PhoneNumberInput', contact.phone),
    preferredEmail: optionalFieldError('ManagedEmailInput', contact.preferredEmail),
  };
  if (isAddressStarted(contact)) {
    for (const field of REQUIRED_ADDRESS_FIELDS) {
      if (contact[field].trim() === '') errors[field] = ONBOARDING_MESSAGES.required[field];
    }
  }
  return Object.fromEntries(Object.entries(errors).filter(([, error]) => error !== undefined));
}

/** The answers one step saves (SPEC §3 ids); the last step also completes onboarding. */
export function answersOfStep(step: OnboardingStep, choices: readonly AboutYouChoice[], contact: ContactInfo): OnboardingAnswersRequest {
  if (step === 'aboutYou') {
    return { answers: ABOUT_YOU_ANSWER_IDS.map((answerId) => ({ answer_id: answerId, value: choices.includes(answerId) })) };
  }
  const parts = ADDRESS_FIELDS.filter((field) => contact[field].trim() !== '').map((field) => ({
    answer_id: ADDRESS_PART_ID_OF[field],
    value: contact[field].trim(),
  }));
  return {
    answers: [
      { answer_id: IDS.phone, value: phoneDigits(contact.phone) ?? '' },
      { answer_id: IDS.preferredEmail, value: contact.preferredEmail.trim() },
      { answer_id: IDS.address, value: parts },
    ],
    completed: true,
  };
}

/** What was saved before, as the fields of the screens (a phone masked). */
export function fromSaved(answers: readonly OnboardingAnswer[]): { choices: AboutYouChoice[]; contact: ContactInfo } {
  const choices: AboutYouChoice[] = [];
  const contact: ContactInfo = { ...EMPTY_CONTACT };
  for (const answer of answers) {
    if (typeof answer.value === 'boolean') {
      if (answer.value) choices.push(answer.answer_id as AboutYouChoice);
    } else if (answer.answer_id === IDS.phone && typeof answer.value === 'string') {
      const digits = phoneDigits(answer.value);
      contact.phone = digits ? formatPhone(digits) : '';
    } else if (answer.answer_id === IDS.preferredEmail && typeof answer.value === 'string') {
      contact.preferredEmail = answer.value;
    } else if (Array.isArray(answer.value)) {
      for (const part of answer.value) {
        const field = ADDRESS_FIELDS.find((candidate) => ADDRESS_PART_ID_OF[candidate] === part.answer_id);
        if (field) contact[field] = part.value;
      }
    }
  }
  return { choices, contact };
}

export interface OnboardingInput {
  step: OnboardingStep;
}

export interface OnboardingContext extends OnboardingInput {
  choices: AboutYouChoice[];
  contact: ContactInfo;
  fieldErrors: ContactErrors;
  error: string | null;
}

export type OnboardingEvent =
  | { type: 'TOGGLE_CHOICE'; answerId: AboutYouChoice; selected: boolean }
  | { type: 'CHANGE_FIELD'; field: ContactField; value: string }
  | { type: 'CONTINUE' }
  | { type: 'BACK' }
  | { type: 'RETRY' };

const stepIndex = (step: OnboardingStep) => ONBOARDING_STEPS.indexOf(step);
const failureOf = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/**
 * SPEC §2 Onboarding: AboutUs (step 1), AboutYou (step 2), ContactInfo (step 3). Each screen runs this chart for its
 * own step: it loads what was saved before, saves the step's answers, and moves on; the last step completes
 * onboarding, reloads the user and opens the Dashboard.
 */
export const onboardingMachine = setup({
  types: {
    context: {} as OnboardingContext,
    events: {} as OnboardingEvent,
    input: {} as OnboardingInput,
  },
  actors: {
    loadAnswers: fromPromise<OnboardingAnswer[]>(() => fetchOnboardingAnswers()),
    saveAnswers: fromPromise<void, OnboardingAnswersRequest>(({ input }) => saveOnboardingAnswers(input)),
  },
  guards: {
    /** AboutUs only tells; there is nothing to load or save. */
    stepHasNoAnswers: ({ context }) => context.step === 'aboutUs',
    hasPreviousStep: ({ context }) => stepIndex(context.step) > 0,
    isLastStep: ({ context }) => stepIndex(context.step) === ONBOARDING_STEPS.length - 1,
    contactBreaksRule: ({ context }) =>
      context.step === 'contactInfo' && Object.keys(contactErrors(context.contact)).length > 0,
  },
  actions: {
    goToNextStep: ({ context }) => navigate(ONBOARDING_PATHS[ONBOARDING_STEPS[stepIndex(context.step) + 1] as OnboardingStep]),
    goToPreviousStep: ({ context }) => navigate(ONBOARDING_PATHS[ONBOARDING_STEPS[stepIndex(context.step) - 1] as OnboardingStep]),
    // The session fetches the user again (onboarding_required is now false).
    refreshUser: sendTo(inSystem(SYSTEM_IDS.session), { type: 'REFRESH_USER' }),
    enterApp: () => navigate(AFTER_ONBOARDING_PATH),
    logFailure: (_, { error }: { error: unknown }) => {
      void reportError(error, { component: 'Onboarding', feature: 'onboarding' });
    },
    assignFailure: assign((_, { error, fallback }: { error: unknown; fallback: string }) => ({
      error: serverMessage(error, fallback),
    })),
  },
}).createMachine({
  id: 'onboarding',
  context: ({ input }) => ({
    step: input.step,
    choices: [],
    contact: EMPTY_CONTACT,
    fieldErrors: {},
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      always: { guard: 'stepHasNoAnswers', target: 'editing' },
      invoke: {
        id: 'loadAnswers',
        src: 'loadAnswers',
        onDone: { target: 'editing', actions: assign(({ event }) => ({ ...fromSaved(event.output), error: null })) },
        onError: {
          target: 'loadFailed',
          actions: [
            { type: 'logFailure', params: failureOf },
            { type: 'assignFailure', params: ({ event }) => ({ error: event.error, fallback: ONBOARDING_MESSAGES.loadFailed }) },
          ],
        },
      },
    },
    loadFailed: {
      on: { RETRY: { target: 'loading', actions: assign({ error: null }) } },
    },
    editing: {
      on: {
        TOGGLE_CHOICE: {
          actions: assign({
            choices: ({ context, event }) =>
              event.selected
                ? [...new Set([...context.choices, event.answerId])]
                : context.choices.filter((choice) => choice !== event.answerId),
          }),
        },
        CHANGE_FIELD: {
          actions: assign(({ context, event }) => {
            const contact = { ...context.contact, [event.field]: event.value };
            // Errors already shown follow the rule as the user fixes them; new ones wait for Continue.
            const current = contactErrors(contact);
            const fieldErrors = Object.fromEntries(
              Object.entries(context.fieldErrors).filter(([field]) => field in current).map(([field]) => [field, current[field as ContactField]]),
            );
            return { contact, fieldErrors };
          }),
        },
        CONTINUE: [
          { guard: 'stepHasNoAnswers', target: 'left', actions: 'goToNextStep' },
          { guard: 'contactBreaksRule', actions: assign({ fieldErrors: ({ context }) => contactErrors(context.contact) }) },
          { target: 'saving', actions: assign({ fieldErrors: {}, error: null }) },
        ],
        BACK: { guard: 'hasPreviousStep', target: 'left', actions: 'goToPreviousStep' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveAnswers',
        src: 'saveAnswers',
        input: ({ context }) => answersOfStep(context.step, context.choices, context.contact),
        onDone: [
          { guard: 'isLastStep', target: 'left', actions: ['refreshUser', 'enterApp'] },
          { target: 'left', actions: 'goToNextStep' },
        ],
        onError: {
          target: 'editing',
          actions: [
            { type: 'logFailure', params: failureOf },
            { type: 'assignFailure', params: ({ event }) => ({ error: event.error, fallback: ONBOARDING_MESSAGES.saveFailed }) },
          ],
        },
      },
    },
    /** The next (or previous) step's screen, or the Dashboard, takes over. */
    left: { type: 'final' },
  },
});
