import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import { enrollMfa } from '../services/account.ts';
import { ACCOUNT_MESSAGES } from '../services/account.messages.ts';
import {
  STORE_VERIFIED_MFA_TOKEN,
  assignAccountError,
  sendMfaCodeActor,
  storeMfaToken,
  verifyMfaCodeActor,
} from './mfaCode.ts';

import { SYSTEM_IDS, inSystem } from './system.ts';

export interface MfaEnrollmentContext {
  /** The 10 digits the code was sent to. */
  phoneNumber: string;
  error: string | null;
}

export type MfaEnrollmentEvent =
  | { type: 'SUBMIT_PHONE'; phoneNumber: string }
  | { type: 'VERIFY'; otp: string }
  | { type: 'RESEND' }
  | { type: 'CHANGE_NUMBER' };

/** MFA enrolment (SPEC §2): a phone number, then the texted code, then verified. */
export const mfaEnrollmentMachine = setup({
  types: {
    context: {} as MfaEnrollmentContext,
    events: {} as MfaEnrollmentEvent,
  },
  actors: {
    enroll: fromPromise<void, { phoneNumber: string }>(({ input }) => enrollMfa(input.phoneNumber)),
    resendCode: sendMfaCodeActor,
    verifyCode: verifyMfaCodeActor,
  },
  actions: {
    storeMfaToken,
    /** The session learns that enrolment is complete (it then reloads the user and opens the app). */
    reportVerified: sendTo(inSystem(SYSTEM_IDS.session), { type: 'ENROLLMENT_VERIFIED' }),
    assignError: assign((_, { error }: { error: string }) => ({ error })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'mfaEnrollment',
  context: { phoneNumber: '', error: null },
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
          actions: assignAccountError(ACCOUNT_MESSAGES.mfaEnrollFailed),
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
          actions: assignAccountError(ACCOUNT_MESSAGES.mfaCodeRequestFailed),
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
          actions: [STORE_VERIFIED_MFA_TOKEN, 'reportVerified'],
        },
        onError: {
          target: 'code',
          actions: assignAccountError(ACCOUNT_MESSAGES.mfaVerifyFailed),
        },
      },
    },
    verified: { type: 'final' },
  },
});
