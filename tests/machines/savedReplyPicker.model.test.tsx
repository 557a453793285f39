import { render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { type Actor, createActor } from 'xstate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FilledSavedReply, SavedReply } from '../../src/contract/assignment.ts';
import {
  SAVED_REPLY_TEXT,
  matchingReplies,
  savedReplyPickerMachine,
  typedSlashAtWordStart,
  withReplyInserted,
} from '../../src/machines/savedReplyPicker.machine.ts';
import { SAVED_REPLY_HINT, SavedReplyPicker } from '../../src/views/console/SavedReplyPicker.tsx';
import { TextInput } from '../../src/widgets/TextInput.tsx';
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

type Machine = typeof savedReplyPickerMachine;

/** Issue 28: the composer's saved replies, opened by typing `/`, searched by short code, inserted filled in. */

const REQUEST_ID = 7;
const reply = (fields: Pick<SavedReply, 'id' | 'title' | 'short_code' | 'body_markdown'>): SavedReply => ({
  active: true,
  updated_at: '2026-01-05T09:00:00.000Z',
  ...fields,
});
const WELCOME = reply({ id: 1, title: 'Welcome', short_code: 'welcome', body_markdown: 'Hi {{employee_first_name}}!' });
const THANKS = reply({ id: 2, title: 'Thanks for waiting', short_code: 'thanks', body_markdown: 'Thanks, {{employee_first_name}}.' });
const FILLED: FilledSavedReply = { body_markdown: 'Thanks, Erin.' };
const UNAVAILABLE = serverRefusal(503, 'Service Unavailable');
const GONE_MESSAGE = 'Saved reply not found';
const GONE = serverRefusal(404, GONE_MESSAGE);

const { paths, titled } = flowModel(savedReplyPickerMachine, {
  input: { requestId: REQUEST_ID },
  events: [
    { label: 'type /', event: { type: 'TYPED', before: '', after: '/' } },
    doneEvent('listReplies', [WELCOME, THANKS], 'replies listed'),
    doneEvent('listReplies', [], 'no replies yet'),
    errorEvent('listReplies', UNAVAILABLE, 'list fails'),
    { label: 'try again', event: { type: 'RETRY' } },
    { label: 'search "th"', event: { type: 'SEARCH', query: 'th' } },
    { label: 'choose Thanks', event: { type: 'CHOOSE', replyId: THANKS.id } },
    doneEvent('fillReply', FILLED, 'filled in'),
    errorEvent('fillReply', GONE, 'reply archived meanwhile'),
    { label: 'escape', event: { type: 'CLOSE' } },
  ],
  offer: ({ context }, { event }) => {
    if (event.type === 'SEARCH') return context.query === '' && (context.replies?.length ?? 0) > 0;
    if (event.type === 'CHOOSE') return context.query === 'th';
    return true;
  },
});

let user: UserEvent;
let sent: SentCall[];
let picker: Actor<Machine>;

/** The composer's part the picker serves: its text, `/` forwarded to the picker, the filled reply put in its place. */
function ComposerStandIn({ actor }: { actor: Actor<Machine> }) {
  const [text, setText] = useState('');
  const editorRef = useRef<HTMLDivElement>(null);
  return (
    <div ref={editorRef}>
      <TextInput type="textarea" label="Reply (Markdown)" value={text}
        onChange={(value) => {
          actor.send({ type: 'TYPED', before: text, after: value });
          setText(value);
        }} />
      <SavedReplyPicker picker={actor} returnFocusTo={editorRef} onInsert={(body) => setText((typed) => withReplyInserted(typed, body))} />
    </div>
  );
}

const editor = () => screen.getByRole('textbox', { name: /^Reply \(Markdown\)/ });
const region = () => screen.getByRole('region', { name: 'Saved replies' });

const states: StateAssertions<Machine> = {
  closed: ({ context }) => {
    expect(screen.queryByRole('region', { name: 'Saved replies' })).not.toBeInTheDocument();
    expect(screen.getByText(SAVED_REPLY_HINT)).toBeInTheDocument();
    if (context.announcement) {
      expect(screen.getByRole('status')).toHaveTextContent(SAVED_REPLY_TEXT.inserted(THANKS));
      expect(editor()).toHaveValue(FILLED.body_markdown);
      expect(editor()).toHaveFocus();
    }
  },
  choosing: () => expect(region()).toBeInTheDocument(),
  'choosing.loading': () => {
    expect(region()).toHaveAttribute('aria-busy', 'true');
    expect(sent.at(-1)).toEqual({ method: 'GET', path: 'console/saved_replies', body: undefined });
  },
  'choosing.loadFailed': () => {
    expect(within(region()).getByRole('alert')).toHaveTextContent(SAVED_REPLY_TEXT.loadFailed);
  },
  'choosing.searching': ({ context }) => {
    if (context.replies!.length === 0) {
      expect(within(region()).getByText(/No saved replies yet/)).toBeInTheDocument();
      return;
    }
    const search = within(region()).getByRole('combobox', { name: /^Saved reply/ });
    expect(search).toHaveValue(context.query);
    expect(search).toHaveFocus();
    const shown = within(screen.getByRole('listbox')).getAllByRole('option').map((option) => option.textContent);
    expect(shown).toEqual(matchingReplies(context.replies!, context.query).map((offered) => `/${offered.short_code} ${offered.title}`));
    if (context.error) {
      expect(search).toHaveAttribute('aria-invalid', 'true');
      expect(search).toHaveAccessibleDescription(expect.stringContaining(GONE_MESSAGE));
    } else expect(search).not.toHaveAttribute('aria-invalid');
  },
  'choosing.filling': () => {
    expect(sent.at(-1)).toEqual({ method: 'POST', path: `console/saved_replies/${THANKS.id}/fill`, body: { request_id: REQUEST_ID } });
  },
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(savedReplyPickerMachine, pendingCalls),
  TYPED: async () => {
    await user.clear(editor());
    await user.type(editor(), '/');
  },
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  SEARCH: ({ event }) => user.type(screen.getByRole('combobox', { name: /^Saved reply/ }), event.query as string),
  // The keyboard: down to the first match, Enter to insert it.
  CHOOSE: () => user.keyboard('{ArrowDown}{Enter}'),
  CLOSE: async () => {
    const search = screen.queryByRole('combobox', { name: /^Saved reply/ });
    if (search && !search.hasAttribute('disabled')) {
      search.focus();
      await user.keyboard('{Escape}');
    } else await user.click(screen.getByRole('button', { name: 'Cancel' }));
  },
};

describe('the composer’s saved replies', () => {
  beforeEach(() => {
    user = userEvent.setup();
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^console\/saved_replies$/, id: 'listReplies', answer: (replies: SavedReply[]) => ({ saved_replies: replies }) },
      { method: 'POST', path: /^console\/saved_replies\/\d+\/fill$/, id: 'fillReply', answer: (filled: FilledSavedReply) => filled },
    ]));
    picker = createActor(savedReplyPickerMachine, { input: { requestId: REQUEST_ID }, inspect: inspectedActors.inspect });
    picker.start();
    render(inApp(startTestApp(), <ComposerStandIn actor={picker} />));
  });

  afterEach(() => {
    picker.stop();
    pendingCalls.clear();
  });

  it('opens on a / at the start of a word, searches codes then titles, and puts the reply in place of the /', () => {
    expect(typedSlashAtWordStart('', '/')).toBe(true);
    expect(typedSlashAtWordStart('Hi ', 'Hi /')).toBe(true);
    expect(typedSlashAtWordStart('and', 'and/')).toBe(false);
    expect(typedSlashAtWordStart('', 'x')).toBe(false);
    expect(matchingReplies([WELCOME, THANKS], '/th').map((found) => found.id)).toEqual([THANKS.id]);
    expect(matchingReplies([WELCOME, THANKS], 'waiting').map((found) => found.id)).toEqual([THANKS.id]);
    expect(matchingReplies([WELCOME, THANKS], '').map((found) => found.id)).toEqual([WELCOME.id, THANKS.id]);
    expect(withReplyInserted('Hello /', 'Thanks.')).toBe('Hello Thanks.');
    expect(withReplyInserted('Hello', 'Thanks.')).toBe('Hello Thanks.');
    expect(withReplyInserted('', 'Thanks.')).toBe('Thanks.');
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(savedReplyPickerMachine), states, events);
  });

  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(savedReplyPickerMachine, paths, states, events);
  });
});
