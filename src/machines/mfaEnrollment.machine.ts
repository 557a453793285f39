import { assign, fromPromise, sendTo, setup } from 'xstate';
import { enrollMfa, sendMfaCode } from '../services/account.ts';
import { ACCOUNT_MESSAGES } from '../services/account.messages.ts';
import {
  assignAccountError,
  storeMfaToken,
  sendingCodeState,
  verifyMfaCodeActor,
  verifyingCodeState,
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

/** Enrols the number and texts it a code: the first step, and the way an enrolled user's new phone gets a new code. */
export const enrollPhoneActor = fromPromise<void, { phoneNumber: string }>(({ input }) => enrollMfa(input.phoneNumber));

/** MFA enrolment (SPEC §2): a phone number, then the texted code, then verified. */
export const mfaEnrollmentMachine = setup({
  types: {
    context: {} as MfaEnrollmentContext,
    events: {} as MfaEnrollmentEvent,
  },
  actors: {
    enroll: enrollPhoneActor,
    /** send-otp texts the pending number of a user not yet enrolled. */
    resendCode: fromPromise<void, { phoneNumber: string }>(() => sendMfaCode()),
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
    // The number the code goes to, for a flow that resends by enrolling it again (mfaPhoneChange).
    resending: sendingCodeState('resendCode', 'code', ({ context }: { context: MfaEnrollmentContext }) => ({ phoneNumber: context.phoneNumber })),
    verifying: verifyingCodeState('VERIFY', { verified: 'verified', codeEntry: 'code', then: ['reportVerified'] }),
    verified: { type: 'final' },
  },
});
