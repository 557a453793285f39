import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../src/contract/account.ts';
import { MFA_TOKEN_HEADER } from '../../src/contract/common.constants.ts';
import { mfaPhoneChangeMachine } from '../../src/machines/mfaPhoneChange.machine.ts';
import { readSession } from '../../src/services/storage.ts';
import { MfaPhoneSection, PHONE_CHANGED_MESSAGE } from '../../src/views/account/MfaPhoneSection.tsx';
import { inApp, sessionOf, signedInSession, startTestApp } from './appSystem.support.tsx';
import {
  type EventExecutors,
  type StateAssertions,
  doneEvent,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  inspectedActors,
  pendingCalls,
  runPath,
} from './modelPaths.support.ts';
import { type SentCall, fakeNetwork } from './network.support.ts';
import { employeeUser } from './users.fixtures.ts';

const OLD_LAST_DIGITS = '1212';
const NEW_PHONE = '3125550147';
const CODE = '123456';
const MFA_TOKEN = 'token-of-the-new-phone';
const ENROLLED: User = employeeUser(
  { external_id: 'u-1', full_name: 'Ada Lovelace', first_name: 'Ada', initials: 'AL', email: 'ada@example.com' },
  { mfa_enrolled: true, mfa_phone_last_digits: OLD_LAST_DIGITS },
);

const { paths, titled } = flowModel(mfaPhoneChangeMachine, {
  events: [
    { label: 'open', event: { type: 'OPEN' } },
    { label: 'cancel', event: { type: 'CANCEL' } },
    doneEvent('verifyNewPhone', undefined, 'new phone verified'),
  ],
  walks: [
    ['open', 'new phone verified', 'open', 'cancel'],
    ['open', 'cancel', 'open', 'new phone verified'],
  ],
});

let user: UserEvent;
let sent: SentCall[];
let app: ReturnType<typeof startTestApp>;
const button = (name: string) => screen.getByRole('button', { name: new RegExp(`^(Loading)?\\s*${name}$`) });
const changeGroup = () => screen.getByRole('group', { name: 'Change phone' });
const phoneField = () => within(changeGroup()).getByRole('textbox', { name: 'Mobile phone number' });
const codeField = () => within(changeGroup()).getByRole('textbox', { name: 'Verification code' });

/** Change phone pressed: the steps' chunk loads when they are first asked for. */
async function openChange() {
  await user.click(button('Change phone'));
  await within(changeGroup()).findByRole('textbox', { name: 'Mobile phone number' });
}

async function enterNewPhone() {
  await user.type(phoneField(), NEW_PHONE);
  await user.click(button('Send code'));
  await pendingCalls.settle({ type: 'xstate.done.actor.enroll' });
}

const states: StateAssertions<typeof mfaPhoneChangeMachine> = {
  showing: ({ context }) => {
    expect(screen.getByText(`On: when you sign in on a new device, we text a code to your phone (•••) •••-${OLD_LAST_DIGITS}.`)).toBeInTheDocument();
    expect(button('Change phone')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Change phone' })).not.toBeInTheDocument();
    if (context.changed) expect(screen.getByRole('status')).toHaveTextContent(PHONE_CHANGED_MESSAGE);
    else expect(screen.queryByText(PHONE_CHANGED_MESSAGE)).not.toBeInTheDocument();
  },
  changing: () => {
    expect(phoneField()).toHaveValue('');
    expect(within(changeGroup()).getByText(/your current phone keeps receiving codes until you enter it/)).toBeInTheDocument();
    expect(screen.queryByText(PHONE_CHANGED_MESSAGE)).not.toBeInTheDocument();
  },
};

const events: EventExecutors<typeof mfaPhoneChangeMachine> = {
  OPEN: openChange,
  CANCEL: () => user.click(button('Cancel')),
  // The new number's own steps, as enrolment's (walked by mfaEnrollment.model.test.tsx): number, code, verified.
  'xstate.done.actor.verifyNewPhone': async () => {
    await enterNewPhone();
    await user.type(codeField(), CODE);
    await user.click(button('Verify'));
    await pendingCalls.settle({ type: 'xstate.done.actor.verifyCode', output: MFA_TOKEN });
  },
};

describe('MFA phone change against Account Settings', () => {
  beforeEach(async () => {
    user = userEvent.setup();
    ({ sent } = fakeNetwork([
      { method: 'POST', path: /^mfa$/, id: 'enroll', answer: () => ({ success: true }) },
      {
        method: 'POST',
        path: /^mfa\/verify$/,
        id: 'verifyCode',
        answer: (mfaToken: string) => HttpResponse.json({ success: true }, { headers: { [MFA_TOKEN_HEADER]: mfaToken } }),
      },
      { method: 'GET', path: /^users\/current$/, id: 'refreshUser', answer: (refreshed: User) => ({ user: refreshed }) },
    ]));
    app = startTestApp({ session: signedInSession(ENROLLED) });
    await waitFor(() => expect(sessionOf(app).getSnapshot().context.user).not.toBeNull());
    render(inApp(app, <MfaPhoneSection lastDigits={OLD_LAST_DIGITS} />));
  });
  afterEach(() => {
    app.stop();
    pendingCalls.clear();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(mfaPhoneChangeMachine), states, events);
  });

  it('sends the new number, keeps the new device token and has the session fetch the user with the new phone', async () => {
    await openChange();
    await enterNewPhone();
    await user.type(codeField(), CODE);
    await user.click(button('Verify'));
    await pendingCalls.settle({ type: 'xstate.done.actor.verifyCode', output: MFA_TOKEN });
    expect(sent.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: 'mfa', body: { mfa_number: NEW_PHONE } },
      { method: 'POST', path: 'mfa/verify', body: { otp: CODE } },
      { method: 'GET', path: 'users/current', body: undefined },
    ]);
    expect(readSession().mfaToken).toBe(MFA_TOKEN);
    await pendingCalls.settle({ type: 'xstate.done.actor.refreshUser', output: { ...ENROLLED, mfa_phone_last_digits: '0147' } });
    expect(sessionOf(app).getSnapshot().context.user?.mfa_phone_last_digits).toBe('0147');
  });

  it("asks for a new code by sending the new number again: send-otp would text the current phone", async () => {
    await openChange();
    await enterNewPhone();
    await user.click(button('Send a new code'));
    await pendingCalls.settle({ type: 'xstate.done.actor.enroll' });
    expect(sent.map(({ path, body }) => ({ path, body }))).toEqual([
      { path: 'mfa', body: { mfa_number: NEW_PHONE } },
      { path: 'mfa', body: { mfa_number: NEW_PHONE } },
    ]);
    expect(codeField()).toBeInTheDocument();
  });
});

describe('MFA phone change model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(mfaPhoneChangeMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(titled.map(({ title }) => title), {
      'changed, then the form again without the old notice': /new phone verified → open/,
      'cancelled half-way, then changed': /cancel → open → new phone verified/,
    });
  });
});
