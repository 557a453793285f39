import { assign, sendTo, setup } from 'xstate';
import { enrollPhoneActor, mfaEnrollmentMachine } from './mfaEnrollment.machine.ts';
import { SYSTEM_IDS, inSystem } from './system.ts';

/**
 * The new number's steps are enrolment's own (number, texted code, verify), run again on an enrolled account. Two
 * things differ: a new code is asked for by enrolling the same number again, since `send-otp` texts an enrolled
 * user's current phone; and once verified the session fetches the user again, whose masked phone then follows.
 */
export const newPhoneVerificationMachine = mfaEnrollmentMachine.provide({
  actors: {
    resendCode: enrollPhoneActor,
  },
  actions: {
    reportVerified: sendTo(inSystem(SYSTEM_IDS.session), { type: 'REFRESH_USER' }),
  },
});

export interface MfaPhoneChangeContext {
  /** The phone was changed in this visit: Account says so. */
  changed: boolean;
}

export type MfaPhoneChangeEvent = { type: 'OPEN' } | { type: 'CANCEL' };

/**
 * Account Settings' MFA phone (issue 32 point 3): the verified phone is shown masked; 'Change phone' runs the new
 * number's verification; the server keeps the old phone until the new one's code is verified, so cancelling (or
 * leaving) half-way changes nothing.
 */
export const mfaPhoneChangeMachine = setup({
  types: {
    context: {} as MfaPhoneChangeContext,
    events: {} as MfaPhoneChangeEvent,
  },
  actors: { verifyNewPhone: newPhoneVerificationMachine },
}).createMachine({
  id: 'mfaPhoneChange',
  context: { changed: false },
  initial: 'showing',
  states: {
    showing: {
      on: { OPEN: { target: 'changing', actions: assign({ changed: false }) } },
    },
    changing: {
      invoke: {
        id: 'verifyNewPhone',
        src: 'verifyNewPhone',
        onDone: { target: 'showing', actions: assign({ changed: true }) },
      },
      on: { CANCEL: 'showing' },
    },
  },
});
