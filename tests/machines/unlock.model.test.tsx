import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unlockMachine } from '../../src/machines/unlock.machine.ts';
import { AccountError } from '../../src/services/account.ts';
import Unlock from '../../src/views/Unlock.tsx';
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
import { inApp, startTestApp } from './appSystem.support.tsx';
import { ERROR_REPORTS_ROUTE, type SentCall, fakeNetwork, reportErrorsToTheServer, reportedErrors } from './network.support.ts';

reportErrorsToTheServer();

const UNLOCK_TOKEN = 'unlock-token-123';
const WRONG_LINK = 'Invalid unlock token.';
let sent: SentCall[];

const { paths, titled } = flowModel(unlockMachine, {
  input: { token: UNLOCK_TOKEN },
  events: [
    doneEvent('unlock', undefined, 'unlocked'),
    errorEvent('unlock', new AccountError(WRONG_LINK, 422, WRONG_LINK), 'refused by the server'),
    errorEvent('unlock', new Error('Failed to fetch'), 'network failure'),
  ],
});

/** What the user sees in each state; `snapshot` is the model's state. */
const states: StateAssertions<typeof unlockMachine> = {
  loading: () => {
    expect(screen.getByRole('heading', { level: 1, name: 'Unlock your account' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(sent).toEqual([{ method: 'GET', path: 'users/unlock', body: undefined, query: { unlock_token: UNLOCK_TOKEN } }]);
  },
  success: () => {
    expect(screen.getByRole('heading', { level: 1, name: 'Account unlocked' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your account has been unlocked. You can sign in now.');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  },
  failure: (snapshot) => {
    expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error ?? '');
    expect(
      screen.getByText(
        'We were unable to unlock your account. Please check the link you used to unlock your account and try again.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', 'mailto:support@lifeconcierge.com');
    // SPEC §8: an unlock link that is simply wrong is the user's problem and goes unreported; any other failure is.
    const wrongLink = snapshot.context.error === WRONG_LINK;
    expect(reportedErrors(sent)).toEqual(wrongLink ? [] : [expect.objectContaining({ feature: 'unlock' })]);
  },
};

const events = settlementExecutors(unlockMachine, pendingCalls);

describe('unlock flow against the Unlock screen', () => {
  beforeEach(() => {
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^users\/unlock$/, id: 'unlock', answer: () => ({ success: true }) },
      ERROR_REPORTS_ROUTE,
    ]));
    const router = createMemoryRouter(
      [
        { path: '/unlock/:unlockToken', element: <Unlock /> },
        { path: '/sign-in', element: <h1>Sign in</h1> },
      ],
      { initialEntries: [`/unlock/${UNLOCK_TOKEN}`] },
    );
    render(inApp(startTestApp(), <RouterProvider router={router} />));
  });

  afterEach(() => pendingCalls.clear());

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(unlockMachine), states, events);
  });
});

describe('unlock model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(unlockMachine, paths, states, events);
  });
});
