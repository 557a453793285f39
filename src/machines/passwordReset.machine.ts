import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import type { ResetPasswordRequest } from '../contract/account.ts';
import { accountErrorMessage, requestPasswordReset, resetPassword } from '../services/account.ts';
import { ACCOUNT_MESSAGES } from '../services/account.messages.ts';
import { reportError } from '../services/errorReporting.ts';
import { navigate } from '../services/navigation.ts';
import { SIGN_IN_PATH } from './session.machine.ts';
import { SYSTEM_IDS, inSystem } from './system.ts';

const failureOf = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/** A password form's SPEC §8 failure message: the AccountError's, else the reset one. */
const failureMessage = (error: unknown) => accountErrorMessage(error, ACCOUNT_MESSAGES.resetUnavailable);

/** Both password forms: a failure is shown (`showFailure`) and reported (`reportFailure`). */
const SHOW_AND_REPORT_FAILURE = [
  { type: 'showFailure', params: failureOf },
  { type: 'reportFailure', params: failureOf },
] as const;

/** Forgot password: the e-mail form, then the SPEC §8 confirmation that never tells whether the address exists. */
export const forgotPasswordMachine = setup({
  types: {
    context: {} as { error: string | null },
    events: {} as { type: 'SUBMIT'; email: string },
  },
  actors: {
    requestReset: fromPromise<void, { email: string }>(({ input }) => requestPasswordReset(input.email)),
  },
  actions: {
    showFailure: assign((_, { error }: { error: unknown }) => ({ error: failureMessage(error) })),
    reportFailure: (_, { error }: { error: unknown }) => void reportError(error, { feature: 'passwordReset' }),
  },
}).createMachine({
  id: 'forgotPassword',
  context: { error: null },
  initial: 'form',
  states: {
    form: {
      on: { SUBMIT: { target: 'submitting', actions: assign({ error: null }) } },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'requestReset',
        src: 'requestReset',
        input: ({ event }) => ({ email: event.email }),
        onDone: 'confirmation',
        onError: {
          target: 'form',
          actions: SHOW_AND_REPORT_FAILURE,
        },
      },
    },
    confirmation: { type: 'final' },
  },
});

export type ResetPasswordEvent = { type: 'SUBMIT'; password: string; passwordConfirmation: string };

/** Reset password from an e-mailed link: the new password, then SignIn with the SPEC §8 success message. */
export const resetPasswordMachine = setup({
  types: {
    context: {} as { resetToken: string; error: string | null },
    input: {} as { resetToken: string },
    events: {} as ResetPasswordEvent,
  },
  actors: {
    resetPassword: fromPromise<void, ResetPasswordRequest>(({ input }) => resetPassword(input)),
  },
  actions: {
    showFailure: assign((_, { error }: { error: unknown }) => ({ error: failureMessage(error) })),
    reportFailure: (_, { error }: { error: unknown }) => void reportError(error, { feature: 'passwordReset' }),
    /** The sign-in screen shows the SPEC §8 success message (the session holds it). */
    announceSuccess: sendTo(inSystem(SYSTEM_IDS.session), {
      type: 'NOTICE',
      message: ACCOUNT_MESSAGES.resetSucceeded,
    }),
    navigateToSignIn: () => navigate(SIGN_IN_PATH),
  },
}).createMachine({
  id: 'resetPassword',
  context: ({ input }) => ({ resetToken: input.resetToken, error: null }),
  initial: 'form',
  states: {
    form: {
      on: { SUBMIT: { target: 'submitting', actions: assign({ error: null }) } },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'resetPassword',
        src: 'resetPassword',
        input: ({ context, event }) => {
          assertEvent(event, 'SUBMIT');
          return {
            reset_password_token: context.resetToken,
            password: event.password,
            password_confirmation: event.passwordConfirmation,
          };
        },
        onDone: { target: 'done', actions: ['announceSuccess', 'navigateToSignIn'] },
        onError: {
          target: 'form',
          actions: SHOW_AND_REPORT_FAILURE,
        },
      },
    },
    done: { type: 'final' },
  },
});
