import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD_CHANGED_MESSAGE, PROFILE_ERRORS } from '../../src/contract/profile.ts';
import { SAVE_FAILED } from '../../src/machines/adminForms.ts';
import { type PasswordField, passwordChangeMachine } from '../../src/machines/passwordChange.machine.ts';
import { PasswordSection } from '../../src/views/account/PasswordSection.tsx';
import { inApp, startTestApp } from './appSystem.support.tsx';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import {
  type EventExecutors,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  inspectedActors,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';
import { type SentCall, fakeNetwork } from './network.support.ts';

const CURRENT = 'old secret';
const NEW = 'a new secret';
const WRONG_CURRENT = serverRefusal(422, `current_password: ${PROFILE_ERRORS.wrongCurrentPassword}`, {
  current_password: PROFILE_ERRORS.wrongCurrentPassword,
});

const { paths, titled } = flowModel(passwordChangeMachine, {
  events: [
    { label: 'open', event: { type: 'OPEN' } },
    { label: 'type the current password', event: { type: 'CHANGE', field: 'current_password', value: CURRENT } },
    { label: 'type the new password', event: { type: 'CHANGE', field: 'password', value: NEW } },
    { label: 'confirm it', event: { type: 'CHANGE', field: 'password_confirmation', value: NEW } },
    { label: 'confirm another', event: { type: 'CHANGE', field: 'password_confirmation', value: 'not the same' } },
    { label: 'retype the current password', event: { type: 'CHANGE', field: 'current_password', value: 'my real secret' } },
    { label: 'submit', event: { type: 'SUBMIT' } },
    { label: 'cancel', event: { type: 'CANCEL' } },
    doneEvent('changePassword', PASSWORD_CHANGED_MESSAGE, 'changed'),
    errorEvent('changePassword', WRONG_CURRENT, 'wrong current password'),
    errorEvent('changePassword', networkError(), 'no connection'),
  ],
  // Each field is typed once on a path (the model stays finite); a confirmation that differs replaces a good one.
  offer: (snapshot, { event }) => {
    if (event.type !== 'CHANGE') return true;
    const { form } = snapshot.context;
    if (event.value === 'my real secret') return 'current_password' in snapshot.context.fieldErrors;
    if (event.field === 'password_confirmation') return form.password_confirmation === '' || (form.password_confirmation === NEW && event.value !== NEW);
    return form[event.field as PasswordField] === '';
  },
  walks: [
    ['open', 'type the current password', 'type the new password', 'confirm it', 'submit', 'changed'],
    ['open', 'type the current password', 'type the new password', 'confirm it', 'submit', 'wrong current password', 'retype the current password'],
    ['open', 'type the current password', 'type the new password', 'confirm it', 'submit', 'no connection', 'submit', 'changed', 'open'],
    ['open', 'type the current password', 'type the new password', 'confirm another', 'submit'],
  ],
});

let user: UserEvent;
let sent: SentCall[];
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' });
const LABELS: Record<PasswordField, string> = {
  current_password: 'Current password',
  password: 'New password',
  password_confirmation: 'Confirm new password',
};

const states: StateAssertions<typeof passwordChangeMachine> = {
  closed: ({ context }) => {
    expect(screen.queryByRole('form', { name: 'Change password' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change password' })).toBeInTheDocument();
    if (context.done) expect(screen.getByText(PASSWORD_CHANGED_MESSAGE)).toBeInTheDocument();
    else expect(screen.queryByText(PASSWORD_CHANGED_MESSAGE)).not.toBeInTheDocument();
  },
  editing: ({ context }) => {
    const form = screen.getByRole('form', { name: 'Change password' });
    for (const [name, label] of Object.entries(LABELS) as [PasswordField, string][]) {
      expect(field(label)).toHaveValue(context.form[name]);
      const error = context.fieldErrors[name];
      if (error) expect(within(form).getByText(error)).toBeInTheDocument();
    }
    expect(within(form).getByRole('button', { name: 'Change password' })).not.toHaveAttribute('aria-busy');
    // Without an answer, the form says so in words (a refusal names its field instead).
    if (context.formError) expect(within(form).getByText(SAVE_FAILED)).toBeInTheDocument();
  },
  saving: ({ context }) => {
    expect(screen.getByRole('button', { name: /Change password/ })).toHaveAttribute('aria-busy', 'true');
    expect(sent.at(-1)).toEqual({ method: 'PUT', path: 'users/current/password', body: context.form });
  },
};

const events: EventExecutors<typeof passwordChangeMachine> = {
  ...settlementExecutors(passwordChangeMachine, pendingCalls),
  OPEN: async () => {
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    // The form's chunk loads when it is first asked for.
    await screen.findByRole('form', { name: 'Change password' });
  },
  CHANGE: ({ event }) => {
    fireEvent.change(field(LABELS[event.field as PasswordField]), { target: { value: event.value } });
  },
  SUBMIT: async () => user.click(within(screen.getByRole('form', { name: 'Change password' })).getByRole('button', { name: 'Change password' })),
  CANCEL: async () => user.click(screen.getByRole('button', { name: 'Cancel' })),
};

describe('password change against Account Settings', () => {
  beforeEach(() => {
    user = userEvent.setup();
    ({ sent } = fakeNetwork([
      { method: 'PUT', path: /^users\/current\/password$/, id: 'changePassword', answer: (message: string) => ({ success: true, message }) },
    ]));
    render(inApp(startTestApp(), <PasswordSection />));
  });
  afterEach(() => pendingCalls.clear());

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(passwordChangeMachine), states, events);
  });
});

describe('password change model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(passwordChangeMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(titled.map(({ title }) => title), {
      'changed, then the form again': /submit → changed → open/,
      'the wrong current password, named beside its field, goes as it is retyped': /wrong current password → retype the current password/,
      'no connection, then again': /no connection → submit → changed/,
      // The form breaks the contract's rule: the machine stays in editing, nothing is sent (editing's assertion).
      'a confirmation that does not match is not sent': /confirm another → submit$/,
      'an empty form is not sent': /^start → open → submit( →|$)/,
      'cancel': /cancel/,
    });
  });

});
