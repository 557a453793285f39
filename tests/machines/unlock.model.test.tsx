import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unlockMachine } from '../../src/machines/unlock.machine.ts';
import { AccountError } from '../../src/services/account.ts';
import { reportError } from '../../src/services/errorReporting.ts';
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
import { type SentCall, fakeNetwork } from './network.support.ts';

vi.mock('../../src/services/errorReporting.ts', () => ({ reportError: vi.fn(async () => {}) }));

const UNLOCK_TOKEN = 'unlock-token-123';
let sent: SentCall[];

const { paths, titled } = flowModel(unlockMachine, {
  input: { token: UNLOCK_TOKEN },
  events: [
    doneEvent('unlock', undefined, 'unlocked'),
    errorEvent('unlock', new AccountError('Invalid unlock token.', 422, 'Invalid unlock token.'), 'refused by the server'),
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
    expect(reportError).toHaveBeenCalledTimes(1);
  },
};

const events = settlementExecutors(unlockMachine, pendingCalls);

describe('unlock flow against the Unlock screen', () => {
  beforeEach(() => {
    vi.mocked(reportError).mockClear();
    ({ sent } = fakeNetwork([{ method: 'GET', path: /^users\/unlock$/, id: 'unlock', answer: () => ({ success: true }) }]));
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
