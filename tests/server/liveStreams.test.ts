import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DESCRIPTORS_BESIDE_STREAMS, liveStreamCapacity, openFilesLimit } from '../../server/openFiles.ts';
import { type LiveStream, LiveStreams, MAX_BUFFERED_BYTES, type StreamViewer } from '../../server/routes/liveStreams.ts';

/** What a stream uses of its response, recorded. */
class FakeResponse extends EventEmitter {
  writableLength = 0;
  written: string[] = [];
  endedBy: 'end' | 'destroy' | null = null;
  write(chunk: string) {
    this.written.push(chunk);
    return true;
  }
  end() {
    this.endedBy = 'end';
  }
  destroy() {
    this.endedBy = 'destroy';
  }
}

const HOUR = 3_600_000;
let nextSession = 1;
const viewer = (userId: number, { staff = false, expiresInMs = HOUR } = {}): StreamViewer => ({
  userId,
  staff,
  sessionId: nextSession++,
  sessionExpiresAt: new Date(Date.now() + expiresInMs),
});

function openOne(streams: LiveStreams, who: StreamViewer) {
  const response = new FakeResponse();
  return { stream: streams.open(who, response as unknown as ServerResponse), response };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('live streams at scale (issue 31 point 1)', () => {
  it('share one heartbeat timer, however many streams are open, and stop it when the last one ends', () => {
    vi.useFakeTimers();
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const beats: number[] = [];
    const streams = new LiveStreams(15_000, (open) => beats.push(open.length));
    const opened = Array.from({ length: 200 }, (_, index) => openOne(streams, viewer(index + 1)));
    expect(setIntervalSpy).toHaveBeenCalledTimes(1);

    vi.advanceTimersByTime(15_000);
    expect(beats).toEqual([200]);
    for (const { response } of opened) expect(response.written).toEqual([': heartbeat\n\n']);

    for (const { stream } of opened) stream.end();
    expect(streams.size).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(beats).toEqual([200]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('end each stream when its own session expires, with one timer for the soonest', () => {
    vi.useFakeTimers();
    const streams = new LiveStreams(15_000, () => {});
    const soon = openOne(streams, viewer(1, { expiresInMs: 1_000 }));
    const later = openOne(streams, viewer(2, { expiresInMs: 3_000 }));
    const muchLater = openOne(streams, viewer(3, { expiresInMs: HOUR }));

    vi.advanceTimersByTime(1_000);
    expect([soon, later, muchLater].map(({ response }) => response.endedBy)).toEqual(['end', null, null]);
    vi.advanceTimersByTime(2_000);
    expect([soon, later, muchLater].map(({ response }) => response.endedBy)).toEqual(['end', 'end', null]);
    expect(streams.size).toBe(1);
  });

  it('drop a client that stops reading once its buffer passes the bound, and keep writing to the others', () => {
    const streams = new LiveStreams(15_000, () => {});
    const stalled = openOne(streams, viewer(1));
    const reading = openOne(streams, viewer(2));
    const event = { type: 'note.created', request_id: 1, note_id: 1 } as const;

    stalled.response.writableLength = MAX_BUFFERED_BYTES;
    stalled.stream.send(event);
    expect(stalled.response.endedBy).toBeNull();
    stalled.response.writableLength = MAX_BUFFERED_BYTES + 1;
    stalled.stream.send(event);
    reading.stream.send(event);

    expect(stalled.response.endedBy).toBe('destroy');
    expect(stalled.response.written).toHaveLength(1);
    expect(reading.response.written).toHaveLength(1);
    expect(streams.list()).toEqual([reading.stream]);
  });

  it('offer a notice to staff and to the request’s owner only, and count each user’s streams', () => {
    const streams = new LiveStreams(15_000, () => {});
    const owner = viewer(10);
    const ownersTabs = [openOne(streams, owner), openOne(streams, { ...owner, sessionId: nextSession++ })];
    const someoneElse = openOne(streams, viewer(11));
    const concierge = openOne(streams, viewer(12, { staff: true }));

    const candidates = (notice: Parameters<LiveStreams['candidatesFor']>[0]) =>
      new Set<LiveStream>(streams.candidatesFor(notice));
    expect(candidates({ type: 'message.created', requestId: 1, ownerUserId: 10, messageId: 1 })).toEqual(
      new Set([...ownersTabs.map(({ stream }) => stream), concierge.stream]),
    );
    expect(candidates({ type: 'note.created', requestId: 1, noteId: 1 })).toEqual(new Set([concierge.stream]));
    expect(streams.openForUser(10)).toBe(2);
    someoneElse.stream.end();
    expect(streams.openForUser(11)).toBe(0);
    expect(streams.size).toBe(3);
  });
});

describe('open-files limit', () => {
  const limits = (soft: string, hard: string) =>
    `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                ${hard}                files\n`;

  it('is read from the soft limit, and leaves room beside the streams', () => {
    expect(openFilesLimit(limits('20000', '20000'))).toBe(20_000);
    expect(openFilesLimit(limits('unlimited', 'unlimited'))).toBe(Number.POSITIVE_INFINITY);
    expect(openFilesLimit('nothing here')).toBeNull();
    expect(liveStreamCapacity(20_000)).toBe(20_000 - DESCRIPTORS_BESIDE_STREAMS);
    expect(liveStreamCapacity(100)).toBe(0);
    expect(liveStreamCapacity(null)).toBe(Number.POSITIVE_INFINITY);
  });
});
