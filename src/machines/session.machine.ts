import { assertEvent, assign, emit, fromCallback, fromPromise, setup } from 'xstate';
import type { User } from '../contract/account.ts';
import { isStaffRole } from '../contract/account.rules.ts';
import { ACCESS_TURNED_OFF_ERROR, MFA_REQUIRED_ERROR } from '../contract/common.constants.ts';
import { AccountError, type Credentials, type SignInAnswer, type SignUpDetails, fetchCurrentUser, signIn, signOut, signUp } from '../services/account.ts';
import { ACCOUNT_MESSAGES } from '../services/account.messages.ts';
import { setAnalyticsUser, track } from '../services/analytics.ts';
import { setErrorUser } from '../services/errorReporting.ts';
import { type AuthFailure, onAuthFailure } from '../services/http.ts';
import { navigate } from '../services/navigation.ts';
import { clearSession, hasValidSession, rememberReturnTo, takeReturnTo, writeToken } from '../services/storage.ts';
import {
  assignAccountError,
  sendMfaCodeActor,
  storeMfaToken,
  sendingCodeState,
  verifyMfaCodeActor,
  verifyingCodeState,
} from './mfaCode.ts';

export const SIGN_IN_PATH = '/sign-in';
export const MFA_ENROLLMENT_PATH = '/mfa-enrollment';
export const ABOUT_US_PATH = '/welcome/about-us';
export const DASHBOARD_PATH = '/dashboard';
export const CONSOLE_PATH = '/console';
export const EMPLOYER_REPORT_PATH = '/employer/report';

/**
 * Where a signed-in user starts: staff work in the console, employees start on the Dashboard (issue 32), an employer
 * admin has their company's report and nothing else (issue 29).
 */
export function homePathOf(user: Pick<User, 'role'> | null): string {
  if (user?.role === 'employer_admin') return EMPLOYER_REPORT_PATH;
  return isStaffRole(user?.role) ? CONSOLE_PATH : DASHBOARD_PATH;
}

/** SPEC §2: the root path and the sign-in path are never remembered as the place to return to. */
const NOT_REMEMBERED = ['/', SIGN_IN_PATH];

export interface SessionContext {
  user: User | null;
  /** SPEC §4 MFA flags. */
  mfaRequired: boolean;
  mfaEnrollmentVerification: boolean;
  mfaEnrollmentAvailable: boolean;
  /** The SPEC §8 message the current form shows in its red banner. */
  error: string | null;
  /** A success message shown on the sign-in screen, e.g. after a password reset. */
  notice: string | null;
}

export type SessionEvent =
  | ({ type: 'SIGN_IN' } & Credentials)
  | ({ type: 'SIGN_UP' } & SignUpDetails)
  | { type: 'SEND_CODE' }
  | { type: 'VERIFY_CODE'; otp: string }
  | { type: 'ENROLLMENT_VERIFIED' }
  | { type: 'SKIP_ENROLLMENT' }
  | { type: 'START_ENROLLMENT' }
  | { type: 'SIGN_OUT' }
  | { type: 'AUTH_FAILURE'; failure: AuthFailure }
  | { type: 'REFRESH_USER' }
  | { type: 'REQUEST_CREATED' }
  | { type: 'NOTICE'; message: string }
  /** The SSO flow took the one-time code of the identity provider's sign-in (ssoSignIn.machine.ts): a session. */
  | { type: 'SSO_SIGNED_IN'; answer: SignInAnswer };

const NO_MFA_STEP = { mfaRequired: false, mfaEnrollmentVerification: false, mfaEnrollmentAvailable: false };

function isUnauthorized(error: unknown): boolean {
  return error instanceof AccountError && error.status === 401;
}

/** A sign-up is followed by a sign-in (SPEC §7); the company joined is kept for the sign_up analytics event. */
export interface SignUpOutcome {
  answer: SignInAnswer;
  companySlug: string | undefined;
}

/**
 * What the machine needs from a sign-in answer to choose the next step. SPEC §4: enrolment is offered (when the
 * company makes it optional) after sign-up only; a later sign-in offers it only when the company requires it.
 */
interface AnswerParams {
  answer: SignInAnswer;
  afterSignUp: boolean;
}
const signInAnswerOf = ({ event }: { event: { output: SignInAnswer } }): AnswerParams => ({
  answer: event.output,
  afterSignUp: false,
});
const signUpAnswerOf = ({ event }: { event: { output: SignUpOutcome } }): AnswerParams => ({
  answer: event.output.answer,
  afterSignUp: true,
});
const ssoAnswerOf = ({ event }: { event: SessionEvent }): AnswerParams => {
  assertEvent(event, 'SSO_SIGNED_IN');
  return { answer: event.answer, afterSignUp: false };
};
/** An SSO session skips the app's MFA (the identity provider did it): into the app, as after a sign-in. */
const SSO_HANDOFF = {
  target: '#session.authenticated.enteringApp',
  actions: ['clearMessages', { type: 'storeToken', params: ssoAnswerOf }, { type: 'assignMfaFlags', params: ssoAnswerOf }],
} as const;
const failureOf = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

const SEND_TO_SIGN_IN = ['rememberCurrentAddress', { type: 'navigate', params: { to: SIGN_IN_PATH } }] as const;
/** SPEC §4 session loss (a 401 the user did not cause, an expired token included): SignIn opens with the return address remembered. */
const LOSE_SESSION = ['clearStoredSession', 'forgetUser', ...SEND_TO_SIGN_IN] as const;
/** SPEC §4 sign-out: as a session loss, but nothing is remembered to return to. */
const END_SESSION = ['clearStoredSession', 'forgetUser', { type: 'navigate', params: { to: SIGN_IN_PATH } }] as const;
/**
 * The employer's directory turned the employee off (SCIM, issue 29): signed out, nothing to return to, and SignIn says
 * why in its red banner, never a silent sign-out.
 */
const ACCESS_TURNED_OFF = [...END_SESSION, { type: 'assignError', params: { error: ACCESS_TURNED_OFF_ERROR } }] as const;

/** SPEC §4 sign-in flow: the token is kept, then MFA, else enrolment, else the app. */
function nextStepAfter<Output>(answerOf: (args: { event: { output: Output } }) => AnswerParams) {
  const accept = [{ type: 'storeToken', params: answerOf }, { type: 'assignMfaFlags', params: answerOf }] as const;
  return [
    { guard: { type: 'requiresMfa', params: answerOf }, target: '#session.authenticated.mfa', actions: accept },
    { guard: { type: 'offersEnrollment', params: answerOf }, target: '#session.authenticated.enrollment', actions: accept },
    // A new account has not been onboarded, so after sign-up entering the app leads to AboutUs (navigateIntoApp).
    { target: '#session.authenticated.enteringApp', actions: accept },
  ] as const;
}

/**
 * A current-user load that failed with a 401: an MFA challenge or a lost session. Any other failure shows the SPEC §8
 * message (USER_LOAD_FAILED): a signed-in user stays signed in with what was loaded before; otherwise nobody is
 * signed in, though the stored session is kept so that the next start tries again.
 */
const USER_LOAD_REFUSED = [
  { guard: { type: 'isAccessTurnedOff', params: failureOf }, target: '#session.signedOut', actions: ACCESS_TURNED_OFF },
  {
    guard: { type: 'isMfaChallenge', params: failureOf },
    target: '#session.authenticated.mfa',
    actions: ['raiseMfaFlag', ...SEND_TO_SIGN_IN],
  },
  { guard: { type: 'isUnauthorized', params: failureOf }, target: '#session.signedOut', actions: LOSE_SESSION },
] as const;
const USER_LOAD_FAILED = { type: 'assignError', params: { error: ACCOUNT_MESSAGES.currentUserFailed } } as const;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    emitted: {} as { type: 'requestCreated' },
  },
  actors: {
    /** A stored, unexpired session is resumed by loading its user; without one there is nothing to restore. */
    restoreSession: fromPromise<User | null>(async () => (hasValidSession() ? fetchCurrentUser() : null)),
    signIn: fromPromise<SignInAnswer, Credentials>(({ input }) => signIn(input)),
    /** SPEC §7: sign-up is followed by a sign-in with the same credentials. */
    signUp: fromPromise<SignUpOutcome, SignUpDetails>(async ({ input }) => {
      const email = await signUp(input);
      return { answer: await signIn({ email, password: input.password }), companySlug: input.company_slug };
    }),
    fetchCurrentUser: fromPromise<User>(() => fetchCurrentUser()),
    sendCode: sendMfaCodeActor,
    verifyCode: verifyMfaCodeActor,
    signOut: fromPromise<void>(() => signOut()),
    /** DESIGN §5: the HTTP client reports lost sessions and MFA challenges (SPEC §4) to the session. */
    authFailures: fromCallback<SessionEvent>(({ sendBack }) =>
      onAuthFailure((failure) => sendBack({ type: 'AUTH_FAILURE', failure })),
    ),
  },
  actions: {
    storeToken: (_, { answer }: AnswerParams) => writeToken(answer.token, answer.expires_at),
    /** SPEC §3: once per account created and signed in (a refused or unconfirmable sign-up is not one); no personal data. */
    trackSignUp: (_, { companySlug }: { companySlug: string | undefined }) =>
      track('sign_up', companySlug ? { company_slug: companySlug } : {}),
    storeMfaToken,
    /** SPEC §6: analytics and error reports say whether the user is internal staff. */
    identifyUser: (_, { user }: { user: User }) => {
      setAnalyticsUser(user);
      setErrorUser(user);
    },
    /** SPEC §4: token, MFA token, local storage and the analytics user (the latter first, see setAnalyticsUser). */
    clearStoredSession: () => {
      setAnalyticsUser(null);
      setErrorUser(null);
      clearSession();
    },
    rememberCurrentAddress: () => {
      const { pathname, search, hash } = window.location;
      if (!NOT_REMEMBERED.includes(pathname)) rememberReturnTo(`${pathname}${search}${hash}`);
    },
    navigate: (_, { to }: { to: string }) => navigate(to),
    /**
     * SPEC §2/§4: onboarding first when it is due, else the remembered address, else the user's home (the Dashboard,
     * or the console for staff). Onboarding
     * consumes the remembered address too: a new account has nothing to return to, and a stale address must not
     * surface at a later sign-in.
     */
    navigateIntoApp: (_, { user }: { user: User }) => {
      const returnTo = takeReturnTo();
      navigate(user.onboarding_required ? ABOUT_US_PATH : (returnTo ?? homePathOf(user)));
    },
    assignMfaFlags: assign((_, { answer, afterSignUp }: AnswerParams) => ({
      mfaRequired: answer.mfa_required,
      mfaEnrollmentVerification: answer.mfa_requires_verification,
      mfaEnrollmentAvailable: afterSignUp && answer.mfa_enrollment_available,
    })),
    /** Enrolment chosen later from Account Settings: it is optional, and afterwards the user is back on Account. */
    offerEnrollment: assign({ mfaEnrollmentAvailable: true }),
    assignUser: assign((_, { user }: { user: User }) => ({ user, error: null })),
    assignError: assign((_, { error }: { error: string }) => ({ error })),
    clearMessages: assign({ error: null, notice: null }),
    raiseMfaFlag: assign({ mfaRequired: true }),
    clearMfaFlags: assign(NO_MFA_STEP),
    forgetUser: assign({ user: null, ...NO_MFA_STEP }),
  },
  delays: {
    /** Long enough for the router to finish a navigation to a route without loaders (a few microtasks). */
    routerSettled: 0,
  },
  guards: {
    requiresMfa: (_, { answer }: AnswerParams) => answer.mfa_required,
    offersEnrollment: (_, { answer, afterSignUp }: AnswerParams) =>
      answer.mfa_requires_verification || (afterSignUp && answer.mfa_enrollment_available),
    isNotEnrolled: ({ context }) => context.user !== null && !context.user.mfa_enrolled,
    isMfaChallenge: (_, { error }: { error: unknown }) =>
      isUnauthorized(error) && (error as AccountError).serverError === MFA_REQUIRED_ERROR,
    isUnauthorized: (_, { error }: { error: unknown }) => isUnauthorized(error),
    isAccessTurnedOff: (_, { error }: { error: unknown }) =>
      isUnauthorized(error) && (error as AccountError).serverError === ACCESS_TURNED_OFF_ERROR,
    isAccessTurnedOffFailure: ({ event }) => event.type === 'AUTH_FAILURE' && event.failure === 'accessTurnedOff',
    isMfaFailure: ({ event }) => event.type === 'AUTH_FAILURE' && event.failure === 'mfaRequired',
    enrollmentIsOptional: ({ context }) => !context.mfaEnrollmentVerification,
    hasUser: (_, { user }: { user: User | null }) => user !== null,
  },
}).createMachine({
  id: 'session',
  context: {
    user: null,
    ...NO_MFA_STEP,
    error: null,
    notice: null,
  },
  invoke: { id: 'authFailures', src: 'authFailures' },
  initial: 'restoring',
  on: {
    NOTICE: { actions: assign({ notice: ({ event }) => event.message }) },
  },
  states: {
    restoring: {
      tags: ['resolving'],
      invoke: {
        id: 'restoreSession',
        src: 'restoreSession',
        onDone: [
          {
            guard: { type: 'hasUser', params: ({ event }) => ({ user: event.output }) },
            target: 'authenticated.signedIn',
            actions: [
              { type: 'assignUser', params: ({ event }) => ({ user: event.output! }) },
              { type: 'identifyUser', params: ({ event }) => ({ user: event.output! }) },
            ],
          },
          { target: 'signedOut' },
        ],
        onError: [...USER_LOAD_REFUSED, { target: '#session.signedOut', actions: ['forgetUser', USER_LOAD_FAILED] }],
      },
    },

    signedOut: {
      tags: ['signedOut'],
      initial: 'idle',
      states: {
        idle: {
          on: {
            SIGN_IN: { target: 'signingIn', actions: 'clearMessages' },
            SIGN_UP: { target: 'signingUp', actions: 'clearMessages' },
            SSO_SIGNED_IN: SSO_HANDOFF,
          },
        },
        /** Like idle, but the error belongs to the sign-up form (the sign-in form does not show it). */
        signUpFailed: {
          on: {
            SIGN_IN: { target: 'signingIn', actions: 'clearMessages' },
            SIGN_UP: { target: 'signingUp', actions: 'clearMessages' },
          },
        },
        signingIn: {
          tags: ['busy'],
          invoke: {
            id: 'signIn',
            src: 'signIn',
            input: ({ event }) => {
              assertEvent(event, 'SIGN_IN');
              return { email: event.email, password: event.password };
            },
            onDone: nextStepAfter(signInAnswerOf),
            onError: {
              target: 'idle',
              actions: [
                'clearStoredSession',
                assignAccountError(ACCOUNT_MESSAGES.signInError),
              ],
            },
          },
        },
        signingUp: {
          tags: ['busy'],
          invoke: {
            id: 'signUp',
            src: 'signUp',
            input: ({ event }) => {
              assertEvent(event, 'SIGN_UP');
              const { type: _type, ...details } = event;
              return details;
            },
            onDone: nextStepAfter(signUpAnswerOf).map((step) => ({
              ...step,
              actions: [{ type: 'trackSignUp', params: ({ event }) => event.output }, ...step.actions],
            })),
            onError: {
              target: 'signUpFailed',
              actions: [
                'clearStoredSession',
                assignAccountError(ACCOUNT_MESSAGES.signUpError),
              ],
            },
          },
        },
      },
    },

    /** A session token is held. Any call may report that it is gone, or that an SMS code must be verified first. */
    authenticated: {
      initial: 'enteringApp',
      on: {
        AUTH_FAILURE: [
          { guard: 'isMfaFailure', target: '.mfa', actions: ['raiseMfaFlag', ...SEND_TO_SIGN_IN] },
          { guard: 'isAccessTurnedOffFailure', target: 'signedOut', actions: ACCESS_TURNED_OFF },
          { target: 'signedOut', actions: LOSE_SESSION },
        ],
      },
      states: {
        mfa: {
          tags: ['mfaPending'],
          initial: 'sendingCode',
          on: {
            // Already on the code step: another MFA challenge changes nothing (a session loss still applies).
            AUTH_FAILURE: { guard: 'isMfaFailure' },
          },
          states: {
            sendingCode: sendingCodeState('sendCode', 'codeEntry'),
            codeEntry: {
              on: {
                SEND_CODE: { target: 'sendingCode', actions: 'clearMessages' },
                VERIFY_CODE: { target: 'verifying', actions: 'clearMessages' },
                // No code arrives (e.g. a lost phone): the user leaves, to sign in again later.
                SIGN_OUT: { target: '#session.signingOut.abandoningSignIn', actions: 'clearMessages' },
              },
            },
            verifying: verifyingCodeState('VERIFY_CODE', { verified: '#session.authenticated.enteringApp', codeEntry: 'codeEntry', then: ['clearMfaFlags'] }),
          },
        },

        /** The MfaEnrollment screen runs its own flow and reports back; optional enrolment may be skipped. */
        enrollment: {
          tags: ['enrollmentPending'],
          entry: { type: 'navigate', params: { to: MFA_ENROLLMENT_PATH } },
          on: {
            ENROLLMENT_VERIFIED: { target: 'enteringApp', actions: 'clearMfaFlags' },
            SKIP_ENROLLMENT: { guard: 'enrollmentIsOptional', target: 'enteringApp', actions: 'clearMfaFlags' },
            // Until enrolment is verified every other call is refused for MFA: enrolment itself is the answer.
            AUTH_FAILURE: { guard: 'isMfaFailure' },
            SIGN_OUT: '#session.signingOut.abandoningSignIn',
          },
        },

        /** Signed in (and verified): the user is loaded, then the app opens where SPEC §2/§4 say. */
        enteringApp: {
          tags: ['resolving', 'busy'],
          invoke: {
            id: 'fetchCurrentUser',
            src: 'fetchCurrentUser',
            onDone: {
              target: 'openingApp',
              actions: [
                { type: 'assignUser', params: ({ event }) => ({ user: event.output }) },
                { type: 'identifyUser', params: ({ event }) => ({ user: event.output }) },
              ],
            },
            onError: [...USER_LOAD_REFUSED, { target: '#session.signedOut', actions: ['forgetUser', USER_LOAD_FAILED] }],
          },
        },

        /**
         * The app opens where SPEC §2/§4 say. The router applies a navigation asynchronously, so the session is
         * signed in only once it has: meanwhile no guard of the screen being left (SignIn sends a signed-in user to
         * the Dashboard) can act and override the destination.
         */
        openingApp: {
          tags: ['resolving'],
          entry: { type: 'navigateIntoApp', params: ({ context }) => ({ user: context.user! }) },
          after: { routerSettled: 'signedIn' },
        },

        signedIn: {
          tags: ['signedIn'],
          initial: 'idle',
          on: {
            SIGN_OUT: '#session.signingOut.leavingApp',
            // SPEC §3: request_count is incremented locally when the user creates a request.
            REQUEST_CREATED: {
              actions: [
                assign({
                  user: ({ context }) => context.user && { ...context.user, request_count: context.user.request_count + 1 },
                }),
                // The screens that list requests reload (machines/system.ts, requestsCreated).
                emit({ type: 'requestCreated' }),
              ],
            },
          },
          states: {
            idle: {
              on: {
                REFRESH_USER: { target: 'refreshing', actions: 'clearMessages' },
                START_ENROLLMENT: {
                  guard: 'isNotEnrolled',
                  target: '#session.authenticated.enrollment',
                  actions: ['rememberCurrentAddress', 'offerEnrollment'],
                },
              },
            },
            refreshing: {
              tags: ['busy'],
              invoke: {
                id: 'refreshUser',
                src: 'fetchCurrentUser',
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'assignUser', params: ({ event }) => ({ user: event.output }) },
                    { type: 'identifyUser', params: ({ event }) => ({ user: event.output }) },
                  ],
                },
                onError: [...USER_LOAD_REFUSED, { target: 'idle', actions: USER_LOAD_FAILED }],
              },
            },
          },
        },
      },
    },

    /** SPEC §4: the server is told, then the session ends whatever it answered. */
    signingOut: {
      tags: ['busy'],
      initial: 'leavingApp',
      states: {
        /** From the app: it stays on screen (with the Sign Out button busy) until the session has ended. */
        leavingApp: { tags: ['signedIn'] },
        /** From the code step or enrolment, where no user is loaded: the app is never shown. */
        abandoningSignIn: { tags: ['signedOut'] },
      },
      invoke: {
        id: 'signOut',
        src: 'signOut',
        onDone: { target: 'signedOut', actions: END_SESSION },
        onError: { target: 'signedOut', actions: END_SESSION },
      },
    },
  },
});
