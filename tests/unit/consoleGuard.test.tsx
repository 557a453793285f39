import { render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { AppSystemProvider } from '../../src/machines/appSystem.tsx';
import type { SessionActor } from '../../src/machines/app.machine.ts';
import { appOfSession, startSessionInApp } from '../machines/appSystem.support.tsx';
import { routes } from '../../src/app/routes.tsx';
import type { User } from '../../src/contract/account.ts';
import { sessionMachine } from '../../src/machines/session.machine.ts';

/** Counts how often the console's module is loaded: an employee must never cause it. */
const consoleModule = vi.hoisted(() => ({ loads: 0 }));
vi.mock('../../src/views/console/ConsoleLayout.tsx', () => {
  consoleModule.loads += 1;
  return { default: () => <p>The concierge console</p> };
});

const EMPLOYEE: User = {
  external_id: 'u-1',
  full_name: 'Erin Employee',
  first_name: 'Erin',
  initials: 'EE',
  email: 'employee@demo.test',
  request_count: 1,
  companies: [],
  role: 'employee',
  internal_user: false,
  onboarding_required: false,
  mfa_enrolled: false,
  mfa_phone_last_digits: null,
  email_confirmation_pending: false,
};

let session: SessionActor;

/** The app's own routes at `path`, for a session restored for `user`. */
async function openAs(user: User, path: string) {
  // jsdom has no scrolling; the app restores scroll positions after each navigation.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  session = startSessionInApp(sessionMachine.provide({ actors: { restoreSession: fromPromise<User | null>(async () => user) }, actions: { navigate: () => {} } }));
  await waitFor(() => expect(session.getSnapshot().hasTag('signedIn')).toBe(true));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppSystemProvider actor={appOfSession(session)}>
      <RouterProvider router={router} />
    </AppSystemProvider>,
  );
  return router;
}

describe('the /console guard', () => {
  afterEach(() => {
    appOfSession(session).stop();
    vi.restoreAllMocks();
  });

  // First in this file: the module registry remembers a loaded module for the rest of the file.
  it('shows employees the staff-only page and never loads the console', async () => {
    await openAs(EMPLOYEE, '/console/requests/7');
    expect(await screen.findByText('This area is for concierge staff only.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByText('The concierge console')).not.toBeInTheDocument();
    expect(consoleModule.loads).toBe(0);
  });

  it.each(['concierge', 'admin'] as const)('opens the console for the %s role', async (role) => {
    await openAs({ ...EMPLOYEE, role, full_name: 'Casey Concierge' }, '/console');
    expect(await screen.findByText('The concierge console')).toBeInTheDocument();
    expect(screen.queryByText('This area is for concierge staff only.')).not.toBeInTheDocument();
    // Loaded once, then remembered like any lazily loaded chunk.
    expect(consoleModule.loads).toBe(1);
  });
});
