import { render, screen } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { AppSystemProvider } from '../../src/machines/appSystem.tsx';
import type { SessionActor } from '../../src/machines/app.machine.ts';
import { appOfSession, startSessionInApp } from './appSystem.support.tsx';
import type { User } from '../../src/contract/account.ts';
import { forgotPasswordMachine, resetPasswordMachine } from '../../src/machines/passwordReset.machine.ts';
import { sessionMachine } from '../../src/machines/session.machine.ts';
import { AccountError } from '../../src/services/account.ts';
import { ACCOUNT_MESSAGES } from '../../src/services/account.messages.ts';
import { setRouter } from '../../src/services/navigation.ts';
import ForgotPassword from '../../src/views/ForgotPassword.tsx';
import ResetPassword from '../../src/views/ResetPassword.tsx';
import SignIn from '../../src/views/SignIn.tsx';
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
import { ERROR_REPORTS_ROUTE, type SentCall, fakeNetwork, reportErrorsToTheServer, reportedErrors } from './network.support.ts';

reportErrorsToTheServer();

const EMAIL = 'ada@example.com';
const RESET_TOKEN = 'reset-token-123';
const NEW_PASSWORD = 'new-secret-1';

const serverRefusal = new AccountError('Reset password token is invalid', 422, 'Reset password token is invalid');
const networkFailure = new Error('Failed to fetch');

let user: UserEvent;
let session: SessionActor;
let sent: SentCall[];

/** A session actor that has nothing to restore, as on a reset link opened in a fresh browser. */
function startSignedOutSession(): SessionActor {
  return startSessionInApp(sessionMachine.provide({ actors: { restoreSession: fromPromise<User | null>(async () => null) } }));
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/forgot-password', element: <ForgotPassword /> },
      { path: '/reset-password/:resetToken', element: <ResetPassword /> },
      { path: '/sign-in', element: <SignIn /> },
    ],
    { initialEntries: [path] },
  );
  setRouter(router);
  render(
    <AppSystemProvider actor={appOfSession(session)}>
      <RouterProvider router={router} />
    </AppSystemProvider>,
  );
  return router;
}

/**
 * Both password forms look alike while idle: their heading, a button that is not busy, and the
 * machine's error (reported once) in an alert, or no alert at all.
 */
function expectIdleForm(heading: string, submitButton: HTMLElement, error: string | null) {
  expect(screen.getByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  expect(submitButton).not.toHaveAttribute('aria-busy');
  if (error) {
    expect(screen.getByRole('alert')).toHaveTextContent(error);
    expect(reportedErrors(sent)).toEqual([expect.objectContaining({ feature: 'passwordReset' })]);
  } else {
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(reportedErrors(sent)).toEqual([]);
  }
}

beforeEach(() => {
  user = userEvent.setup();
  session = startSignedOutSession();
  ({ sent } = fakeNetwork([
    { method: 'POST', path: /^users\/password$/, id: 'requestReset', answer: () => ({ success: true }) },
    { method: 'PUT', path: /^users\/password$/, id: 'resetPassword', answer: () => ({ success: true }) },
    ERROR_REPORTS_ROUTE,
  ]));
});

afterEach(() => {
  appOfSession(session).stop();
  setRouter(null);
  pendingCalls.clear();
});

describe('forgot password', () => {
  const { paths, titled } = flowModel(forgotPasswordMachine, {
    events: [
      { label: 'submit', event: { type: 'SUBMIT', email: EMAIL } },
      doneEvent('requestReset', undefined, 'request accepted'),
      errorEvent('requestReset', serverRefusal, 'refused by the server'),
      errorEvent('requestReset', networkFailure, 'network failure'),
    ],
  });

  const submitButton = () => screen.getByRole('button', { name: /Send reset link/ });

  const states: StateAssertions<typeof forgotPasswordMachine> = {
    form: ({ context }) => expectIdleForm('Forgot your password?', submitButton(), context.error),
    submitting: () => {
      expect(submitButton()).toHaveAttribute('aria-busy', 'true');
      expect(sent.at(-1)).toEqual({ method: 'POST', path: 'users/password', body: { user: { email: EMAIL } } });
    },
    confirmation: () => {
      expect(screen.getByRole('status')).toHaveTextContent(
        'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.',
      );
      expect(screen.queryByRole('textbox', { name: /Email/ })).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/sign-in');
    },
  };

  const events: EventExecutors<typeof forgotPasswordMachine> = {
    ...settlementExecutors(forgotPasswordMachine, pendingCalls),
    SUBMIT: async ({ event }) => {
      const field = screen.getByRole('textbox', { name: /Email/ });
      await user.clear(field);
      await user.type(field, String(event.email));
      await user.click(submitButton());
    },
  };

  it.each(titled)('$title', async ({ path }) => {
    renderAt('/forgot-password');
    await runPath(path, () => inspectedActors.snapshotOf(forgotPasswordMachine), states, events);
  });

  it('covers every state and event', () => {
    expectFullCoverage(forgotPasswordMachine, paths, states, events);
  });

  it('validates the e-mail before anything is sent (SPEC §5)', async () => {
    renderAt('/forgot-password');
    await user.click(submitButton());
    expect(screen.getByText('Please enter your email address')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'ada@');
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(inspectedActors.snapshotOf(forgotPasswordMachine).value).toBe('form');
    expect(sent).toEqual([]);
  });
});

describe('reset password', () => {
  const { paths, titled } = flowModel(resetPasswordMachine, {
    input: { resetToken: RESET_TOKEN },
    events: [
      { label: 'submit', event: { type: 'SUBMIT', password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD } },
      doneEvent('resetPassword', undefined, 'password updated'),
      errorEvent('resetPassword', serverRefusal, 'refused by the server'),
      errorEvent('resetPassword', networkFailure, 'network failure'),
    ],
  });

  const submitButton = () => screen.getByRole('button', { name: /Update password/ });

  const states: StateAssertions<typeof resetPasswordMachine> = {
    form: ({ context }) => expectIdleForm('Reset your password', submitButton(), context.error),
    submitting: () => {
      expect(submitButton()).toHaveAttribute('aria-busy', 'true');
      expect(sent.at(-1)).toEqual({
        method: 'PUT',
        path: 'users/password',
        body: { reset_password_token: RESET_TOKEN, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      });
    },
    // SPEC §8: the success message, then SignIn (which shows it).
    done: () => {
      expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent(ACCOUNT_MESSAGES.resetSucceeded);
      expect(session.getSnapshot().context.notice).toBe(
        'Your password has been updated successfully. You can sign in with your new password now.',
      );
    },
  };

  const events: EventExecutors<typeof resetPasswordMachine> = {
    ...settlementExecutors(resetPasswordMachine, pendingCalls),
    SUBMIT: async ({ event }) => {
      const { password, passwordConfirmation } = event as { password: string; passwordConfirmation: string; type: 'SUBMIT' };
      for (const [label, value] of [
        [/^New password/, password],
        [/^Confirm new password/, passwordConfirmation],
      ] as const) {
        const field = screen.getByLabelText(label);
        await user.clear(field);
        await user.type(field, value);
      }
      await user.click(submitButton());
    },
  };

  it.each(titled)('$title', async ({ path }) => {
    renderAt(`/reset-password/${RESET_TOKEN}`);
    await runPath(path, () => inspectedActors.snapshotOf(resetPasswordMachine), states, events);
  });

  it('covers every state and event', () => {
    expectFullCoverage(resetPasswordMachine, paths, states, events);
  });

  it('validates both passwords before anything is sent (SPEC §5)', async () => {
    renderAt(`/reset-password/${RESET_TOKEN}`);
    await user.click(submitButton());
    expect(screen.getByText('Please enter a new password')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your new password')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^New password/), 'short');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'different-1');
    expect(screen.getByText('Please enter a valid password')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    // The mismatch message belongs to the confirmation field.
    expect(screen.getByLabelText(/^Confirm new password/)).toHaveAccessibleDescription(/Passwords do not match/);

    await user.click(submitButton());
    expect(inspectedActors.snapshotOf(resetPasswordMachine).value).toBe('form');
    expect(sent).toEqual([]);
  });
});
