import { assign, fromPromise, setup } from 'xstate';
import { type PasswordChangeRequest, passwordChangeRequest } from '../contract/profile.ts';
import { changePassword } from '../services/profile.ts';
import { type FieldErrors, errorOf, failureOf, fieldErrorsOfIssues, withoutErrorsFor } from './adminForms.ts';

/** The form's inputs, by the names the server's 422 uses for them. */
export type PasswordField = keyof PasswordChangeRequest;

const EMPTY_FORM: PasswordChangeRequest = { current_password: '', password: '', password_confirmation: '' };

export interface PasswordChangeContext {
  form: PasswordChangeRequest;
  fieldErrors: FieldErrors;
  formError: string | null;
  /** The server's word once the password has changed. */
  done: string | null;
}

export type PasswordChangeEvent =
  | { type: 'OPEN' }
  | { type: 'CHANGE'; field: PasswordField; value: string }
  | { type: 'SUBMIT' }
  | { type: 'CANCEL' };

const problemsOf = (form: PasswordChangeRequest): FieldErrors => {
  const checked = passwordChangeRequest.safeParse(form);
  return checked.success ? {} : fieldErrorsOfIssues(checked.error.issues);
};

/**
 * Account Settings' password change (issue 32 point 3): closed behind 'Change password'; the form is checked by the
 * contract's schema before it is sent (the server checks it again, and the current password); once changed, every
 * other device is signed out and this one stays, which the form says.
 */
export const passwordChangeMachine = setup({
  types: {
    context: {} as PasswordChangeContext,
    events: {} as PasswordChangeEvent,
  },
  actors: {
    changePassword: fromPromise<string, PasswordChangeRequest>(({ input }) => changePassword(input)),
  },
  guards: {
    isInvalid: ({ context }) => Object.keys(problemsOf(context.form)).length > 0,
  },
  actions: {
    showProblems: assign(({ context }) => ({ fieldErrors: problemsOf(context.form), formError: null })),
    showFailure: assign((_, error: unknown) => failureOf(error)),
  },
}).createMachine({
  id: 'passwordChange',
  context: { form: EMPTY_FORM, fieldErrors: {}, formError: null, done: null },
  initial: 'closed',
  states: {
    closed: {
      on: { OPEN: { target: 'editing', actions: assign({ form: EMPTY_FORM, fieldErrors: {}, formError: null, done: null }) } },
    },
    editing: {
      on: {
        CHANGE: {
          // The field's message goes as it is edited; the others stay until the next Submit.
          actions: assign(({ context, event }) => ({
            form: { ...context.form, [event.field]: event.value },
            fieldErrors: withoutErrorsFor(context.fieldErrors, [event.field]),
          })),
        },
        SUBMIT: [{ guard: 'isInvalid', actions: 'showProblems' }, { target: 'saving', actions: assign({ fieldErrors: {}, formError: null }) }],
        CANCEL: { target: 'closed', actions: assign({ form: EMPTY_FORM, fieldErrors: {}, formError: null }) },
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'changePassword',
        src: 'changePassword',
        input: ({ context }) => context.form,
        onDone: { target: 'closed', actions: assign(({ event }) => ({ form: EMPTY_FORM, done: event.output })) },
        onError: { target: 'editing', actions: { type: 'showFailure', params: errorOf } },
      },
    },
  },
});
