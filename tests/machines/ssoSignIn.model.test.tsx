import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SimulatedClock, getInitialSnapshot } from 'xstate';
import { SSO_FAILURE_MESSAGES } from '../../src/contract/sso.constants.ts';
import type { AppActor } from '../../src/machines/app.machine.ts';
import { ssoSignInMachine } from '../../src/machines/ssoSignIn.machine.ts';
import type { SignInAnswer } from '../../src/services/account.ts';
import { setRouter } from '../../src/services/navigation.ts';
import { clearSession, readSession } from '../../src/services/storage.ts';
import type { SsoOffer } from '../../src/services/sso.ts';
import SignIn from '../../src/views/SignIn.tsx';
import SsoReturn from '../../src/views/SsoReturn.tsx';
import { inApp, sessionOf, startTestApp } from './appSystem.support.tsx';
import { serverRefusal } from './httpFailures.support.ts';
import {
  type EventExecutors,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  flowModel,
  inspectedActors,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';
import { type SentCall, fakeNetwork } from './network.support.ts';
import { employeeUser } from './users.fixtures.ts';

type SsoMachine = typeof ssoSignInMachine;

const PAGE_ADDRESS = `${window.location.origin}/sign-in`;
/** jsdom moves the page only within itself: the start address is the page's own with a fragment, as a stand-in. */
const START_URL = `${PAGE_ADDRESS}#provider`;
const ENFORCED: SsoOffer = { company_name: 'Northwind', mode: 'enforced', start_url: START_URL };
const OPTIONAL: SsoOffer = { company_name: 'Contoso', mode: 'optional', start_url: START_URL };
const CODE = 'one-time-code';
const ANSWER: SignInAnswer = {
  token: 'Bearer sso-session',
  expires_at: '2099-01-01T00:00:00.000Z',
  mfa_required: false,
  mfa_requires_verification: false,
  mfa_enrollment_available: false,
};
const USER = employeeUser({ external_id: 'u-sso', full_name: 'Ana Northwind', first_name: 'Ana', initials: 'AN', email: 'ana@northwind.test' });
const DISCOVERY_ENDS = 'xstate.after.discoveryDelay.ssoSignIn.signIn.waiting';

let sent: SentCall[];
let user: UserEvent;
let clock: SimulatedClock;
let app: AppActor;
let router: ReturnType<typeof createMemoryRouter>;
/** The SignIn page starts its flow with the first keystroke of an address: until then, the flow as it would start. */
const snapshot = () =>
  inspectedActors.has(ssoSignInMachine) ? inspectedActors.snapshotOf(ssoSignInMachine) : getInitialSnapshot(ssoSignInMachine, { entry: 'signIn' });

function renderAt(address: string, clock?: SimulatedClock) {
  window.history.replaceState(null, '', address);
  ({ sent } = fakeNetwork([
    { method: 'POST', path: /^sso\/discover$/, id: 'discover', answer: (offer: SsoOffer | null) => ({ sso: offer }) },
    {
      method: 'POST',
      path: /^sso\/session$/,
      id: 'exchange',
      answer: (answer: SignInAnswer) => {
        const { token, ...body } = answer;
        return HttpResponse.json(body, { headers: { authorization: token } });
      },
    },
    { method: 'GET', path: /^users\/current$/, answer: () => ({ user: USER }) },
  ]));
  app = startTestApp(clock ? { clock } : {});
  const url = new URL(address);
  router = createMemoryRouter(
    [
      { path: '/sign-in', element: <SignIn /> },
      { path: '/sign-in/sso', element: <SsoReturn /> },
      { path: '/dashboard', element: <h1>Dashboard</h1> },
      { path: '/forgot-password', element: <h1>Forgot password</h1> },
    ],
    { initialEntries: [url.pathname] },
  );
  setRouter(router);
  render(inApp(app, <RouterProvider router={router} />));
}

const emailField = () => screen.getByLabelText(/^Email/);
const passwordField = () => screen.queryByLabelText(/^Password/);
const ssoButton = (company: string) => screen.queryByRole('button', { name: new RegExp(`Continue with ${company} SSO$`) });

/** The password form as usual: no SSO offered. */
function expectPasswordForm(email: string) {
  expect(emailField()).toHaveValue(email);
  expect(passwordField()).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /SSO$/ })).not.toBeInTheDocument();
}

function expectOffer(offer: SsoOffer) {
  expect(ssoButton(offer.company_name)).toBeInTheDocument();
  if (offer.mode === 'enforced') {
    // Enforced SSO takes the password's place.
    expect(screen.getByText(`${offer.company_name} signs you in with single sign-on.`)).toBeInTheDocument();
    expect(passwordField()).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).not.toBeInTheDocument();
  } else {
    expect(passwordField()).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  }
}

const returnStates = {
  returned: () => expect(screen.queryByRole('heading', { level: 1, name: 'Sign in' })).not.toBeInTheDocument(),
  'returned.exchanging': () => {
    expect(screen.getByRole('heading', { level: 1, name: 'Signing you in' })).toBeInTheDocument();
    // The code leaves the address at once: neither a reload nor the history shows it again.
    expect(window.location.hash).toBe('');
    expect(sent).toEqual([{ method: 'POST', path: 'sso/session', body: { code: CODE } }]);
  },
  'returned.handedOver': () => {
    // Handed to the session as a sign-in is: the token kept, the user loaded, the app opened where the session says.
    expect(readSession().token).toBe(ANSWER.token);
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(sessionOf(app).getSnapshot().hasTag('signedIn')).toBe(true);
  },
  'returned.failed': ({ context }: ReturnType<SsoMachine['transition']>) => {
    expect(screen.getByRole('heading', { level: 1, name: 'We could not sign you in' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(context.error ?? '');
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/sign-in');
    expect(window.location.hash).toBe('');
    expect(readSession().token).toBeNull();
  },
};

/** On /sign-in: the typed address, discovery after a pause, the offer, and the way to the identity provider. */
const signInModel = flowModel(ssoSignInMachine, {
  input: { entry: 'signIn' },
  events: [
    { label: 'type an unfinished address', event: { type: 'EMAIL_CHANGED', email: 'ana@north' } },
    { label: 'type a Northwind address', event: { type: 'EMAIL_CHANGED', email: 'ana@northwind.test' } },
    { label: 'type a Contoso address', event: { type: 'EMAIL_CHANGED', email: 'cat@contoso.test' } },
    { label: 'type another address', event: { type: 'EMAIL_CHANGED', email: 'bo@example.com' } },
    { label: 'the address rests', event: { type: DISCOVERY_ENDS } },
    doneEvent('discover', ENFORCED, 'enforced SSO'),
    doneEvent('discover', OPTIONAL, 'optional SSO'),
    doneEvent('discover', null, 'no SSO'),
    errorEvent('discover', new Error('Failed to fetch'), 'discovery fails'),
    { label: 'continue with SSO', event: { type: 'CONTINUE' } },
  ],
  // Each address has its one answer; the page has left once the browser goes to the provider.
  offer: (state, { label, event }) => {
    if (state.matches({ signIn: 'redirecting' })) return false;
    const { email } = state.context;
    // A field changes only to another value.
    if (event.type === 'EMAIL_CHANGED' && event.email === email) return false;
    switch (label) {
      case 'enforced SSO':
        return email === 'ana@northwind.test';
      case 'optional SSO':
        return email === 'cat@contoso.test';
      case 'no SSO':
      case 'discovery fails':
        return email === 'bo@example.com';
      default:
        return true;
    }
  },
});

const states: StateAssertions<SsoMachine> = {
  signIn: () => expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument(),
  'signIn.idle': ({ context }) => expectPasswordForm(context.email),
  'signIn.waiting': ({ context }) => expectPasswordForm(context.email),
  'signIn.discovering': ({ context }) => {
    expectPasswordForm(context.email);
    expect(sent.at(-1)).toEqual({ method: 'POST', path: 'sso/discover', body: { email: context.email } });
  },
  'signIn.offered': ({ context }) => expectOffer(context.offer!),
  'signIn.redirecting': ({ context }) => {
    expectOffer(context.offer!);
    expect(window.location.href).toBe(START_URL);
  },
  ...returnStates,
};

const events: EventExecutors<SsoMachine> = {
  ...settlementExecutors(ssoSignInMachine, pendingCalls),
  EMAIL_CHANGED: async ({ event }) => {
    act(() => {
      fireEvent.change(emailField(), { target: { value: event.email } });
    });
    // The first keystroke loads the flow's chunk; the address then reaches the flow.
    await waitFor(() => expect(snapshot().context.email).toBe(event.email));
  },
  [DISCOVERY_ENDS]: async () => {
    act(() => clock.increment(399));
    // Not yet: nothing is asked while the address is still changing.
    expect(snapshot().matches({ signIn: 'waiting' })).toBe(true);
    act(() => clock.increment(1));
    // The discovery's call goes out once its client has loaded (the flow's chunk brings it).
    await waitFor(() => expect(sent.at(-1)?.path).toBe('sso/discover'));
  },
  CONTINUE: async ({ state }) => {
    await user.click(ssoButton(state.context.offer!.company_name)!);
  },
};


describe('SSO sign-in on the SignIn screen', () => {
  beforeEach(() => {
    inspectedActors.clear();
    clearSession();
    user = userEvent.setup();
    pendingCalls.clear();
    clock = new SimulatedClock();
    renderAt(PAGE_ADDRESS, clock);
  });
  afterEach(() => app.stop());

  it.each(signInModel.titled)('$title', async ({ path }) => {
    await runPath(path, snapshot, states, events);
  });

  it('an address under enforced SSO goes to its provider on Enter too', async () => {
    act(() => {
      fireEvent.change(emailField(), { target: { value: 'ana@northwind.test' } });
    });
    await waitFor(() => expect(snapshot().context.email).toBe('ana@northwind.test'));
    act(() => clock.increment(400));
    await pendingCalls.settle({ type: 'xstate.done.actor.discover', output: ENFORCED });
    await waitFor(() => expectOffer(ENFORCED));
    emailField().focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.href).toBe(START_URL));
  });
});

/** On /sign-in/sso, with the callback's code: the code becomes a session, or is refused. */
const codeModel = flowModel(ssoSignInMachine, {
  input: { entry: 'return', fragment: `#code=${CODE}` },
  events: [
    doneEvent('exchange', ANSWER, 'code exchanged'),
    errorEvent('exchange', serverRefusal(401, 'This sign-in has expired or was already used. Please sign in again.'), 'code refused'),
  ],
});

/** On /sign-in/sso, with the callback's reason: what stopped the sign-in, in words. */
const reasonModels = (['cancelled', 'refused', 'state_mismatch', 'expired', 'unknown-reason'] as const).map((reason) => ({
  reason,
  model: flowModel(ssoSignInMachine, { input: { entry: 'return', fragment: `#error=${reason}` }, events: [] }),
}));

describe('SSO sign-in coming back on /sign-in/sso', () => {
  beforeEach(() => {
    clearSession();
    pendingCalls.clear();
  });
  afterEach(() => app.stop());

  it.each(codeModel.titled)('with a code: $title', async ({ path }) => {
    renderAt(`${window.location.origin}/sign-in/sso#code=${CODE}`);
    await runPath(path, snapshot, states, events);
  });

  it.each(reasonModels)('with the reason $reason', async ({ reason, model }) => {
    renderAt(`${window.location.origin}/sign-in/sso#error=${reason}`);
    for (const { path } of model.titled) await runPath(path, snapshot, states, events);
    const shown = reason === 'unknown-reason' ? SSO_FAILURE_MESSAGES.state_mismatch : SSO_FAILURE_MESSAGES[reason];
    expect(screen.getByRole('alert')).toHaveTextContent(shown);
  });
});

describe('ssoSignIn model coverage', () => {
  it('asserts and reaches every state, and walks every transition', () => {
    const paths = [...signInModel.paths, ...codeModel.paths, ...reasonModels.flatMap(({ model }) => model.paths)];
    expectFullCoverage(ssoSignInMachine, paths, states, events);
  });
});
