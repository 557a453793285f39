import type { KyInstance } from 'ky';
import type { ResetPasswordRequest, SignUpRequest, User } from '../contract/account.ts';
import { AUTHORIZATION_HEADER, MFA_TOKEN_HEADER } from '../contract/common.constants.ts';
import { ACCOUNT_MESSAGES, EMAIL_CONFIRMATION_MESSAGES } from './account.messages.ts';
import { api, requireSuccess, serverMessage, statusOf } from './http.ts';

/**
 * The schemas that check the answers load with the first call, beside the HTTP client and the answer, not with the
 * sign-in page (DESIGN §9 weight budget: neither zod nor ky is part of the first paint). A module that cannot load
 * fails the call like any other error.
 */
const accountSchemas = () => import('../contract/account.ts');
const commonSchemas = () => import('../contract/common.ts');

/**
 * A failed account call. `message` is what the form shows (SPEC §8); `status` and `serverError` let the session
 * tell a lost session or an MFA challenge from any other failure. The account calls alone word their failures
 * (http.ts error policy): SPEC §8 gives each account step its own messages, read from the call's failure here.
 */
export class AccountError extends Error {
  readonly status: number | null;
  readonly serverError: string | null;

  constructor(message: string, status: number | null = null, serverError: string | null = null) {
    super(message);
    this.name = 'AccountError';
    this.status = status;
    this.serverError = serverError;
  }
}

/** What a form shows for a failed account call: the AccountError's SPEC §8 message, else the step's own fallback. */
export function accountErrorMessage(error: unknown, fallback: string): string {
  return error instanceof AccountError ? error.message : fallback;
}

/** A failure whose message is the server's error, else the fallback. */
function withServerMessage(error: unknown, fallback: string): AccountError {
  const fromServer = serverMessage(error, '');
  return new AccountError(fromServer || fallback, statusOf(error), fromServer || null);
}

/**
 * SPEC §8 sign-in / sign-up rule: the statuses that mean "the server refused these details" show the server's
 * message (else the "unable" text); any other failure shows the generic error.
 */
function refusal(error: unknown, refusedStatuses: readonly number[], unavailable: string, otherwise: string): AccountError {
  const status = statusOf(error);
  if (status !== null && refusedStatuses.includes(status)) return withServerMessage(error, unavailable);
  return new AccountError(otherwise, status);
}

/** Runs a call and its answer parsing; anything that goes wrong becomes an AccountError. */
async function attempt<T>(call: () => Promise<T>, toFailure: (error: unknown) => AccountError): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof AccountError ? error : toFailure(error);
  }
}

export interface Credentials {
  email: string;
  password: string;
}

/** SPEC §3 sign-in response: the session token comes in the authorization header, the rest in the body. */
export interface SignInAnswer {
  token: string;
  expires_at: string;
  mfa_required: boolean;
  mfa_requires_verification: boolean;
  mfa_enrollment_available: boolean;
}

export async function signIn({ email, password }: Credentials): Promise<SignInAnswer> {
  return attempt(
    async () => {
      const [response, { signInResponse }] = await Promise.all([
        api().then((client) => client.post('users/sign_in', { json: { user: { email, password } } })),
        accountSchemas(),
      ]);
      const token = response.headers.get(AUTHORIZATION_HEADER);
      if (!token) throw new AccountError(ACCOUNT_MESSAGES.noAuthorizationToken, response.status);
      return { token, ...signInResponse.parse(await response.json()) };
    },
    (error) => refusal(error, [401], ACCOUNT_MESSAGES.signInUnavailable, ACCOUNT_MESSAGES.signInError),
  );
}

export type SignUpDetails = Omit<SignUpRequest['user'], 'terms_of_service'>;

/** Creates the account; SPEC §7: the answer's data is a JSON string holding the e-mail. Returns that e-mail. */
export async function signUp(details: SignUpDetails): Promise<string> {
  return attempt(
    async () => {
      const [data, { signUpResponse, signUpResponseData }] = await Promise.all([
        api().then((client) => client.post('users/sign_up', { json: { user: { ...details, terms_of_service: 1 } } }).json()),
        accountSchemas(),
      ]);
      return signUpResponseData.parse(JSON.parse(signUpResponse.parse(data))).email;
    },
    (error) => refusal(error, [401, 422], ACCOUNT_MESSAGES.signUpUnavailable, ACCOUNT_MESSAGES.signUpError),
  );
}

/** Ends the session on the server; the caller clears the local session whatever the outcome. */
export async function signOut(): Promise<void> {
  const client = await api();
  await client.delete('users/sign_out');
}

/** Fails with the current-user message (SPEC §8); the status tells the session whether it was a 401. */
export async function fetchCurrentUser(): Promise<User> {
  return attempt(
    async () => {
      const [data, { currentUserResponse }] = await Promise.all([
        api().then((client) => client.get('users/current').json()),
        accountSchemas(),
      ]);
      return currentUserResponse.parse(data).user;
    },
    (error) => withServerMessage(error, ACCOUNT_MESSAGES.currentUserFailed),
  );
}

/**
 * The account calls whose answer is only a success flag: a 2xx with `success: false` fails like an error status,
 * with the server's message when it sends one, else the SPEC §8 text.
 */
async function callForSuccess(call: (client: KyInstance) => Promise<unknown>, fallback: string): Promise<void> {
  await attempt(
    async () => {
      const [data, { successBody }] = await Promise.all([api().then(call), commonSchemas()]);
      successBody.parse(data);
      requireSuccess(data);
    },
    (error) => withServerMessage(error, fallback),
  );
}

export function requestPasswordReset(email: string): Promise<void> {
  return callForSuccess(
    (client) => client.post('users/password', { json: { user: { email } } }).json(),
    ACCOUNT_MESSAGES.resetUnavailable,
  );
}

export function resetPassword(request: ResetPasswordRequest): Promise<void> {
  return callForSuccess((client) => client.put('users/password', { json: request }).json(), ACCOUNT_MESSAGES.resetUnavailable);
}

export function unlockAccount(unlockToken: string): Promise<void> {
  return callForSuccess(
    (client) => client.get('users/unlock', { searchParams: { unlock_token: unlockToken } }).json(),
    ACCOUNT_MESSAGES.unlockFailed,
  );
}

export function confirmEmail(confirmationToken: string): Promise<void> {
  return callForSuccess(
    (client) => client.get('users/confirmation', { searchParams: { confirmation_token: confirmationToken } }).json(),
    EMAIL_CONFIRMATION_MESSAGES.confirmationFailed,
  );
}

/** Asks the server to e-mail the signed-in user a new confirmation link. */
export function requestConfirmationLink(): Promise<void> {
  return callForSuccess((client) => client.post('users/confirmation').json(), EMAIL_CONFIRMATION_MESSAGES.linkRequestFailed);
}

/** Asks the server to text a new code to the user's verified phone. */
export function sendMfaCode(): Promise<void> {
  return callForSuccess((client) => client.post('mfa/send-otp').json(), ACCOUNT_MESSAGES.mfaCodeRequestFailed);
}

/** Enrols the 10-digit number and texts a code to it. */
export function enrollMfa(phoneNumber: string): Promise<void> {
  return callForSuccess(
    (client) => client.post('mfa', { json: { mfa_number: phoneNumber } }).json(),
    ACCOUNT_MESSAGES.mfaEnrollFailed,
  );
}

/** Verifies a texted code; returns the MFA token the server sends in the mfa-token header. */
export async function verifyMfaCode(otp: string): Promise<string> {
  return attempt(
    async () => {
      const [response, { successBody }] = await Promise.all([
        api().then((client) => client.post('mfa/verify', { json: { otp } })),
        commonSchemas(),
      ]);
      const body: unknown = await response.json();
      successBody.parse(body);
      requireSuccess(body);
      const mfaToken = response.headers.get(MFA_TOKEN_HEADER);
      if (!mfaToken) throw new AccountError(ACCOUNT_MESSAGES.noMfaToken, response.status);
      return mfaToken;
    },
    (error) => withServerMessage(error, ACCOUNT_MESSAGES.mfaVerifyFailed),
  );
}
