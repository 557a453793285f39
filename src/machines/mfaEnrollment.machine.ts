import { type ActorRef, type Snapshot, assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import { ACCOUNT_MESSAGES, AccountError, enrollMfa, sendMfaCode, verifyMfaCode } from '../services/account.ts';
import { writeMfaToken } from '../services/storage.ts';

/** The session learns that enrolment is complete (it then reloads the user and opens the app). */
export type EnrollmentReceiver = ActorRef<Snapshot<unknown>, { type: 'ENROLLMENT_VERIFIED' }>;

export interface MfaEnrollmentContext {
  session: EnrollmentReceiver;
  /** The 10 digits the code was sent to. */
  phoneNumber: string;
  error: string | null;
}

export type MfaEnrollmentEvent =
  | { type: 'SUBMIT_PHONE'; phoneNumber: string }
  | { type: 'VERIFY'; otp: string }
  | { type: 'RESEND' }
  | { type: 'CHANGE_NUMBER' };

function messageOf(error: unknown, fallback: string): string {
  return error instanceof AccountError ? error.message : fallback;
}

/** MFA enrolment (SPEC §2): a phone number, then the texted code, then verified. */
export const mfaEnrollmentMachine = setup({
  types: {
    context: {} as MfaEnrollmentContext,
    input: {} as { session: EnrollmentReceiver },
    events: {} as MfaEnrollmentEvent,
  },
  actors: {
    enroll: fromPromise<void, { phoneNumber: string }>(({ input }) => enrollMfa(input.phoneNumber)),
    resendCode: fromPromise<void>(() => sendMfaCode()),
    verifyCode: fromPromise<string, { otp: string }>(({ input }) => verifyMfaCode(input.otp)),
  },
  actions: {
    storeMfaToken: (_, { mfaToken }: { mfaToken: string }) => writeMfaToken(mfaToken),
    reportVerified: sendTo(({ context }) => context.session, { type: 'ENROLLMENT_VERIFIED' }),
    assignError: assign((_, { error }: { error: string }) => ({ error })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'mfaEnrollment',
  context: ({ input }) => ({ session: input.session, phoneNumber: '', error: null }),
  initial: 'phone',
  states: {
    phone: {
      on: {
        SUBMIT_PHONE: {
          target: 'sending',
          actions: [assign({ phoneNumber: ({ event }) => event.phoneNumber }), 'clearError'],
        },
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'enroll',
        src: 'enroll',
        input: ({ context }) => ({ phoneNumber: context.phoneNumber }),
        onDone: 'code',
        onError: {
          target: 'phone',
          actions: {
            type: 'assignError',
            params: ({ event }) => ({ error: messageOf(event.error, ACCOUNT_MESSAGES.mfaEnrollFailed) }),
          },
        },
      },
    },
    code: {
      on: {
        VERIFY: { target: 'verifying', actions: 'clearError' },
        RESEND: { target: 'resending', actions: 'clearError' },
        CHANGE_NUMBER: { target: 'phone', actions: 'clearError' },
      },
    },
    resending: {
      tags: ['busy'],
      invoke: {
        id: 'resendCode',
        src: 'resendCode',
        onDone: 'code',
        onError: {
          target: 'code',
          actions: {
            type: 'assignError',
            params: ({ event }) => ({ error: messageOf(event.error, ACCOUNT_MESSAGES.mfaCodeRequestFailed) }),
          },
        },
      },
    },
    verifying: {
      tags: ['busy'],
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ event }) => {
          assertEvent(event, 'VERIFY');
          return { otp: event.otp };
        },
        onDone: {
          target: 'verified',
          actions: [{ type: 'storeMfaToken', params: ({ event }) => ({ mfaToken: event.output }) }, 'reportVerified'],
        },
        onError: {
          target: 'code',
          actions: {
            type: 'assignError',
            params: ({ event }) => ({ error: messageOf(event.error, ACCOUNT_MESSAGES.mfaVerifyFailed) }),
          },
        },
      },
    },
    verified: { type: 'final' },
  },
});
