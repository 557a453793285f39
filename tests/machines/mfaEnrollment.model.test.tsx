import { render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpResponse } from 'msw';
import { createEmptyActor, fromPromise } from 'xstate';
import { AppSystemProvider } from '../../src/machines/appSystem.tsx';
import type { SessionActor } from '../../src/machines/app.machine.ts';
import { appOfSession, startSessionInApp } from './appSystem.support.tsx';
import { AUTHORIZATION_HEADER, MFA_TOKEN_HEADER } from '../../src/contract/common.constants.ts';
import type { User } from '../../src/contract/account.ts';
import { mfaEnrollmentMachine } from '../../src/machines/mfaEnrollment.machine.ts';
import { type SignUpOutcome, sessionMachine } from '../../src/machines/session.machine.ts';
import { AccountError, type SignInAnswer, type SignUpDetails } from '../../src/services/account.ts';
import { readSession } from '../../src/services/storage.ts';
import MfaEnrollment from '../../src/views/MfaEnrollment.tsx';
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
import { type FakeNetwork, fakeNetwork } from './network.support.ts';


const PHONE_NUMBER = '2125551212';
const CODE = '123456';
const MFA_TOKEN = 'remembered-device-token';
const SESSION_TOKEN = 'Bearer session-token';

let user: UserEvent;
let session: SessionActor;
let network: FakeNetwork;

/** The MFA calls as the server answers them: the verified code's token comes in the mfa-token header. */
function fakeMfaApi(): FakeNetwork {
  return fakeNetwork([
    { method: 'POST', path: /^mfa$/, id: 'enroll', answer: () => ({ success: true }) },
    { method: 'POST', path: /^mfa\/send-otp$/, id: 'resendCode', answer: () => ({ success: true }) },
    {
      method: 'POST',
      path: /^mfa\/verify$/,
      id: 'verifyCode',
      answer: (mfaToken: string) => HttpResponse.json({ success: true }, { headers: { [MFA_TOKEN_HEADER]: mfaToken } }),
    },
  ]);
}

/** The last call the server received, which the signed-up session's token authorises. */
function expectLastCall(call: { method: string; path: string; body: unknown }) {
  expect(network.sent.at(-1)).toEqual(call);
  expect(network.requests.at(-1)?.headers.get(AUTHORIZATION_HEADER)).toBe(SESSION_TOKEN);
}

/**
 * A real session that has just signed up and must (or may) enrol: the screen reads whether enrolment is optional
 * from it, and tells it when enrolment is verified. Loading the user afterwards never finishes, so the session stays put.
 */
async function sessionAwaitingEnrollment(answer: Partial<SignInAnswer>): Promise<SessionActor> {
  const actor = startSessionInApp(sessionMachine.provide({
      actors: {
        restoreSession: fromPromise<User | null>(async () => null),
        signUp: fromPromise<SignUpOutcome, SignUpDetails>(async () => ({
          answer: {
            token: SESSION_TOKEN,
            expires_at: '2099-01-01T00:00:00.000Z',
            mfa_required: false,
            mfa_requires_verification: false,
            mfa_enrollment_available: false,
            ...answer,
          },
          companySlug: 'initech',
        })),
        fetchCurrentUser: fromPromise<User>(() => new Promise(() => {})),
      },
      actions: { navigate: () => {} },
    }));
  await waitFor(() => expect(actor.getSnapshot().matches('signedOut')).toBe(true));
  actor.send({ type: 'SIGN_UP', name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', password: 'secret-1' });
  await waitFor(() => expect(actor.getSnapshot().hasTag('enrollmentPending')).toBe(true));
  return actor;
}

function renderScreen() {
  render(
    <AppSystemProvider actor={appOfSession(session)}>
      <MfaEnrollment />
    </AppSystemProvider>,
  );
}

const button = (name: string) => screen.getByRole('button', { name: new RegExp(`^(Loading)?\\s*${name}$`) });
const phoneField = () => screen.getByRole('textbox', { name: 'Mobile phone number' });
const codeField = () => screen.getByRole('textbox', { name: 'Verification code' });

function expectBanner(error: string | null) {
  if (error) expect(screen.getByRole('alert')).toHaveTextContent(error);
  else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
}

const { paths, titled } = flowModel(mfaEnrollmentMachine, {
  input: { session: createEmptyActor() },
  events: [
    { label: 'submit phone', event: { type: 'SUBMIT_PHONE', phoneNumber: PHONE_NUMBER } },
    doneEvent('enroll', undefined, 'code texted'),
    errorEvent('enroll', new AccountError('This number cannot receive texts', 422, 'This number cannot receive texts'), 'number refused'),
    errorEvent('enroll', new Error('Failed to fetch'), 'enrolment network failure'),
    { label: 'verify', event: { type: 'VERIFY', otp: CODE } },
    doneEvent('verifyCode', MFA_TOKEN, 'code accepted'),
    errorEvent('verifyCode', new AccountError('The code is not valid', 401, 'The code is not valid'), 'code refused'),
    { label: 'resend', event: { type: 'RESEND' } },
    doneEvent('resendCode', undefined, 'new code texted'),
    errorEvent('resendCode', new Error('Failed to fetch'), 'resend network failure'),
    { label: 'change number', event: { type: 'CHANGE_NUMBER' } },
  ],
});

const states: StateAssertions<typeof mfaEnrollmentMachine> = {
  phone: ({ context }) => {
    expect(screen.getByRole('heading', { level: 1, name: 'Secure your account' })).toBeInTheDocument();
    expect(phoneField()).toHaveAttribute('placeholder', '2125551212');
    expect(button('Send code')).not.toHaveAttribute('aria-busy');
    expect(button('Skip for now')).toBeInTheDocument();
    expectBanner(context.error);
  },
  sending: () => {
    expect(button('Send code')).toHaveAttribute('aria-busy', 'true');
    expectLastCall({ method: 'POST', path: 'mfa', body: { mfa_number: PHONE_NUMBER } });
  },
  code: ({ context }) => {
    expect(codeField()).toBeInTheDocument();
    expect(screen.getByText('We sent a 6-digit code to (212) 555-1212.')).toBeInTheDocument();
    expect(button('Verify')).not.toHaveAttribute('aria-busy');
    expect(button('Skip for now')).toBeInTheDocument();
    expectBanner(context.error);
  },
  resending: () => {
    expect(button('Send a new code')).toHaveAttribute('aria-busy', 'true');
    expect(button('Verify')).toBeDisabled();
    expectLastCall({ method: 'POST', path: 'mfa/send-otp', body: undefined });
  },
  verifying: () => {
    expect(button('Verify')).toHaveAttribute('aria-busy', 'true');
    expectLastCall({ method: 'POST', path: 'mfa/verify', body: { otp: CODE } });
  },
  verified: () => {
    expect(screen.getByRole('status')).toHaveTextContent('Your phone number is verified.');
    expect(screen.queryByRole('button', { name: 'Skip for now' })).not.toBeInTheDocument();
    expect(readSession().mfaToken).toBe(MFA_TOKEN);
    // The session heard about it: it clears the MFA flags and loads the user to open the app.
    expect(session.getSnapshot().matches({ authenticated: 'enteringApp' })).toBe(true);
    expect(session.getSnapshot().context.mfaEnrollmentAvailable).toBe(false);
  },
};

const events: EventExecutors<typeof mfaEnrollmentMachine> = {
  ...settlementExecutors(mfaEnrollmentMachine, pendingCalls),
  SUBMIT_PHONE: async ({ event }) => {
    await user.clear(phoneField());
    await user.type(phoneField(), String(event.phoneNumber));
    await user.click(button('Send code'));
  },
  VERIFY: async ({ event }) => {
    await user.clear(codeField());
    await user.type(codeField(), String(event.otp));
    await user.click(button('Verify'));
  },
  RESEND: () => user.click(button('Send a new code')),
  CHANGE_NUMBER: () => user.click(button('Use a different number')),
};

beforeEach(() => {
  user = userEvent.setup();
  network = fakeMfaApi();
});

afterEach(() => {
  appOfSession(session).stop();
  pendingCalls.clear();
});

describe('MFA enrolment against the MfaEnrollment screen (optional enrolment)', () => {
  beforeEach(async () => {
    session = await sessionAwaitingEnrollment({ mfa_enrollment_available: true });
    renderScreen();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(mfaEnrollmentMachine), states, events);
  });

  it('covers every state and event', () => {
    expectFullCoverage(mfaEnrollmentMachine, paths, states, events);
  });

  it('validates the phone number and the code (SPEC §5)', async () => {
    await user.click(button('Send code'));
    expect(screen.getByText('Please enter a valid phone number')).toBeInTheDocument();
    expect(inspectedActors.snapshotOf(mfaEnrollmentMachine).value).toBe('phone');
    expect(network.sent).toEqual([]);

    await user.type(phoneField(), PHONE_NUMBER);
    await user.click(button('Send code'));
    await pendingCalls.settle({ type: 'xstate.done.actor.enroll' });

    await user.click(button('Verify'));
    expect(screen.getByText('Please enter the verification code sent to your phone number')).toBeInTheDocument();
    await user.type(codeField(), '12345');
    expect(screen.getByText('Please enter a valid verification code')).toBeInTheDocument();
    expect(inspectedActors.snapshotOf(mfaEnrollmentMachine).value).toBe('code');
    expect(network.sent.map(({ path }) => path)).toEqual(['mfa']);
  });

  it("'Skip for now' lets the session open the app", async () => {
    await user.click(button('Skip for now'));
    expect(session.getSnapshot().matches({ authenticated: 'enteringApp' })).toBe(true);
  });
});

describe('required enrolment', () => {
  it("offers no 'Skip for now'", async () => {
    session = await sessionAwaitingEnrollment({ mfa_requires_verification: true });
    renderScreen();
    expect(phoneField()).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Skip for now' })).not.toBeInTheDocument();
  });
});
