import { fromPromise } from 'xstate';
import { accountErrorMessage, sendMfaCode, verifyMfaCode } from '../services/account.ts';
import { writeMfaToken } from '../services/storage.ts';

/**
 * The SMS code step shared by the session (an MFA challenge) and MFA enrolment: both send a code, verify what the
 * user typed, keep the MFA token the server returns, and show the SPEC §8 message when a step fails.
 */

/** Texts a new code to the user's phone. */
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
