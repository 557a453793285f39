import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { ReplyEmailChoice } from '../contract/notifications.ts';
import { fetchReplyEmailChoice, saveReplyEmailChoice } from '../services/notifications.ts';

/**
 * Account's notifications (issue 32): the employee's choice of e-mails about replies, loaded on entry and saved as soon
 * as it changes. A save that fails puts the saved choice back, with the error.
 */

export const NOTIFICATION_SETTINGS_TEXT = {
  loadFailed: 'We could not load your e-mail choices. Please try again.',
  saveFailed: 'We could not save your choice. Please try again.',
  saved: 'Saved.',
} as const;

export interface NotificationSettingsContext {
  /** The choice shown: the one being saved while it is. */
  choice: ReplyEmailChoice | null;
  /** The choice the server holds. */
  saved: ReplyEmailChoice | null;
  error: string | null;
}

export type NotificationSettingsEvent = { type: 'CHOOSE'; choice: ReplyEmailChoice } | { type: 'RETRY' };

export const notificationSettingsMachine = setup({
  types: {
    context: {} as NotificationSettingsContext,
    events: {} as NotificationSettingsEvent,
  },
  actors: {
    loadChoice: fromPromise<ReplyEmailChoice>(() => fetchReplyEmailChoice()),
    saveChoice: fromPromise<ReplyEmailChoice, ReplyEmailChoice>(({ input }) => saveReplyEmailChoice(input)),
  },
  guards: {
    isNewChoice: ({ context, event }) => event.type === 'CHOOSE' && event.choice !== context.saved,
  },
  actions: {
    storeSaved: assign((_, choice: ReplyEmailChoice) => ({ choice, saved: choice, error: null })),
    showChoice: assign(({ event }) => {
      assertEvent(event, 'CHOOSE');
      return { choice: event.choice, error: null };
    }),
    putSavedBack: assign(({ context }) => ({ choice: context.saved, error: NOTIFICATION_SETTINGS_TEXT.saveFailed })),
  },
}).createMachine({
  id: 'notificationSettings',
  context: { choice: null, saved: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadChoice',
        src: 'loadChoice',
        onDone: { target: 'ready', actions: { type: 'storeSaved', params: ({ event }) => event.output } },
        onError: { target: 'loadFailed', actions: assign({ error: NOTIFICATION_SETTINGS_TEXT.loadFailed }) },
      },
    },
    loadFailed: {
      on: { RETRY: 'loading' },
    },
    ready: {
      on: { CHOOSE: { guard: 'isNewChoice', target: 'saving', actions: 'showChoice' } },
      initial: 'unchanged',
      states: {
        unchanged: {},
        saved: {},
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveChoice',
        src: 'saveChoice',
        input: ({ context }) => context.choice!,
        onDone: { target: 'ready.saved', actions: { type: 'storeSaved', params: ({ event }) => event.output } },
        onError: { target: 'ready', actions: 'putSavedBack' },
      },
    },
  },
});
