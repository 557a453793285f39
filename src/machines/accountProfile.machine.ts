import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { User } from '../contract/account.ts';
import { nameChangeRequest } from '../contract/profile.ts';
import type { OnboardingAnswer } from '../contract/surveys.ts';
import { renameCurrentUser } from '../services/profile.ts';
import { fetchOnboardingAnswers, saveOnboardingAnswers } from '../services/surveys.ts';
import { type FieldErrors, errorOf, failureOf, fieldErrorsOfIssues, withoutErrorsFor } from './adminForms.ts';
import {
  type AboutYouChoice,
  type ContactField,
  type ContactInfo,
  EMPTY_CONTACT,
  answersOfStep,
  contactErrors,
  fromSaved,
} from './onboarding.machine.ts';
import { SYSTEM_IDS, inSystem } from './system.ts';

/** The profile as the form holds it: the account's name, and the onboarding answers. */
export interface Profile {
  firstName: string;
  lastName: string;
  choices: AboutYouChoice[];
  contact: ContactInfo;
}

export type NameField = 'firstName' | 'lastName';

export interface AccountProfileInput {
  user: Pick<User, 'full_name' | 'first_name'>;
}

export interface AccountProfileContext {
  /** What is stored; `draft` is what the form shows while editing. */
  saved: Profile;
  draft: Profile;
  /** By the form's field names (firstName, lastName, and the ContactField names). */
  fieldErrors: FieldErrors;
  formError: string | null;
  /** Said once a change has been saved, until the next edit. */
  savedNotice: boolean;
}

export type AccountProfileEvent =
  | { type: 'RETRY' }
  | { type: 'EDIT' }
  | { type: 'CHANGE_NAME'; field: NameField; value: string }
  | { type: 'CHANGE_FIELD'; field: ContactField; value: string }
  | { type: 'TOGGLE_CHOICE'; answerId: AboutYouChoice; selected: boolean }
  | { type: 'SAVE' }
  | { type: 'CANCEL' }
  /** The session's user changed (fetched again, perhaps renamed elsewhere): the name shown follows it. */
  | { type: 'USER_CHANGED'; user: AccountProfileInput['user'] };

export const PROFILE_TEXT = {
  loadFailed: 'We could not load your profile. Please try again.',
  saved: 'Your profile has been saved.',
} as const;

/** full_name is first and last name joined by a space (server/domain/accounts/users.ts): the rest is the last name. */
export function lastNameOf(user: Pick<User, 'full_name' | 'first_name'>): string {
  return user.full_name.startsWith(user.first_name) ? user.full_name.slice(user.first_name.length).trim() : '';
}

/** The server names the name's inputs as its payload does. */
const NAME_FIELD_OF: Record<string, NameField> = { 'user.name': 'firstName', 'user.last_name': 'lastName' };

function nameProblems(profile: Profile): FieldErrors {
  const checked = nameChangeRequest.safeParse({ user: { name: profile.firstName, last_name: profile.lastName } });
  if (checked.success) return {};
  return Object.fromEntries(Object.entries(fieldErrorsOfIssues(checked.error.issues)).map(([path, message]) => [NAME_FIELD_OF[path] ?? path, message]));
}

/** SPEC §5 (sign-up names, contact info) checked by the contract's rules, by the form's field names. */
export function profileProblems(profile: Profile): FieldErrors {
  return { ...nameProblems(profile), ...contactErrors(profile.contact) };
}

/** The server's refusal, its field names turned into the form's. */
function refusalOf(error: unknown) {
  const { fieldErrors, formError } = failureOf(error);
  return {
    formError,
    fieldErrors: Object.fromEntries(Object.entries(fieldErrors).map(([path, message]) => [NAME_FIELD_OF[path] ?? path, message])),
  };
}

/** Saves the name, then the onboarding answers of both steps (the interests and the contact details). */
async function saveProfile(profile: Profile): Promise<User> {
  const user = await renameCurrentUser({ name: profile.firstName, last_name: profile.lastName });
  const interests = answersOfStep('aboutYou', profile.choices, profile.contact);
  const contact = answersOfStep('contactInfo', profile.choices, profile.contact);
  await saveOnboardingAnswers({ answers: [...interests.answers, ...contact.answers], completed: contact.completed });
  return user;
}

/**
 * Account Settings' profile (issue 32 point 3): the name, the phone, the address and the interests, shown, then
 * edited in one form checked by the contract's rules before it is sent; the server checks them again and its 422
 * lands beside the field. A saved name reaches the whole app through the session.
 */
export const accountProfileMachine = setup({
  types: {
    context: {} as AccountProfileContext,
    events: {} as AccountProfileEvent,
    input: {} as AccountProfileInput,
  },
  actors: {
    loadAnswers: fromPromise<OnboardingAnswer[]>(() => fetchOnboardingAnswers()),
    saveProfile: fromPromise<User, Profile>(({ input }) => saveProfile(input)),
  },
  guards: {
    isInvalid: ({ context }) => Object.keys(profileProblems(context.draft)).length > 0,
  },
  actions: {
    showProblems: assign(({ context }) => ({ fieldErrors: profileProblems(context.draft), formError: null })),
    showFailure: assign((_, error: unknown) => refusalOf(error)),
    // The session fetches the user again: the new name shows in the menus at once.
    refreshUser: sendTo(inSystem(SYSTEM_IDS.session), { type: 'REFRESH_USER' }),
  },
}).createMachine({
  id: 'accountProfile',
  context: ({ input }) => {
    const profile: Profile = { firstName: input.user.first_name, lastName: lastNameOf(input.user), choices: [], contact: EMPTY_CONTACT };
    return { saved: profile, draft: profile, fieldErrors: {}, formError: null, savedNotice: false };
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadAnswers',
        src: 'loadAnswers',
        onDone: {
          target: 'viewing',
          actions: assign(({ context, event }) => {
            const saved = { ...context.saved, ...fromSaved(event.output) };
            return { saved, draft: saved };
          }),
        },
        onError: { target: 'loadFailed' },
      },
    },
    loadFailed: {
      on: { RETRY: { target: 'loading' } },
    },
    viewing: {
      on: {
        EDIT: { target: 'editing', actions: assign(({ context }) => ({ draft: context.saved, savedNotice: false })) },
        USER_CHANGED: {
          actions: assign(({ context, event }) => {
            const saved = { ...context.saved, firstName: event.user.first_name, lastName: lastNameOf(event.user) };
            return { saved, draft: saved };
          }),
        },
      },
    },
    editing: {
      on: {
        CHANGE_NAME: {
          actions: assign(({ context, event }) => ({
            draft: { ...context.draft, [event.field]: event.value },
            fieldErrors: withoutErrorsFor(context.fieldErrors, [event.field]),
          })),
        },
        CHANGE_FIELD: {
          actions: assign(({ context, event }) => ({
            draft: { ...context.draft, contact: { ...context.draft.contact, [event.field]: event.value } },
            fieldErrors: withoutErrorsFor(context.fieldErrors, [event.field]),
          })),
        },
        TOGGLE_CHOICE: {
          actions: assign(({ context, event }) => ({
            draft: {
              ...context.draft,
              choices: event.selected
                ? [...new Set([...context.draft.choices, event.answerId])]
                : context.draft.choices.filter((choice) => choice !== event.answerId),
            },
          })),
        },
        SAVE: [{ guard: 'isInvalid', actions: 'showProblems' }, { target: 'saving', actions: assign({ fieldErrors: {}, formError: null }) }],
        CANCEL: { target: 'viewing', actions: assign(({ context }) => ({ draft: context.saved, fieldErrors: {}, formError: null })) },
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveProfile',
        src: 'saveProfile',
        input: ({ context }) => context.draft,
        onDone: {
          target: 'viewing',
          actions: [assign(({ context }) => ({ saved: context.draft, savedNotice: true })), 'refreshUser'],
        },
        onError: { target: 'editing', actions: { type: 'showFailure', params: errorOf } },
      },
    },
  },
});
