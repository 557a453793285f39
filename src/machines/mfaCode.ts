import { type AnyEventObject, assertEvent, fromPromise } from 'xstate';
import { accountErrorMessage, sendMfaCode, verifyMfaCode } from '../services/account.ts';
import { ACCOUNT_MESSAGES } from '../services/account.messages.ts';
import { writeMfaToken } from '../services/storage.ts';

/**
 * The SMS code step shared by the session (an MFA challenge) and MFA enrolment: both send a code, verify what the
 * user typed, keep the MFA token the server returns, and show the SPEC §8 message when a step fails.
 */

/** Texts a new code to the user's verified phone (the session's MFA challenge). */
export const sendMfaCodeActor = fromPromise<void>(() => sendMfaCode());

/** Verifies the typed code; its output is the MFA token. */
export const verifyMfaCodeActor = fromPromise<string, { otp: string }>(({ input }) => verifyMfaCode(input.otp));

/** Keeps the MFA token so that later calls carry it. */
export const storeMfaToken = (_: unknown, { mfaToken }: { mfaToken: string }) => writeMfaToken(mfaToken);

/** The `storeMfaToken` action fed by a verifyMfaCodeActor's output. */
export const STORE_VERIFIED_MFA_TOKEN = {
  type: 'storeMfaToken',
  params: ({ event }: { event: { output: string } }) => ({ mfaToken: event.output }),
} as const;

/** The `assignError` action for any failed account step (sign-in too): the AccountError's message, else the fallback. */
export function assignAccountError(fallback: string) {
  return {
    type: 'assignError',
    params: ({ event }: { event: { error: unknown } }) => ({ error: accountErrorMessage(event.error, fallback) }),
  } as const;
}

/**
 * The busy state that verifies the code a `verifyEvent` carries (actors 'verifyCode' and actions 'storeMfaToken',
 * 'assignError' in its machine): accepted, the MFA token is kept and `then` follows on the way to `verified`;
 * refused, back to `codeEntry` with the SPEC §8 message.
 */
export function verifyingCodeState<const Then extends readonly string[]>(verifyEvent: string, { verified, codeEntry, then }: {
  verified: string;
  codeEntry: string;
  then: Then;
}) {
  return {
    tags: ['busy'],
    invoke: {
      id: 'verifyCode',
      src: 'verifyCode',
      input: ({ event }: { event: AnyEventObject }) => {
        assertEvent(event, verifyEvent);
        return { otp: event.otp as string };
      },
      onDone: { target: verified, actions: [STORE_VERIFIED_MFA_TOKEN, ...then] },
      onError: { target: codeEntry, actions: assignAccountError(ACCOUNT_MESSAGES.mfaVerifyFailed) },
    },
  } as const;
}

/**
 * The busy state that texts a code through the actor `src` (given `input`, if it takes one): sent or not, it goes
 * back to `codeEntry`, a failure with the SPEC §8 message (action 'assignError' in its machine).
 */
export function sendingCodeState<const Src extends string, Input = undefined>(src: Src, codeEntry: string, input?: Input) {
  return {
    tags: ['busy'],
    invoke: {
      id: src,
      src,
      input: input as Input,
      onDone: codeEntry,
      onError: { target: codeEntry, actions: assignAccountError(ACCOUNT_MESSAGES.mfaCodeRequestFailed) },
    },
  } as const;
}
