import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { Navigate, Outlet, RouterProvider, createBrowserRouter, useHref, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { RequireAuth } from '../../src/app/guards.tsx';
import { AppSystemProvider, useSession } from '../../src/machines/appSystem.tsx';
import type { SessionActor } from '../../src/machines/app.machine.ts';
import { appOfSession, startSessionInApp } from './appSystem.support.tsx';
import type { User } from '../../src/contract/account.ts';
import { MFA_REQUIRED_ERROR, MFA_TOKEN_HEADER } from '../../src/contract/common.ts';
import { ACCESS_TURNED_OFF_ERROR } from '../../src/contract/common.constants.ts';
import { type SignUpOutcome, sessionMachine } from '../../src/machines/session.machine.ts';
import { AccountError, type SignInAnswer } from '../../src/services/account.ts';
import { ACCOUNT_MESSAGES } from '../../src/services/account.messages.ts';
import { setRouter } from '../../src/services/navigation.ts';
import { readSession, rememberReturnTo } from '../../src/services/storage.ts';
import Account from '../../src/views/Account.tsx';
import MfaEnrollment from '../../src/views/MfaEnrollment.tsx';
import SignIn from '../../src/views/SignIn.tsx';
import SignUp from '../../src/views/SignUp.tsx';
import { Spinner } from '../../src/widgets/Spinner.tsx';
import {
  type EventExecutors,
  type LabelledEvent,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  flowModel,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';
import { type SentCall, fakeNetwork } from './network.support.ts';
import { employeeUser } from './users.fixtures.ts';

// The MfaEnrollment screen runs its own flow (tested in mfaEnrollment.model.test.tsx); here the server answers its
// calls at once.
const ENROLLED_DEVICE_TOKEN = 'enrolled-device-token';
let sent: SentCall[];

const EMAIL = 'ada@example.com';
const PASSWORD = 'secret-1';
const TOKEN = 'Bearer session-token';
const FIRST_ADDRESS = '/account';

const USER = employeeUser(
  { external_id: 'u-1', full_name: 'Ada Lovelace', first_name: 'Ada', initials: 'AL', email: EMAIL },
  { request_count: 2 },
);
const NEW_USER: User = { ...USER, request_count: 0, onboarding_required: true };

function signInAnswer(flags: Partial<SignInAnswer> = {}): SignInAnswer {
  return {
    token: TOKEN,
    expires_at: '2099-01-01T00:00:00.000Z',
    mfa_required: false,
    mfa_requires_verification: false,
    mfa_enrollment_available: false,
    ...flags,
  };
}

function signUpOutcome(flags: Partial<SignInAnswer> = {}, companySlug?: string): SignUpOutcome {
  return { answer: signInAnswer(flags), companySlug };
}

/** The delayed event that opens the app once the router has moved (see openingApp). */
const ROUTER_SETTLED = 'xstate.after.routerSettled.session.authenticated.openingApp';

const SIGN_UP_DETAILS = { name: 'Ada', last_name: 'Lovelace', email: EMAIL, password: PASSWORD };

/** The three ways loading the current user fails (SPEC §4 session loss, MFA flags; §8). */
function userLoadFailures(id: string, what: string): LabelledEvent[] {
  return [
    errorEvent(id, new AccountError(MFA_REQUIRED_ERROR, 401, MFA_REQUIRED_ERROR), `${what}: MFA challenge`),
    errorEvent(id, new AccountError('Your session has expired', 401, 'Your session has expired'), `${what}: session expired`),
    errorEvent(id, new AccountError(ACCESS_TURNED_OFF_ERROR, 401, ACCESS_TURNED_OFF_ERROR), `${what}: access turned off`),
    errorEvent(id, new AccountError(ACCOUNT_MESSAGES.currentUserFailed, 500), `${what}: server failure`),
  ];
}

const MODEL_EVENTS: LabelledEvent[] = [
  doneEvent('restoreSession', null, 'nothing to restore'),
  doneEvent('restoreSession', USER, 'session restored'),
  ...userLoadFailures('restoreSession', 'restore'),
  { label: 'sign in', event: { type: 'SIGN_IN', email: EMAIL, password: PASSWORD } },
  doneEvent('signIn', signInAnswer(), 'signed in'),
  doneEvent('signIn', signInAnswer({ mfa_required: true }), 'signed in, code required'),
  doneEvent('signIn', signInAnswer({ mfa_requires_verification: true }), 'signed in, enrolment required'),
  doneEvent('signIn', signInAnswer({ mfa_enrollment_available: true }), 'signed in, enrolment offered'),
  errorEvent('signIn', new AccountError('Invalid email or password', 401, 'Invalid email or password'), 'credentials refused'),
  { label: 'sign up', event: { type: 'SIGN_UP', ...SIGN_UP_DETAILS } },
  doneEvent('signUp', signUpOutcome(), 'signed up'),
  doneEvent('signUp', signUpOutcome({ mfa_enrollment_available: true }), 'signed up, enrolment offered'),
  errorEvent('signUp', new AccountError('Email has already been taken', 422, 'Email has already been taken'), 'sign-up refused'),
  doneEvent('sendCode', undefined, 'code texted'),
  errorEvent('sendCode', new AccountError(ACCOUNT_MESSAGES.mfaCodeRequestFailed), 'code request failed'),
  { label: 'send a new code', event: { type: 'SEND_CODE' } },
  { label: 'verify code', event: { type: 'VERIFY_CODE', otp: '123456' } },
  doneEvent('verifyCode', 'device-token', 'code accepted'),
  errorEvent('verifyCode', new AccountError('The code is not valid', 401, 'The code is not valid'), 'code refused'),
  { label: 'enrolment verified', event: { type: 'ENROLLMENT_VERIFIED' } },
  { label: 'skip enrolment', event: { type: 'SKIP_ENROLLMENT' } },
  { label: 'add a phone from Account', event: { type: 'START_ENROLLMENT' } },
  doneEvent('fetchCurrentUser', USER, 'user loaded'),
  { label: 'router settled', event: { type: ROUTER_SETTLED } },
  doneEvent('fetchCurrentUser', NEW_USER, 'new user loaded'),
  ...userLoadFailures('fetchCurrentUser', 'user load'),
  { label: 'refresh user', event: { type: 'REFRESH_USER' } },
  doneEvent('refreshUser', { ...USER, full_name: 'Ada King' }, 'user refreshed'),
  ...userLoadFailures('refreshUser', 'refresh'),
  { label: 'request created', event: { type: 'REQUEST_CREATED' } },
  { label: 'notice', event: { type: 'NOTICE', message: ACCOUNT_MESSAGES.resetSucceeded } },
  { label: 'signed in by SSO', event: { type: 'SSO_SIGNED_IN', answer: signInAnswer() } },
  { label: 'sign out', event: { type: 'SIGN_OUT' } },
  doneEvent('signOut', undefined, 'signed out'),
  errorEvent('signOut', new Error('Failed to fetch'), 'sign-out call failed'),
  { label: 'MFA challenge', event: { type: 'AUTH_FAILURE', failure: 'mfaRequired' } },
  { label: 'session lost', event: { type: 'AUTH_FAILURE', failure: 'sessionLost' } },
  { label: 'access turned off by the employer', event: { type: 'AUTH_FAILURE', failure: 'accessTurnedOff' } },
];

/** Events other features send to the session (the HTTP client, the request flow, the reset flow, Account Settings, the SSO return). */
const APP_WIDE_EVENTS = ['AUTH_FAILURE', 'REFRESH_USER', 'REQUEST_CREATED', 'NOTICE', 'SIGN_OUT', 'START_ENROLLMENT', 'SSO_SIGNED_IN'];

/**
 * App-wide events are offered where they matter, and only in an undisturbed session (no message shown, the user as
 * loaded): each of them is then exercised once from every state that reacts to it, and the model stays small.
 */
const { paths, titled } = flowModel(sessionMachine, {
  events: MODEL_EVENTS,
  offer: (snapshot, { event }) => {
    if (!APP_WIDE_EVENTS.includes(event.type)) return true;
    const { error, notice, user: currentUser } = snapshot.context;
    if (error !== null || notice !== null || ![null, USER].includes(currentUser)) return false;
    if (event.type === 'NOTICE') return snapshot.matches({ signedOut: 'idle' });
    if (event.type === 'AUTH_FAILURE') {
      return (
        snapshot.matches({ authenticated: { signedIn: 'idle' } }) ||
        snapshot.matches({ authenticated: { mfa: 'codeEntry' } }) ||
        snapshot.matches({ authenticated: 'enrollment' })
      );
    }
    return true;
  },
});

/** A delay the test outlives, so that the model's executor decides when it is over. */
const NEVER_BY_ITSELF_MS = 3_600_000;

let user: UserEvent;
let actor: SessionActor;
let router: ReturnType<typeof createBrowserRouter>;
const trackedSignUps = vi.fn();

/** What the router does with the session (the app's own guards are tested with the router). */
function Shell() {
  const navigate = useNavigate();
  const isResolving = useSession((snapshot) => snapshot.hasTag('resolving'));
  return (
    <AriaRouterProvider navigate={(to) => void navigate(to)} useHref={useHref}>
      {isResolving ? <Spinner /> : <Outlet />}
    </AriaRouterProvider>
  );
}

/** SPEC §2: a signed-in user visiting SignIn or SignUp goes to the Dashboard. */
function SignedOutOnly() {
  const isSignedIn = useSession((snapshot) => snapshot.hasTag('signedIn'));
  return isSignedIn ? <Navigate to="/dashboard" replace /> : <Outlet />;
}

function OnlyWhile({ tag }: { tag: 'enrollmentPending' }) {
  const isAllowed = useSession((snapshot) => snapshot.hasTag(tag));
  return isAllowed ? <Outlet /> : <Navigate to="/sign-in" replace />;
}

/**
 * Renders the screens at `firstAddress` around a session whose calls wait for the test. In the model the router
 * "settles" when the path says so; in the journeys it does by itself, as in the app. With `signInCodeLoaded`, SignIn's
 * route is lazy, as in the app, and its code arrives when that promise resolves.
 */
function renderApp(
  firstAddress = FIRST_ADDRESS,
  routerSettles: 'when the path says' | 'by itself' = 'by itself',
  signInCodeLoaded?: Promise<void>,
) {
  window.history.replaceState(null, '', firstAddress);
  onTestFinished(() => appOfSession(actor).stop());
  actor = startSessionInApp(sessionMachine.provide({
      delays: routerSettles === 'by itself' ? {} : { routerSettled: NEVER_BY_ITSELF_MS },
      actions: { trackSignUp: trackedSignUps },
      actors: {
        restoreSession: pendingCalls.logic(),
        signIn: pendingCalls.logic(),
        signUp: pendingCalls.logic(),
        fetchCurrentUser: pendingCalls.logic(),
        sendCode: pendingCalls.logic(),
        verifyCode: pendingCalls.logic(),
        signOut: pendingCalls.logic(),
      },
    }));
  router = createBrowserRouter([
    {
      element: <Shell />,
      children: [
        {
          element: <SignedOutOnly />,
          children: [
            signInCodeLoaded
              ? { path: '/sign-in', lazy: async () => (await signInCodeLoaded, { element: <SignIn /> }) }
              : { path: '/sign-in', element: <SignIn /> },
            { path: '/sign-up/:companySlug?', element: <SignUp /> },
          ],
        },
        { element: <OnlyWhile tag="enrollmentPending" />, children: [{ path: '/mfa-enrollment', element: <MfaEnrollment /> }] },
        {
          // The app's own guard: what it remembers as returnTo is part of the session's rules (SPEC §2).
          element: <RequireAuth />,
          children: [
            { path: '/account', element: <Account /> },
            { path: '/dashboard', element: <h1>Dashboard</h1> },
            { path: '/welcome/about-us', element: <h1>About Us</h1> },
            { path: '/console', element: <h1>Concierge Console</h1> },
          ],
        },
      ],
    },
  ]);
  setRouter(router);
  render(
    <AppSystemProvider actor={appOfSession(actor)}>
      <RouterProvider router={router} />
    </AppSystemProvider>,
  );
}

const here = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;
const button = (name: string) => screen.getByRole('button', { name: new RegExp(`^(Loading)?\\s*${name}$`) });
const heading = (name: string) => screen.getByRole('heading', { level: 1, name });
const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}`));

async function fill(name: string, value: string) {
  await user.clear(field(name));
  await user.type(field(name), value);
}

function expectBanner(error: string | null) {
  if (error) expect(screen.getByRole('alert')).toHaveTextContent(error);
  else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
}

type Snapshot = ReturnType<SessionActor['getSnapshot']>;

/** SPEC §2/§4: onboarding first when it is due, else the remembered address (in these paths, the first) or the Dashboard. */
function expectInTheApp(signedInUser: User | null) {
  const expected = signedInUser?.onboarding_required ? ['/welcome/about-us'] : ['/dashboard', FIRST_ADDRESS];
  expect(expected).toContain(window.location.pathname);
}

const states: StateAssertions<typeof sessionMachine> = {
  restoring: () => {
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  },

  signedOut: ({ context }: Snapshot) => {
    expect(window.location.pathname).toMatch(/^\/sign-(in|up)/);
    expect(screen.queryByRole('textbox', { name: 'Verification code' })).not.toBeInTheDocument();
    // Failures and sign-out leave nothing behind; only a current-user failure keeps the session for a later retry.
    if (context.error !== ACCOUNT_MESSAGES.currentUserFailed) expect(readSession().token).toBeNull();
  },
  'signedOut.idle': ({ context }: Snapshot) => {
    if (window.location.pathname === '/sign-in') {
      expect(heading('Sign in')).toBeInTheDocument();
      expect(button('Sign in')).not.toHaveAttribute('aria-busy');
      expectBanner(context.error);
      if (context.notice) expect(screen.getByRole('status')).toHaveTextContent(context.notice);
    } else {
      // A sign-in error is not the sign-up form's business.
      expect(heading('Create your account')).toBeInTheDocument();
      expectBanner(null);
    }
  },
  'signedOut.signUpFailed': ({ context }: Snapshot) => {
    expect(heading('Create your account')).toBeInTheDocument();
    expectBanner(context.error);
  },
  'signedOut.signingIn': () => {
    expect(button('Sign in')).toHaveAttribute('aria-busy', 'true');
    expect(pendingCalls.inputOf('signIn')).toEqual({ email: EMAIL, password: PASSWORD });
  },
  'signedOut.signingUp': () => {
    expect(button('Sign up')).toHaveAttribute('aria-busy', 'true');
    expect(pendingCalls.inputOf('signUp')).toEqual(SIGN_UP_DETAILS);
  },

  authenticated: () => {
    expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Create your account' })).not.toBeInTheDocument();
  },
  'authenticated.mfa': ({ context }: Snapshot) => {
    expect(window.location.pathname).toBe('/sign-in');
    expect(heading('Enter your verification code')).toBeInTheDocument();
    expect(context.mfaRequired).toBe(true);
  },
  'authenticated.mfa.sendingCode': () => {
    expect(button('Send a new code')).toHaveAttribute('aria-busy', 'true');
    expect(button('Verify')).toBeDisabled();
  },
  'authenticated.mfa.codeEntry': ({ context }: Snapshot) => {
    expect(button('Verify')).not.toHaveAttribute('aria-busy');
    expect(button('Send a new code')).not.toHaveAttribute('aria-busy');
    expectBanner(context.error);
  },
  'authenticated.mfa.verifying': () => {
    expect(button('Verify')).toHaveAttribute('aria-busy', 'true');
    expect(pendingCalls.inputOf('verifyCode')).toEqual({ otp: '123456' });
  },
  'authenticated.enrollment': ({ context }: Snapshot) => {
    expect(window.location.pathname).toBe('/mfa-enrollment');
    expect(heading('Secure your account')).toBeInTheDocument();
    // Straight after a sign-in answer its token is stored (from Account Settings the session is an earlier one).
    if (context.user === null) expect(readSession().token).toBe(TOKEN);
    const skip = screen.queryByRole('button', { name: 'Skip for now' });
    if (context.mfaEnrollmentVerification) expect(skip).not.toBeInTheDocument();
    else expect(skip).toBeInTheDocument();
  },
  'authenticated.enteringApp': () => {
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
  },
  'authenticated.openingApp': ({ context }: Snapshot) => {
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expectInTheApp(context.user);
  },
  'authenticated.signedIn': ({ context }: Snapshot) => {
    expectInTheApp(context.user);
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
  },
  'authenticated.signedIn.idle': ({ context }: Snapshot) => {
    if (window.location.pathname === '/account') {
      expect(screen.getByText(context.user?.full_name ?? '')).toBeInTheDocument();
      expect(button('Sign Out')).not.toHaveAttribute('aria-busy');
    }
  },
  'authenticated.signedIn.refreshing': () => {
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  },
  // The server is told first (SPEC §4).
  signingOut: () => {
    expect(() => pendingCalls.inputOf('signOut')).not.toThrow();
  },
  'signingOut.leavingApp': () => {
    expect(button('Sign Out')).toHaveAttribute('aria-busy', 'true');
  },
  'signingOut.abandoningSignIn': () => {
    expect(window.location.pathname).toBe('/sign-in');
    expect(heading('Sign in')).toBeInTheDocument();
  },
};

/** App-wide events are sent by other features; here the test sends them the same way. */
const sentByTheApp = ({ event }: { event: LabelledEvent['event'] }) => {
  act(() => actor.send(event as Parameters<SessionActor['send']>[0]));
};

const events: EventExecutors<typeof sessionMachine> = {
  ...settlementExecutors(sessionMachine, pendingCalls),
  SIGN_IN: async ({ event }) => {
    if (window.location.pathname !== '/sign-in') await user.click(screen.getByRole('link', { name: 'Sign in' }));
    await fill('Email', String(event.email));
    await fill('Password', String(event.password));
    await user.click(button('Sign in'));
  },
  SIGN_UP: async ({ event }) => {
    if (!window.location.pathname.startsWith('/sign-up')) await user.click(screen.getByRole('link', { name: 'Sign up' }));
    await fill('First name', String(event.name));
    await fill('Last name', String(event.last_name));
    await fill('Email', String(event.email));
    await fill('Password', String(event.password));
    await user.click(button('Sign up'));
  },
  SEND_CODE: () => user.click(button('Send a new code')),
  VERIFY_CODE: async ({ event }) => {
    await fill('Verification code', String(event.otp));
    await user.click(button('Verify'));
  },
  ENROLLMENT_VERIFIED: async () => {
    await fill('Mobile phone number', '2125551212');
    await user.click(button('Send code'));
    await screen.findByLabelText(/^Verification code/);
    await fill('Verification code', '654321');
    await user.click(button('Verify'));
    await waitFor(() => expect(readSession().mfaToken).toBe(ENROLLED_DEVICE_TOKEN));
    expect(sent.slice(-2)).toEqual([
      { method: 'POST', path: 'mfa', body: { mfa_number: '2125551212' } },
      { method: 'POST', path: 'mfa/verify', body: { otp: '654321' } },
    ]);
  },
  SKIP_ENROLLMENT: () => user.click(button('Skip for now')),
  START_ENROLLMENT: async () => {
    if (window.location.pathname !== '/account') await act(() => router.navigate('/account'));
    await user.click(button('Add a phone number'));
  },
  SIGN_OUT: async () => {
    const session = actor.getSnapshot();
    if (session.hasTag('mfaPending')) return user.click(button('Use a different account'));
    if (session.hasTag('enrollmentPending')) return user.click(button('Sign out'));
    if (window.location.pathname !== '/account') await act(() => router.navigate('/account'));
    await user.click(button('Sign Out'));
  },
  // The delay's timer, as it would fire.
  [ROUTER_SETTLED]: sentByTheApp,
  AUTH_FAILURE: sentByTheApp,
  REFRESH_USER: sentByTheApp,
  REQUEST_CREATED: sentByTheApp,
  NOTICE: sentByTheApp,
  // The SSO flow's hand-over (ssoSignIn.model.test.tsx walks it from the SSO return screen).
  SSO_SIGNED_IN: sentByTheApp,
};

beforeEach(() => {
  user = userEvent.setup();
  ({ sent } = fakeNetwork([
    { method: 'POST', path: /^mfa$/, answer: () => ({ success: true }) },
    // Account Settings' profile shows the onboarding answers (none here) and the reply e-mails chosen.
    { method: 'GET', path: /^onboarding_answers$/, answer: () => ({ answers: [] }) },
    { method: 'GET', path: /^notification_settings$/, answer: () => ({ success: true, settings: { reply_emails: 'each' } }) },
    // The Dashboard's rating card: nothing waits for a rating.
    { method: 'GET', path: /^ratings\/pending$/, answer: () => ({ requests: [] }) },
    {
      method: 'POST',
      path: /^mfa\/verify$/,
      answer: () => HttpResponse.json({ success: true }, { headers: { [MFA_TOKEN_HEADER]: ENROLLED_DEVICE_TOKEN } }),
    },
  ]));
});

afterEach(() => {
  setRouter(null);
  pendingCalls.clear();
  trackedSignUps.mockClear();
  sessionStorage.clear();
});

describe('session statechart against the sign-in, sign-up, enrolment and account screens', () => {
  it.each(titled)('$title', async ({ path }) => {
    renderApp(FIRST_ADDRESS, 'when the path says');
    await runPath(path, () => actor.getSnapshot(), states, events);
  });

  it('covers every state and event', () => {
    expectFullCoverage(sessionMachine, paths, states, events);
  });
});

describe('session journeys', () => {
  async function signInFromSignInScreen() {
    await pendingCalls.settle({ type: 'xstate.done.actor.restoreSession', output: null });
    await events.SIGN_IN!({ event: { type: 'SIGN_IN', email: EMAIL, password: PASSWORD }, state: actor.getSnapshot() });
  }

  it('after sign-in the remembered address opens, and it is forgotten', async () => {
    renderApp('/sign-in');
    rememberReturnTo('/account?tab=privacy#close');
    await signInFromSignInScreen();
    await pendingCalls.settle({ type: 'xstate.done.actor.signIn', output: signInAnswer() });
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchCurrentUser', output: USER });
    await waitFor(() => expect(here()).toBe('/account?tab=privacy#close'));
    expect(sessionStorage.getItem('returnTo')).toBeNull();
  });

  it('a lost session remembers the address and clears the session; signing in again returns there', async () => {
    renderApp('/account?tab=privacy');
    await pendingCalls.settle({ type: 'xstate.done.actor.restoreSession', output: USER });
    localStorage.setItem('token', TOKEN);
    act(() => actor.send({ type: 'AUTH_FAILURE', failure: 'sessionLost' }));
    await waitFor(() => expect(here()).toBe('/sign-in'));
    expect(readSession().token).toBeNull();
    expect(actor.getSnapshot().context.user).toBeNull();

    await events.SIGN_IN!({ event: { type: 'SIGN_IN', email: EMAIL, password: PASSWORD }, state: actor.getSnapshot() });
    await pendingCalls.settle({ type: 'xstate.done.actor.signIn', output: signInAnswer() });
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchCurrentUser', output: USER });
    await waitFor(() => expect(here()).toBe('/account?tab=privacy'));
  });

  it('a link of the frame followed while a lost session is on its way to SignIn still ends on SignIn', async () => {
    let signInCodeArrives = () => {};
    renderApp('/account', 'by itself', new Promise((resolve) => (signInCodeArrives = resolve)));
    await pendingCalls.settle({ type: 'xstate.done.actor.restoreSession', output: USER });
    act(() => actor.send({ type: 'AUTH_FAILURE', failure: 'sessionLost' }));
    // SignIn's code is still loading and the frame still shows its links: the user follows one.
    await act(() => router.navigate('/dashboard'));
    await act(async () => signInCodeArrives());
    await waitFor(() => expect(here()).toBe('/sign-in'));
  });

  it('an MFA challenge while signed in sends a code; once verified the user is back where they were', async () => {
    renderApp('/account');
    await pendingCalls.settle({ type: 'xstate.done.actor.restoreSession', output: USER });
    act(() => actor.send({ type: 'AUTH_FAILURE', failure: 'mfaRequired' }));
    await waitFor(() => expect(heading('Enter your verification code')).toBeInTheDocument());
    await pendingCalls.settle({ type: 'xstate.done.actor.sendCode' });
    await events.VERIFY_CODE!({ event: { type: 'VERIFY_CODE', otp: '123456' }, state: actor.getSnapshot() });
    await pendingCalls.settle({ type: 'xstate.done.actor.verifyCode', output: 'device-token' });
    expect(readSession().mfaToken).toBe('device-token');
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchCurrentUser', output: USER });
    await waitFor(() => expect(here()).toBe('/account'));
    expect(actor.getSnapshot().context).toMatchObject({ mfaRequired: false, mfaEnrollmentVerification: false });
  });

  it('sign-up sends the company slug of the address, then a new user starts onboarding', async () => {
    renderApp('/sign-up/acme');
    await pendingCalls.settle({ type: 'xstate.done.actor.restoreSession', output: null });
    await events.SIGN_UP!({ event: { type: 'SIGN_UP', ...SIGN_UP_DETAILS }, state: actor.getSnapshot() });
    expect(pendingCalls.inputOf('signUp')).toEqual({ ...SIGN_UP_DETAILS, company_slug: 'acme' });
    await pendingCalls.settle({ type: 'xstate.done.actor.signUp', output: signUpOutcome({}, 'acme') });
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchCurrentUser', output: NEW_USER });
    await waitFor(() => expect(here()).toBe('/welcome/about-us'));
  });

  it('a sign-up that ends signed in is tracked once, with the company and nothing personal (SPEC §3)', async () => {
    renderApp('/sign-up/acme');
    await pendingCalls.settle({ type: 'xstate.done.actor.restoreSession', output: null });
    await events.SIGN_UP!({ event: { type: 'SIGN_UP', ...SIGN_UP_DETAILS }, state: actor.getSnapshot() });
    await pendingCalls.settle({ type: 'xstate.error.actor.signUp', error: new AccountError('Refused', 422, 'Refused') });
    expect(trackedSignUps).not.toHaveBeenCalled();

    await user.click(button('Sign up'));
    await pendingCalls.settle({ type: 'xstate.done.actor.signUp', output: signUpOutcome({}, 'acme') });
    expect(trackedSignUps).toHaveBeenCalledTimes(1);
    expect(trackedSignUps.mock.calls[0][1]).toEqual(signUpOutcome({}, 'acme'));
  });

  it('optional enrolment is offered after sign-up, not at a later sign-in (SPEC §4)', async () => {
    renderApp('/sign-in');
    await signInFromSignInScreen();
    await pendingCalls.settle({ type: 'xstate.done.actor.signIn', output: signInAnswer({ mfa_enrollment_available: true }) });
    expect(actor.getSnapshot().matches({ authenticated: 'enteringApp' })).toBe(true);
    expect(actor.getSnapshot().context.mfaEnrollmentAvailable).toBe(false);
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchCurrentUser', output: USER });
    await waitFor(() => expect(here()).toBe('/dashboard'));
  });

  it('a phone can be added later from Account Settings; skipping returns there', async () => {
    renderApp('/account');
    await pendingCalls.settle({ type: 'xstate.done.actor.restoreSession', output: USER });
    await user.click(button('Add a phone number'));
    await waitFor(() => expect(here()).toBe('/mfa-enrollment'));
    await user.click(button('Skip for now'));
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchCurrentUser', output: USER });
    await waitFor(() => expect(here()).toBe('/account'));
  });

  it('an enrolled user is not offered a phone again', async () => {
    renderApp('/account');
    await pendingCalls.settle({
      type: 'xstate.done.actor.restoreSession',
      output: { ...USER, mfa_enrolled: true, mfa_phone_last_digits: '1212' },
    });
    expect(screen.queryByRole('button', { name: 'Add a phone number' })).not.toBeInTheDocument();
    expect(screen.getByText(/we text a code to your phone \(•••\) •••-1212/)).toBeInTheDocument();
    expect(button('Change phone')).toBeInTheDocument();
  });

  it.each(['concierge', 'admin'] as const)('staff (%s) who sign in land on the console, not the Dashboard (issue 32)', async (role) => {
    renderApp('/sign-in');
    await signInFromSignInScreen();
    await pendingCalls.settle({ type: 'xstate.done.actor.signIn', output: signInAnswer() });
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchCurrentUser', output: { ...USER, role } });
    await waitFor(() => expect(here()).toBe('/console'));
  });

  it('a signed-out visitor of a protected address returns there after sign-in (SPEC §2)', async () => {
    renderApp('/account?tab=privacy');
    await signInFromSignInScreen();
    await pendingCalls.settle({ type: 'xstate.done.actor.signIn', output: signInAnswer() });
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchCurrentUser', output: USER });
    await waitFor(() => expect(here()).toBe('/account?tab=privacy'));
  });

  it('a sign-out plants no return address: signing in again opens the Dashboard', async () => {
    renderApp('/account');
    await pendingCalls.settle({ type: 'xstate.done.actor.restoreSession', output: USER });
    await user.click(button('Sign Out'));
    await pendingCalls.settle({ type: 'xstate.done.actor.signOut' });
    await waitFor(() => expect(here()).toBe('/sign-in'));
    expect(sessionStorage.getItem('returnTo')).toBeNull();

    await events.SIGN_IN!({ event: { type: 'SIGN_IN', email: EMAIL, password: PASSWORD }, state: actor.getSnapshot() });
    await pendingCalls.settle({ type: 'xstate.done.actor.signIn', output: signInAnswer() });
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchCurrentUser', output: USER });
    await waitFor(() => expect(here()).toBe('/dashboard'));
  });

  it('onboarding takes precedence over a remembered address, which is then forgotten', async () => {
    renderApp('/sign-in');
    rememberReturnTo('/account');
    await signInFromSignInScreen();
    await pendingCalls.settle({ type: 'xstate.done.actor.signIn', output: signInAnswer() });
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchCurrentUser', output: NEW_USER });
    await waitFor(() => expect(here()).toBe('/welcome/about-us'));
    expect(sessionStorage.getItem('returnTo')).toBeNull();
  });

  it('the sign-in form checks its fields first (SPEC §5)', async () => {
    renderApp('/sign-in');
    await pendingCalls.settle({ type: 'xstate.done.actor.restoreSession', output: null });
    await user.click(button('Sign in'));
    expect(screen.getByText('Please enter your email address')).toBeInTheDocument();
    expect(screen.getByText('Please enter your password')).toBeInTheDocument();
    expect(field('Email')).toHaveFocus();
    await user.type(field('Email'), 'ada');
    await user.type(field('Password'), '12345');
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid password')).toBeInTheDocument();
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
  });

  it('the sign-up form checks its fields first (SPEC §5)', async () => {
    renderApp('/sign-up');
    await pendingCalls.settle({ type: 'xstate.done.actor.restoreSession', output: null });
    await user.click(button('Sign up'));
    for (const message of [
      'Please enter your first name',
      'Please enter your last name',
      'Please enter your email address',
      'Please enter your password',
    ]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
  });

  it('the code step checks the code first (SPEC §5)', async () => {
    renderApp('/sign-in');
    await signInFromSignInScreen();
    await pendingCalls.settle({ type: 'xstate.done.actor.signIn', output: signInAnswer({ mfa_required: true }) });
    await pendingCalls.settle({ type: 'xstate.done.actor.sendCode' });
    await user.click(button('Verify'));
    expect(screen.getByText('Please enter the verification code sent to your phone number')).toBeInTheDocument();
    await user.type(field('Verification code'), '12a456');
    expect(screen.getByText('Please enter a valid verification code')).toBeInTheDocument();
    expect(actor.getSnapshot().matches({ authenticated: { mfa: 'codeEntry' } })).toBe(true);
  });
});
