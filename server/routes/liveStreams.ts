import type { ServerResponse } from 'node:http';
import type { LiveEvent } from '../../src/contract/events.ts';
import type { CurrentViewer, RealtimeNotice } from '../domain/realtime/realtime.ts';

/**
 * Bytes a stream may have waiting for its client. A client that stops reading (a stalled tab, a dead phone
 * network) is dropped past it, so that it holds neither memory nor the others' delivery.
 */
export const MAX_BUFFERED_BYTES = 64 * 1024;

/** setTimeout's longest delay; sessions are far shorter, this only keeps an odd expiry from firing at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type StreamViewer = CurrentViewer & { sessionId: number };

/**
 * One open text/event-stream. A class rather than closures: at tens of thousands of streams a process keeps only
 * these fields per stream, and the shared timers of LiveStreams do the rest.
 */
export class LiveStream {
  readonly viewer: StreamViewer;
  private readonly response: ServerResponse;
  private readonly registry: LiveStreams;
  private nextEventId = 1;
  private ended = false;

  constructor(viewer: StreamViewer, response: ServerResponse, registry: LiveStreams) {
    this.viewer = viewer;
    this.response = response;
    this.registry = registry;
  }

  send(event: LiveEvent) {
    // JSON has no raw line breaks: the event fits one data line.
    this.write(`id: ${this.nextEventId++}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  }

  /** A comment line: EventSource ignores it, proxies and the client's own timeout see traffic. */
  comment(text: string) {
    this.write(`: ${text}\n\n`);
  }

  end() {
    if (this.ended) return;
    this.ended = true;
    this.registry.delete(this);
    // A client that is not reading would hold a graceful end open as long as the rest: it is cut off.
    if (this.response.writableLength > MAX_BUFFERED_BYTES) this.response.destroy();
    else this.response.end();
  }

  private write(chunk: string) {
    if (this.ended) return;
    if (this.response.writableLength > MAX_BUFFERED_BYTES) {
      this.end();
      return;
    }
    this.response.write(chunk);
  }
}

/**
 * The streams open in this process, indexed so that each notice costs the streams it concerns only: those of the
 * request's owner and of staff. One heartbeat timer and one session-expiry timer serve them all, running only while
 * a stream is open.
 */
export class LiveStreams {
  private readonly byUser = new Map<number, Set<LiveStream>>();
  private readonly staff = new Set<LiveStream>();
  private count = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private expiry: { timer: NodeJS.Timeout; at: number } | undefined;
  private readonly heartbeatMs: number;
  private readonly onHeartbeat: (streams: LiveStream[]) => void;

  /** `onHeartbeat` is called on every heartbeat with every open stream, after their heartbeat comment was written. */
  constructor(heartbeatMs: number, onHeartbeat: (streams: LiveStream[]) => void) {
    this.heartbeatMs = heartbeatMs;
    this.onHeartbeat = onHeartbeat;
  }

  get size() {
    return this.count;
  }

  open(viewer: StreamViewer, response: ServerResponse): LiveStream {
    const stream = new LiveStream(viewer, response, this);
    let ofUser = this.byUser.get(viewer.userId);
    if (!ofUser) this.byUser.set(viewer.userId, (ofUser = new Set()));
    ofUser.add(stream);
    if (viewer.staff) this.staff.add(stream);
    this.count += 1;
    this.heartbeat ??= setInterval(() => this.beat(), this.heartbeatMs);
    this.expireBy(viewer.sessionExpiresAt.getTime());
    return stream;
  }

  /** Called by the stream as it ends. */
  delete(stream: LiveStream) {
    const ofUser = this.byUser.get(stream.viewer.userId);
    if (!ofUser?.delete(stream)) return;
    if (ofUser.size === 0) this.byUser.delete(stream.viewer.userId);
    this.staff.delete(stream);
    this.count -= 1;
    if (this.count === 0) this.stopTimers();
  }

  openForUser(userId: number): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** Every open stream, or those of one user. */
  list(userId: number | null = null): LiveStream[] {
    if (userId !== null) return [...(this.byUser.get(userId) ?? [])];
    return [...this.byUser.values()].flatMap((ofUser) => [...ofUser]);
  }

  /** The streams that may be concerned by an event notice: staff, and the owner of the request it is about. */
  candidatesFor(notice: RealtimeNotice): LiveStream[] {
    const owner = 'ownerUserId' in notice ? this.byUser.get(notice.ownerUserId) : undefined;
    const candidates = [...this.staff];
    for (const stream of owner ?? []) if (!stream.viewer.staff) candidates.push(stream);
    return candidates;
  }

  endAll() {
    for (const stream of this.list()) stream.end();
    this.stopTimers();
  }

  private beat() {
    const streams = this.list();
    for (const stream of streams) stream.comment('heartbeat');
    this.onHeartbeat(streams);
  }

  /** Makes sure the expiry timer fires by `at`: a session's stream does not outlive it. */
  private expireBy(at: number) {
    if (this.expiry && this.expiry.at <= at) return;
    if (this.expiry) clearTimeout(this.expiry.timer);
    const timer = setTimeout(() => this.endExpired(), Math.min(Math.max(at - Date.now(), 0), MAX_TIMER_MS));
    this.expiry = { timer, at };
  }

  private endExpired() {
    this.expiry = undefined;
    const now = Date.now();
    let soonest = Infinity;
    for (const stream of this.list()) {
      const at = stream.viewer.sessionExpiresAt.getTime();
      if (at <= now) stream.end();
      else soonest = Math.min(soonest, at);
    }
    if (soonest !== Infinity) this.expireBy(soonest);
  }

  private stopTimers() {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (this.expiry) clearTimeout(this.expiry.timer);
    this.expiry = undefined;
  }
}
