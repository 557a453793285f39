import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { AppSystemProvider } from '../../src/machines/appSystem.tsx';
import type { SessionActor } from '../../src/machines/app.machine.ts';
import { appOfSession, startSessionInApp } from './appSystem.support.tsx';
import type { User } from '../../src/contract/account.ts';
import { emailConfirmationMachine } from '../../src/machines/emailConfirmation.machine.ts';
import { sessionMachine } from '../../src/machines/session.machine.ts';
import { AccountError } from '../../src/services/account.ts';
import ConfirmEmail from '../../src/views/ConfirmEmail.tsx';
import {
  doneEvent,
  errorEvent,
  expectFullCoverage,
  flowModel,
  inspectedActors,
  pendingCalls,
  runPath,
  settlementExecutors,
  type StateAssertions,
} from './modelPaths.support.ts';
import { ERROR_REPORTS_ROUTE, type SentCall, fakeNetwork, reportErrorsToTheServer, reportedErrors } from './network.support.ts';
import { employeeUser } from './users.fixtures.ts';

reportErrorsToTheServer();

const CONFIRMATION_TOKEN = 'confirmation-token-123';
const IDENTITY = { external_id: 'u-9', full_name: 'Nora Quinn', first_name: 'Nora', initials: 'NQ', email: 'nora@acme.test' };
const PENDING = employeeUser(IDENTITY, { email_confirmation_pending: true });
const CONFIRMED = employeeUser(IDENTITY, { companies: [{ id: 1, name: 'Acme Corporation', image_url: null }] });
const CONFIRMATION_CALL = { method: 'GET', path: 'users/confirmation', body: undefined, query: { confirmation_token: CONFIRMATION_TOKEN } };
const INVALID_LINK = 'Your confirmation link is invalid or has expired. Please request a new one.';

const { paths, titled } = flowModel(emailConfirmationMachine, {
  input: { token: CONFIRMATION_TOKEN },
  events: [
    doneEvent('confirmEmail', undefined, 'confirmed'),
    errorEvent('confirmEmail', new AccountError(INVALID_LINK, 422, INVALID_LINK), 'refused by the server'),
    errorEvent('confirmEmail', new Error('Failed to fetch'), 'network failure'),
  ],
});

let session: SessionActor;
let sent: SentCall[];
let currentUserFetches = 0;

function startSession(restored: User | null): SessionActor {
  currentUserFetches = 0;
  return startSessionInApp(sessionMachine.provide({
      actors: {
        restoreSession: fromPromise<User | null>(async () => restored),
        fetchCurrentUser: fromPromise<User>(async () => {
          currentUserFetches += 1;
          return CONFIRMED;
        }),
      },
    }));
}

const events = settlementExecutors(emailConfirmationMachine, pendingCalls);

describe.each([
  { visitor: 'signed in', restored: PENDING, onward: { name: 'Go to Benefits & Offers', href: '/benefits-and-offers' } },
  { visitor: 'signed out', restored: null, onward: { name: 'Sign in', href: '/sign-in' } },
])('e-mail confirmation against the ConfirmEmail screen, $visitor', ({ restored, onward }) => {
  const signedIn = restored !== null;

  const states: StateAssertions<typeof emailConfirmationMachine> = {
    loading: () => {
      expect(screen.getByRole('heading', { level: 1, name: 'Confirm your e-mail address' })).toBeInTheDocument();
      expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
      expect(sent).toEqual([CONFIRMATION_CALL]);
    },
    success: () => {
      expect(screen.getByRole('heading', { level: 1, name: 'E-mail address confirmed' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Confirm your e-mail address' })).not.toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent(
        signedIn
          ? "Your e-mail address is confirmed. Your employer's benefits are ready for you."
          : "Your e-mail address is confirmed. Sign in to see your employer's benefits.",
      );
      expect(screen.getByRole('link', { name: onward.name })).toHaveAttribute('href', onward.href);
      // Signed in, the session fetches the user again: the company is granted now.
      expect(currentUserFetches).toBe(signedIn ? 1 : 0);
      if (signedIn) expect(session.getSnapshot().context.user).toEqual(CONFIRMED);
    },
    failure: (snapshot) => {
      expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error ?? '');
      expect(screen.getByText(/^We were unable to confirm your e-mail address\./)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: onward.name })).toHaveAttribute('href', onward.href);
      // SPEC §8: a link that is simply wrong is the user's problem and goes unreported; any other failure is reported.
      const wrongLink = snapshot.context.error === INVALID_LINK;
      expect(reportedErrors(sent)).toEqual(wrongLink ? [] : [expect.objectContaining({ feature: 'confirmEmail' })]);
      expect(currentUserFetches).toBe(0);
    },
  };

  beforeEach(async () => {
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^users\/confirmation$/, id: 'confirmEmail', answer: () => ({ success: true }) },
      ERROR_REPORTS_ROUTE,
    ]));
    session = startSession(restored);
    await vi.waitFor(() => expect(session.getSnapshot().hasTag('resolving')).toBe(false));
    const router = createMemoryRouter(
      [{ path: '/confirm-email/:confirmationToken', element: <ConfirmEmail /> }],
      { initialEntries: [`/confirm-email/${CONFIRMATION_TOKEN}`] },
    );
    render(
      <AppSystemProvider actor={appOfSession(session)}>
        <RouterProvider router={router} />
      </AppSystemProvider>,
    );
  });

  afterEach(async () => {
    // The screen sends its call as it opens, also in a test that does not wait for it: it must reach the server in
    // this test, not in the next one's.
    await waitFor(() => expect(sent).toContainEqual(CONFIRMATION_CALL));
    pendingCalls.clear();
    appOfSession(session).stop();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(emailConfirmationMachine), states, events);
  });

  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(emailConfirmationMachine, paths, states, events);
  });
});
