import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachmentMachine } from '../../src/machines/attachment.machine.ts';
import Attachment from '../../src/views/Attachment.tsx';
import {
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
import { serverRefusal } from './httpFailures.support.ts';
import { type SentCall, fakeNetwork } from './network.support.ts';


/** Links carry the key URL-encoded; the lookup must get it decoded. */
const FILE_KEY = 'uploads/ab12 cd34.pdf';
/** Where the page is while the file is looked up. */
const PAGE_ADDRESS = `${window.location.origin}/`;
/**
 * The file's short-lived address, as the server gives it. jsdom moves the page only within itself (to a fragment) and
 * leaves any other address unvisited, so the server here gives the page's own address with a fragment: the test then
 * sees where the browser was sent, and that the page's history entry was replaced rather than added to.
 */
const FILE_ADDRESS = `${PAGE_ADDRESS}#storage/ab12?signature=xyz`;
let sent: SentCall[];
let historyLength: number;

const { paths, titled } = flowModel(attachmentMachine, {
  input: { fileKey: FILE_KEY },
  events: [
    doneEvent('lookUpFileAddress', FILE_ADDRESS, 'file address found'),
    errorEvent('lookUpFileAddress', serverRefusal(404, 'File not found'), 'not found or not yours'),
    errorEvent('lookUpFileAddress', new Error('Failed to fetch'), 'network failure'),
  ],
});

const states: StateAssertions<typeof attachmentMachine> = {
  lookingUp: () => {
    expect(sent).toEqual([{ method: 'GET', path: 'uploads/expiring_url', body: undefined, query: { key: FILE_KEY } }]);
    // The page itself never renders while the browser is being sent to the file.
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    expect(window.location.href).toBe(PAGE_ADDRESS);
  },
  leaving: () => {
    expect(window.location.href).toBe(FILE_ADDRESS);
    expect(window.history.length).toBe(historyLength);
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  },
  failed: (snapshot) => {
    expect(screen.getByRole('heading', { level: 1, name: 'Attachment' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error ?? '');
    expect(screen.getByRole('link', { name: 'Back to your requests' })).toHaveAttribute('href', '/requests');
    expect(window.location.href).toBe(PAGE_ADDRESS);
  },
};

const events = settlementExecutors(attachmentMachine, pendingCalls);

describe('attachment route against the Attachment view', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', PAGE_ADDRESS);
    historyLength = window.history.length;
    ({ sent } = fakeNetwork([
      {
        method: 'GET',
        path: /^uploads\/expiring_url$/,
        id: 'lookUpFileAddress',
        answer: (address: string) => ({ expiring_url: address }),
      },
    ]));
    const router = createMemoryRouter([{ path: '/attachments/:fileKey', element: <Attachment /> }], {
      initialEntries: [`/attachments/${encodeURIComponent(FILE_KEY)}`],
    });
    render(inApp(startTestApp(), <RouterProvider router={router} />));
  });

  afterEach(() => pendingCalls.clear());

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(attachmentMachine), states, events);
  });

  it('shows the server message, or a plain one when the network fails', () => {
    const messages = paths
      .map((path) => path.state)
      .filter((state) => state.matches('failed'))
      .map((state) => state.context.error);
    expect(messages.sort()).toEqual(['File not found', 'We could not open that file.']);
  });
});

describe('attachment model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(attachmentMachine, paths, states, events);
  });
});
