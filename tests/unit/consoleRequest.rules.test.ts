import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../src/contract/events.ts';
import { fetchAndMarkRead, isNewsFor, send } from '../../src/machines/consoleRequest.machine.ts';
import {
  addInternalNote,
  fetchConsoleRequest,
  markRequestRead,
  replyToRequest,
} from '../../src/services/console.ts';
import { reportError } from '../../src/services/errorReporting.ts';
import { OPEN_REQUEST, employeeMessage, wireMessage } from '../machines/console.fixtures.ts';
import { serverRefusal } from '../machines/httpFailures.support.ts';

vi.mock(import('../../src/services/console.ts'), async (importOriginal) => ({
  ...(await importOriginal()),
  fetchConsoleRequest: vi.fn(),
  markRequestRead: vi.fn(),
  replyToRequest: vi.fn(),
  addInternalNote: vi.fn(),
}));
vi.mock(import('../../src/services/errorReporting.ts'), async (importOriginal) => ({
  ...(await importOriginal()),
  reportError: vi.fn(async () => {}),
}));

afterEach(() => vi.clearAllMocks());

describe('opening a request marks it read', () => {
  it('marks it read when employee messages are unread, and shows it as read', async () => {
    vi.mocked(fetchConsoleRequest).mockResolvedValue({ ...OPEN_REQUEST, unread_count: 2 });
    vi.mocked(markRequestRead).mockResolvedValue({ success: true, unread_count: 0 });
    expect(await fetchAndMarkRead(OPEN_REQUEST.id)).toEqual({ ...OPEN_REQUEST, unread_count: 0 });
    expect(markRequestRead).toHaveBeenCalledExactlyOnceWith(OPEN_REQUEST.id);
  });

  it('makes no read call when nothing is unread', async () => {
    vi.mocked(fetchConsoleRequest).mockResolvedValue(OPEN_REQUEST);
    expect(await fetchAndMarkRead(OPEN_REQUEST.id)).toBe(OPEN_REQUEST);
    expect(markRequestRead).not.toHaveBeenCalled();
  });

  it('still shows the request when the read marker fails, and reports the failure', async () => {
    const failure = serverRefusal(500, 'An unexpected error occurred');
    vi.mocked(fetchConsoleRequest).mockResolvedValue({ ...OPEN_REQUEST, unread_count: 1 });
    vi.mocked(markRequestRead).mockRejectedValue(failure);
    expect(await fetchAndMarkRead(OPEN_REQUEST.id)).toEqual({ ...OPEN_REQUEST, unread_count: 1 });
    expect(reportError).toHaveBeenCalledWith(failure, { component: 'ConsoleRequest', feature: 'console' });
  });
});

describe('sending', () => {
  it('sends a reply with its one file, and a note without any, each under its Idempotency-Key', async () => {
    const idempotencyKey = '6f1c2a0e-5b7d-4c1e-9a2b-3c4d5e6f7a8b';
    await send({ requestId: 4, composer: 'reply', text: '**Done**', attachmentKey: 'uploads/k/quote.pdf', idempotencyKey });
    expect(replyToRequest).toHaveBeenCalledWith(4, { bodyMarkdown: '**Done**', attachmentKey: 'uploads/k/quote.pdf' }, idempotencyKey);
    await send({ requestId: 4, composer: 'reply', text: 'No file', attachmentKey: null, idempotencyKey });
    expect(replyToRequest).toHaveBeenLastCalledWith(4, { bodyMarkdown: 'No file', attachmentKey: undefined }, idempotencyKey);
    await send({ requestId: 4, composer: 'note', text: 'Staff only', attachmentKey: 'uploads/k/quote.pdf', idempotencyKey });
    expect(addInternalNote).toHaveBeenCalledExactlyOnceWith(4, 'Staff only', idempotencyKey);
  });
});

describe('live news', () => {
  const known = OPEN_REQUEST.thread[0] as Extract<(typeof OPEN_REQUEST.thread)[number], { kind: 'message' }>;
  const cases: [string, LiveEvent, boolean][] = [
    ['a new employee message', { type: 'message.created', request_id: OPEN_REQUEST.id, message: wireMessage(employeeMessage(99, 'Hi', 9)) }, true],
    ['a message already shown (e.g. my own reply)', { type: 'message.created', request_id: OPEN_REQUEST.id, message: wireMessage(known) }, false],
    ['a message on another request', { type: 'message.created', request_id: 999, message: wireMessage(employeeMessage(99, 'Hi', 9)) }, false],
    ['a status change', { type: 'request.updated', request_id: OPEN_REQUEST.id, status: 'in_progress', updated_at: OPEN_REQUEST.updated_at }, true],
    ['the change already shown', { type: 'request.updated', request_id: OPEN_REQUEST.id, status: 'open', updated_at: OPEN_REQUEST.updated_at }, false],
    ['a note by a colleague', { type: 'note.created', request_id: OPEN_REQUEST.id, note_id: 5 }, true],
  ];
  it.each(cases)('%s', (_name, event, news) => {
    expect(isNewsFor(OPEN_REQUEST, event)).toBe(news);
  });

  it('is never news before the request has loaded', () => {
    expect(isNewsFor(null, cases[0][1])).toBe(false);
  });
});
