import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, type EventFromLogic, type SnapshotFrom, createActor, initialTransition } from 'xstate';
import { type TestParam, type TestPath, TestModel } from 'xstate/graph';
import { http } from 'msw';
import { UpdateBanner } from '../../src/app/UpdateBanner.tsx';
import { VERSION_FILE_PATH, versionCheckMachine } from '../../src/machines/versionCheck.machine.ts';
import { flowSamples } from './flowSamples/versionCheck.samples.ts';
import { expectFullCoverage } from './modelPaths.support.ts';
import { reloadIfUpdateNeeded } from '../../src/machines/appSystem.tsx';
import { server } from './network.support.ts';

type VersionCheckSnapshot = SnapshotFrom<typeof versionCheckMachine>;
/** The machine's own events plus the done/error events of its invoked version fetch. */
type ModelEvent = EventFromLogic<typeof versionCheckMachine> | { type: string; output?: string };

const UPDATE_TEXT = 'A new version of Life Concierge is available. It loads when you open another page.';
const PAGE_HREF = 'http://localhost:3000/requests?tab=completed';
const NAVIGATION_TARGET = flowSamples.events.find((event) => event.type === 'RELOAD')?.href as string;

/** GET /version.json requests the server holds until the executor of the done or error event answers them. */
interface PendingVersionRequest {
  url: URL;
  answer: (response: Response) => void;
}
const pendingRequests: PendingVersionRequest[] = [];
/** Every request for the version file the server received, oldest first. */
const versionFileRequests: Request[] = [];
function holdVersionFileRequests() {
  server.resetHandlers(
    http.get(
      `*${VERSION_FILE_PATH}`,
      ({ request }) =>
        new Promise<Response>((answer) => {
          versionFileRequests.push(request);
          pendingRequests.push({ url: new URL(request.url), answer });
        }),
    ),
  );
}

const reloadPage = vi.fn<(href: string) => void>();
const machine = versionCheckMachine.provide({ actions: { reloadPage: (_, { href }) => reloadPage(href) } });
let actor: Actor<typeof machine>;
/** The address the last RELOAD asked for, checked when the machine reaches 'reloading'. */
let expectedReloadHref: string | null = null;

function setVisibility(state: DocumentVisibilityState) {
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(state);
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** Requests reach the server asynchronously: the one to answer is waited for. */
async function answerVersionRequest(response: Response) {
  await waitFor(() => expect(pendingRequests).toHaveLength(1));
  const pending = pendingRequests.shift() as PendingVersionRequest;
  await act(async () => pending.answer(response));
  await waitFor(() => expect(actor.getSnapshot().matches('checking')).toBe(false));
}

const banner = () => screen.getByRole('status');

const stateAssertions: NonNullable<TestParam<VersionCheckSnapshot, ModelEvent>['states']> = {
  upToDate: () => {
    expect(banner()).toBeEmptyDOMElement();
    expect(pendingRequests).toHaveLength(0);
    expect(actor.getSnapshot().hasTag('updateNeeded')).toBe(false);
    expect(reloadIfUpdateNeeded(actor, NAVIGATION_TARGET, false)).toBe(false);
  },
  checking: async () => {
    expect(banner()).toBeEmptyDOMElement();
    await waitFor(() => expect(pendingRequests).toHaveLength(1));
    const [{ url }] = pendingRequests as [PendingVersionRequest];
    expect(url.pathname).toBe('/version.json');
    expect(url.searchParams.get('t')).toMatch(/^\d{13}$/);
  },
  updateNeeded: () => {
    expect(actor.getSnapshot().hasTag('updateNeeded')).toBe(true);
    expect(pendingRequests).toHaveLength(0);
  },
  'updateNeeded.available': () => {
    expect(banner()).toHaveTextContent(UPDATE_TEXT);
    expect(screen.getByRole('button', { name: 'Reload now' })).toBeInTheDocument();
    expect(reloadPage).not.toHaveBeenCalled();
    // SPEC §2: never while an MFA step is pending.
    expect(reloadIfUpdateNeeded(actor, NAVIGATION_TARGET, true)).toBe(false);
    expect(reloadPage).not.toHaveBeenCalled();
  },
  'updateNeeded.reloading': () => {
    expect(banner()).toHaveTextContent('Loading the new version…');
    expect(screen.queryByRole('button', { name: 'Reload now' })).not.toBeInTheDocument();
    expect(reloadPage).toHaveBeenCalledExactlyOnceWith(expectedReloadHref);
  },
};

const eventExecutors: NonNullable<TestParam<VersionCheckSnapshot, ModelEvent>['events']> = {
  TAB_VISIBLE: () => {
    // Hiding the tab checks nothing; showing it again does.
    setVisibility('hidden');
    expect(pendingRequests).toHaveLength(0);
    setVisibility('visible');
  },
  'xstate.done.actor.fetchDeployedVersion': async ({ event }) => {
    const { output } = event as ModelEvent as { output: string };
    await answerVersionRequest(Response.json({ version: output }));
  },
  'xstate.error.actor.fetchDeployedVersion': async () => {
    await answerVersionRequest(new Response('Service Unavailable', { status: 503 }));
  },
  RELOAD: async ({ event }) => {
    const { href } = event as Extract<ModelEvent, { type: 'RELOAD' }>;
    expectedReloadHref = href;
    if (href === window.location.href) {
      // The user's own choice, from the banner.
      await userEvent.click(screen.getByRole('button', { name: 'Reload now' }));
    } else {
      // SPEC §2: the next navigation, with no MFA step pending.
      act(() => expect(reloadIfUpdateNeeded(actor, href, false)).toBe(true));
    }
  },
};

/** The sample payloads of the machine module (also used by `npm run flows`), plus the payload-free events. */
const candidateEvents = [
  { type: 'TAB_VISIBLE' },
  ...flowSamples.events,
  { type: 'xstate.error.actor.fetchDeployedVersion' },
] as ModelEvent[] as EventFromLogic<typeof machine>[];

// TestModel, not createTestModel: the machine invokes actors, whose done/error events the model feeds itself.
const model = new TestModel(machine, {
  input: flowSamples.input,
  events: (snapshot) => candidateEvents.filter((event) => snapshot.can(event)),
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  stateMatcher: (snapshot, key) => snapshot.matches(key as 'upToDate'),
});
const done = (output: string) => ({ type: 'xstate.done.actor.fetchDeployedVersion', output });
const failed = { type: 'xstate.error.actor.fetchDeployedVersion' };
// getPathsFromEvents ignores `input`; it starts from the given initial snapshot instead.
const initialSnapshot = initialTransition(machine, flowSamples.input)[0];
const pathOf = (...list: ModelEvent[]) =>
  model.getPathsFromEvents(list as EventFromLogic<typeof machine>[], { fromState: initialSnapshot });
const paths: Array<TestPath<VersionCheckSnapshot, ModelEvent>> = [
  ...model.getShortestPaths(),
  // A deployed version equal to the built one changes nothing.
  ...pathOf({ type: 'TAB_VISIBLE' }, done('v1')),
  // A failed check keeps the state; the next visibility change tries again.
  ...pathOf({ type: 'TAB_VISIBLE' }, failed, { type: 'TAB_VISIBLE' }, done('v2')),
  // 'Reload now' in the banner reloads the page the user is on.
  ...pathOf({ type: 'TAB_VISIBLE' }, done('v2'), { type: 'RELOAD', href: PAGE_HREF }),
];

describe('version check machine against UpdateBanner', () => {
  beforeEach(() => {
    pendingRequests.length = 0;
    versionFileRequests.length = 0;
    reloadPage.mockClear();
    expectedReloadHref = null;
    window.history.replaceState(null, '', PAGE_HREF);
    holdVersionFileRequests();
    actor = createActor(machine, { input: flowSamples.input }).start();
    render(<UpdateBanner actor={actor} />);
  });

  afterEach(() => {
    actor.stop();
    vi.restoreAllMocks();
  });

  afterAll(() => window.history.replaceState(null, '', '/'));

  it.each(paths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    await path.test({ states: stateAssertions, events: eventExecutors });
  });

  it('fetches the version file afresh on every check (cache-busting timestamp)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1_735_787_045_000);
      eventExecutors.TAB_VISIBLE?.({ event: { type: 'TAB_VISIBLE' }, state: actor.getSnapshot() });
      await answerVersionRequest(new Response('not json', { status: 200 }));
      vi.setSystemTime(1_735_787_046_000);
      eventExecutors.TAB_VISIBLE?.({ event: { type: 'TAB_VISIBLE' }, state: actor.getSnapshot() });
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(versionFileRequests).toHaveLength(2));
    expect(versionFileRequests.map(({ url }) => new URL(url).searchParams.get('t'))).toEqual(['1735787045000', '1735787046000']);
    // Fetched with cache 'no-store', which the Fetch standard sends as Cache-Control and Pragma no-cache: no cache on
    // the way (proxy, CDN) may answer either.
    for (const { headers } of versionFileRequests) {
      expect(headers.get('cache-control')).toBe('no-cache');
      expect(headers.get('pragma')).toBe('no-cache');
    }
  });
});

describe('version check model coverage', () => {
  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(machine, paths, stateAssertions, eventExecutors);
  });
});
