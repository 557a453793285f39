import { render, screen } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confirmationLinkMachine } from '../../src/machines/confirmationLink.machine.ts';
import { AccountError } from '../../src/services/account.ts';
import { EmailConfirmationNotice } from '../../src/views/offerings/EmailConfirmationNotice.tsx';
import {
  type EventExecutors,
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


const EMAIL = 'nora@acme.test';
const TOO_MANY = 'Too many links sent. Please try again later.';

const { paths, titled } = flowModel(confirmationLinkMachine, {
  events: [
    { label: 'send the link again', event: { type: 'SEND' } },
    doneEvent('requestLink', undefined, 'sent'),
    errorEvent('requestLink', new AccountError(TOO_MANY, 429, TOO_MANY), 'too many links'),
    errorEvent('requestLink', new Error('Failed to fetch'), 'network failure'),
  ],
});

let user: UserEvent;
let sent: SentCall[];
const sendButton = () => screen.getByRole('button', { name: /Send the link again/ });

/** The notice itself stays whatever the state: the benefits wait for the address. */
function expectNotice() {
  expect(screen.getByRole('heading', { level: 2, name: 'Confirm your e-mail address' })).toBeInTheDocument();
  expect(screen.getByText(EMAIL)).toBeInTheDocument();
}

const states: StateAssertions<typeof confirmationLinkMachine> = {
  idle: () => {
    expectNotice();
    expect(sendButton()).not.toHaveAttribute('aria-busy');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
  sending: () => {
    expectNotice();
    expect(sendButton()).toHaveAttribute('aria-busy', 'true');
    expect(sent.at(-1)).toEqual({ method: 'POST', path: 'users/confirmation', body: undefined });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
  sent: () => {
    expectNotice();
    expect(screen.getByRole('status')).toHaveTextContent('We sent you a new confirmation link. It works for 3 days.');
  },
  failed: ({ context }) => {
    expectNotice();
    const expected = context.error === TOO_MANY ? TOO_MANY : 'Unable to send a new link at this time. Please try again later.';
    expect(screen.getByRole('alert')).toHaveTextContent(expected);
    expect(sendButton()).not.toHaveAttribute('aria-busy');
  },
};

const events: EventExecutors<typeof confirmationLinkMachine> = {
  ...settlementExecutors(confirmationLinkMachine, pendingCalls),
  SEND: () => user.click(sendButton()),
};

describe('sending the confirmation link again, against the Benefits & Offers notice', () => {
  beforeEach(() => {
    user = userEvent.setup();
    ({ sent } = fakeNetwork([{ method: 'POST', path: /^users\/confirmation$/, id: 'requestLink', answer: () => ({ success: true }) }]));
    render(inApp(startTestApp(), <EmailConfirmationNotice email={EMAIL} />));
  });

  afterEach(() => pendingCalls.clear());

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(confirmationLinkMachine), states, events);
  });

  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(confirmationLinkMachine, paths, states, events);
  });
});
