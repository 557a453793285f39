import { act, render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, getInitialSnapshot } from 'xstate';
import AppLayout from '../../src/app/AppLayout.tsx';
import type { LiveEvent } from '../../src/contract/events.ts';
import { type AppActor, type UnreadRepliesActor, appMachine } from '../../src/machines/app.machine.ts';
import type { LiveUpdate } from '../../src/machines/liveUpdates.machine.ts';
import { SYSTEM_IDS } from '../../src/machines/system.ts';
import { unreadRepliesMachine } from '../../src/machines/unreadReplies.machine.ts';
import { unreadTotal } from '../../src/machines/appSystem.tsx';
import type { UnreadReplies } from '../../src/services/requests.ts';
import type { ClientRequest } from '../../src/services/threadRules.ts';
import { RequestListItem } from '../../src/views/requests/RequestListItem.tsx';
import { inApp, signedInSession } from './appSystem.support.tsx';
import { serverRefusal } from './httpFailures.support.ts';
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
import { employeeUser } from './users.fixtures.ts';

type Machine = typeof unreadRepliesMachine;

/** Issue 32: the employee's unread replies, against the frame's Requests item and the requests of a list. */

function request(id: number, name: string): ClientRequest {
  return {
    id,
    external_id: `R-${id}`,
    name,
    status: 'in_progress',
    issued_at: '2026-11-20T09:00:00Z',
    created_at: '2026-11-20T09:00:00Z',
    details: null,
    survey_category_name: 'Pet',
    survey_category_image_url: null,
    messages: [],
    last_message: { body_preview: 'Two walkers are free on Tuesday.', created_at: '2026-11-20T10:00:00Z', from_staff: true },
  };
}
const DOG = request(1, 'Walk the dog');
const CAR = request(2, 'Service the car');

const TWO_UNREAD: UnreadReplies = { total: 3, byRequest: { [DOG.id]: 2, [CAR.id]: 1 } };
const NOTHING_UNREAD: UnreadReplies = { total: 0, byRequest: {} };
const REPLY: LiveEvent = {
  type: 'message.created',
  request_id: DOG.id,
  message: { id: 8, body_html: '<p>One more</p>', source: 'life_concierge', source_name: 'Casey', external_created_at: '2026-11-20T11:00:00Z', attachment_keys: [] },
};
const READ_ELSEWHERE: LiveEvent = { type: 'request.read', request_id: DOG.id, last_read_message_id: 8, unread_count: 0 };

const { paths, titled } = flowModel(unreadRepliesMachine, {
  events: [
    { label: 'the employee frame shows', event: { type: 'EMPLOYEE_SHOWN' } },
    { label: 'the employee frame goes', event: { type: 'EMPLOYEE_LEFT' } },
    doneEvent('fetchUnreadReplies', TWO_UNREAD, 'three replies on two requests'),
    doneEvent('fetchUnreadReplies', NOTHING_UNREAD, 'nothing unread'),
    errorEvent('fetchUnreadReplies', serverRefusal(503, 'Service Unavailable'), 'counts unavailable'),
    { label: 'the dog thread is read to its end', event: { type: 'READ_UP_TO', requestId: DOG.id, messageId: 8 } },
    doneEvent('reportRead', 0, 'read, nothing left'),
    errorEvent('reportRead', serverRefusal(503, 'Service Unavailable'), 'read not recorded'),
    { label: 'a reply arrives', event: { type: 'LIVE_EVENT', event: REPLY } },
    { label: 'read on another device', event: { type: 'LIVE_EVENT', event: READ_ELSEWHERE } },
    { label: 'a poll', event: { type: 'LIVE_POLL' } },
  ],
  offer: (snapshot, { event, label }) => {
    const loaded = Object.keys(snapshot.context.byRequest).length > 0;
    if (event.type === 'EMPLOYEE_LEFT') return snapshot.matches({ watching: 'ready' }) && loaded;
    if (event.type === 'xstate.done.actor.fetchUnreadReplies') return loaded === (label === 'nothing unread');
    if (event.type === 'xstate.error.actor.fetchUnreadReplies') return loaded;
    if (event.type === 'READ_UP_TO') return loaded && !snapshot.matches({ watching: 'loading' });
    if (event.type === 'LIVE_EVENT' || event.type === 'LIVE_POLL') return loaded || snapshot.matches({ watching: 'reporting' });
    return true;
  },
});

let app: AppActor;
let sent: SentCall[];
let stream: ((update: LiveUpdate) => void) | null;
let unmountFrame: (() => void) | null;

const unreadActor = () => app.system.get(SYSTEM_IDS.unreadReplies) as UnreadRepliesActor | undefined;
/** The app loads the statechart when the employee's frame first shows; until then it is as it starts. */
const unreadSnapshot = () => unreadActor()?.getSnapshot() ?? getInitialSnapshot(unreadRepliesMachine);
/** The stream the statechart follows, driven by the test (the live service itself: tests/server/realtime.client.test.ts). */
const drivenStream = fromCallback<LiveUpdate>(({ sendBack }) => {
  stream = sendBack;
  return () => {
    stream = null;
  };
});

/** The signed-in frame with a Requests list of the two requests, as the employee sees it. */
function showFrame() {
  const router = createMemoryRouter(
    [{ element: <AppLayout />, children: [{ path: '/requests', element: <ul>{[DOG, CAR].map((item) => <RequestListItem key={item.id} request={item} />)}</ul> }] }],
    { initialEntries: ['/requests'] },
  );
  const { unmount } = render(inApp(app, <RouterProvider router={router} />));
  unmountFrame = unmount;
}

const repliesName = (count: number) => `${count} unread ${count === 1 ? 'reply' : 'replies'}`;

/** What the frame and the list show of the counts. */
function expectCounts(byRequest: Record<number, number>) {
  const total = unreadTotal(byRequest);
  const nav = screen.getAllByRole('navigation', { name: 'Main navigation' });
  for (const bar of nav) {
    const link = [...bar.querySelectorAll('a')].find((anchor) => anchor.getAttribute('href') === '/requests')!;
    // The number is shown, and said with what it counts (jsdom joins a name's parts without the browser's spaces).
    expect(link.textContent?.replace(/\s+/g, ' ').trim()).toBe(total > 0 ? `Requests${total} ${repliesName(total)}` : 'Requests');
  }
  for (const item of [DOG, CAR]) {
    const link = document.querySelector(`a[href="/requests/${item.id}"]`)!;
    const count = byRequest[item.id] ?? 0;
    expect(link.textContent).toContain('Two walkers are free on Tuesday.');
    if (count > 0) expect(link).toHaveTextContent(repliesName(count));
    else expect(link).not.toHaveTextContent(/unread/);
  }
}

const calls = (method: string, path: RegExp) => sent.filter((call) => call.method === method && path.test(call.path));

const states: StateAssertions<Machine> = {
  idle: ({ context }) => {
    expect(context.byRequest).toEqual({});
    expect(stream).toBeNull();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  },
  watching: () => {
    expect(stream).not.toBeNull();
  },
  'watching.loading': ({ context }) => {
    expectCounts(context.byRequest);
    expect(calls('GET', /^requests\/unread$/).length).toBeGreaterThan(0);
  },
  'watching.ready': ({ context }) => expectCounts(context.byRequest),
  'watching.reporting': ({ context }) => {
    expectCounts(context.byRequest);
    expect(calls('POST', /^requests\/\d+\/read$/).at(-1)).toEqual({ method: 'POST', path: `requests/${DOG.id}/read`, body: { message_id: 8 } });
  },
};

const drive = (update: LiveUpdate) =>
  act(async () => {
    if (!stream) throw new Error('the unread replies follow no stream');
    stream(update);
  });

const events: EventExecutors<Machine> = {
  ...settlementExecutors(unreadRepliesMachine, pendingCalls),
  EMPLOYEE_SHOWN: async () => {
    showFrame();
    await waitFor(() => expect(unreadActor()).toBeDefined());
  },
  EMPLOYEE_LEFT: () => {
    unmountFrame?.();
    unmountFrame = null;
  },
  // As the thread sends it: to the app, which hands it to the loaded statechart.
  READ_UP_TO: ({ event }) => act(async () => app.send({ type: 'READ_UP_TO', requestId: event.requestId as number, messageId: event.messageId as number })),
  LIVE_EVENT: ({ event }) => drive({ type: 'LIVE_EVENT', event: event.event as LiveEvent }),
  LIVE_POLL: () => drive({ type: 'LIVE_POLL' }),
};

describe("the employee's unread replies, against the frame's Requests item and a list", () => {
  beforeEach(() => {
    stream = null;
    unmountFrame = null;
    ({ sent } = fakeNetwork([
      {
        method: 'GET',
        path: /^requests\/unread$/,
        id: 'fetchUnreadReplies',
        answer: (unread: UnreadReplies) => ({
          success: true,
          unread_count: unread.total,
          requests: Object.entries(unread.byRequest).map(([id, count]) => ({ id: Number(id), unread_count: count })),
        }),
      },
      { method: 'POST', path: /^requests\/\d+\/read$/, id: 'reportRead', answer: (left: number) => ({ success: true, last_read_message_id: 8, unread_count: left }) },
    ]));
    const user = employeeUser({ external_id: 'u-1', full_name: 'Ada Park', first_name: 'Ada', initials: 'AP', email: 'ada@acme.test' });
    const machine = appMachine.provide({
      actors: { session: signedInSession(user),
        loadUnreadReplies: fromPromise(async () => unreadRepliesMachine.provide({ actors: { liveUpdates: drivenStream } })),
      },
    });
    app = createActor(machine, { systemId: SYSTEM_IDS.app, inspect: inspectedActors.inspect }).start();
  });

  afterEach(() => {
    unmountFrame?.();
    app.stop();
    pendingCalls.clear();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, unreadSnapshot, states, events);
  });

  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(unreadRepliesMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(titled.map(({ title }) => title), {
      'the counts load when the frame shows': /^start → the employee frame shows → three replies on two requests/,
      'a reply makes them load again': /three replies on two requests → a reply arrives/,
      'a read on another device makes them load again': /three replies on two requests → read on another device/,
      'a thread read clears its count': /the dog thread is read to its end → read, nothing left/,
      'a read not recorded loads the counts again': /the dog thread is read to its end → read not recorded/,
      'leaving forgets the counts': /the employee frame goes$/,
    });
  });
});
