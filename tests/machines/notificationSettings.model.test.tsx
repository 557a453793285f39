import { render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPLY_EMAIL_CHOICES, type ReplyEmailChoice } from '../../src/contract/notifications.ts';
import { NOTIFICATION_SETTINGS_TEXT, notificationSettingsMachine } from '../../src/machines/notificationSettings.machine.ts';
import { NotificationSettings } from '../../src/views/account/NotificationSettings.tsx';
import { inApp, startTestApp } from './appSystem.support.tsx';
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

type Machine = typeof notificationSettingsMachine;

/** Issue 32: Account's Notifications section, its choice of reply e-mails loaded on entry and saved on change. */

const UNAVAILABLE = serverRefusal(503, 'Service Unavailable');

const { paths, titled } = flowModel(notificationSettingsMachine, {
  events: [
    doneEvent('loadChoice', 'each', 'each reply chosen'),
    errorEvent('loadChoice', UNAVAILABLE, 'choices unavailable'),
    { label: 'try again', event: { type: 'RETRY' } },
    { label: 'choose the daily digest', event: { type: 'CHOOSE', choice: 'digest' } },
    doneEvent('saveChoice', 'digest', 'digest saved'),
    errorEvent('saveChoice', UNAVAILABLE, 'not saved'),
  ],
  offer: ({ context }, { event }) => event.type !== 'CHOOSE' || context.saved === 'each',
});

let user: UserEvent;
let sent: SentCall[];

const radios = () => screen.getByRole('radiogroup', { name: 'E-mail me about replies' });
const status = () => screen.getByRole('status');

function expectChoice(choice: ReplyEmailChoice, { disabled }: { disabled: boolean }) {
  for (const [value, { label }] of Object.entries(REPLY_EMAIL_CHOICES)) {
    const radio = within(radios()).getByRole('radio', { name: new RegExp(label) });
    expect(radio).toHaveProperty('checked', value === choice);
    expect(radio).toHaveProperty('disabled', disabled);
  }
}

const states: StateAssertions<Machine> = {
  loading: () => {
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ method: 'GET', path: 'notification_settings', body: undefined });
  },
  loadFailed: () => {
    expect(screen.getByRole('alert')).toHaveTextContent(NOTIFICATION_SETTINGS_TEXT.loadFailed);
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
  },
  ready: ({ context }) => {
    expectChoice(context.choice!, { disabled: false });
    if (context.error) expect(screen.getByRole('alert')).toHaveTextContent(NOTIFICATION_SETTINGS_TEXT.saveFailed);
    else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
  'ready.unchanged': () => expect(status()).toHaveTextContent(''),
  'ready.saved': () => expect(status()).toHaveTextContent(NOTIFICATION_SETTINGS_TEXT.saved),
  saving: ({ context }) => {
    expectChoice(context.choice!, { disabled: true });
    expect(sent.at(-1)).toEqual({ method: 'PUT', path: 'notification_settings', body: { reply_emails: context.choice } });
  },
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(notificationSettingsMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  CHOOSE: ({ event }) => user.click(within(radios()).getByText(REPLY_EMAIL_CHOICES[event.choice as ReplyEmailChoice].label)),
};

describe("Account's notifications: the choice of reply e-mails", () => {
  beforeEach(() => {
    user = userEvent.setup();
    const answer = (choice: ReplyEmailChoice) => ({ success: true, settings: { reply_emails: choice } });
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^notification_settings$/, id: 'loadChoice', answer },
      { method: 'PUT', path: /^notification_settings$/, id: 'saveChoice', answer },
    ]));
    render(inApp(startTestApp(), <NotificationSettings />));
  });

  afterEach(() => pendingCalls.clear());

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(notificationSettingsMachine), states, events);
  });

  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(notificationSettingsMachine, paths, states, events);
  });
});
