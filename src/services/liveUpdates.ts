import { LIVE_EVENT_TYPES, type LiveEvent, eventTicketResponse, liveEvent } from '../contract/events.ts';
import { readConfig } from './config.ts';
import { api } from './http.ts';

/**
 * Live updates for the thread and the console (src/contract/events.ts describes the server side).
 *
 * subscribeToLiveUpdates asks for a single-use ticket, opens an EventSource with it and passes each event on. When
 * the stream fails (server restart, network loss, sign-out), it closes it (the browser's own retry would reuse a
 * spent ticket), falls back to polling, and reconnects with a fresh ticket after a backoff: about 1 s, then 2, 4,
 * 8, 16 and at most 30 s, with jitter so that many clients do not return at once. Every time a stream opens, the
 * poll hook runs once, to pick up whatever happened while no stream was open.
 */

export type LiveUpdatesStatus = 'connecting' | 'live' | 'polling';

export interface LiveUpdatesOptions {
  /**
   * Refetch what the screen shows. Called every `pollIntervalMs` while no stream is open, and once each time a
   * stream opens.
   */
  onPoll?: () => void;
  pollIntervalMs?: number;
  onStatusChange?: (status: LiveUpdatesStatus) => void;
  /** Replaceable in tests; default: POST /api/v1/events/ticket. */
  requestTicket?: () => Promise<string>;
  /** Replaceable in tests; default: the browser's EventSource (polling only where there is none). */
  createEventSource?: ((url: string) => EventSource) | null;
}

export const DEFAULT_POLL_INTERVAL_MS = 5_000;
export const FIRST_RECONNECT_DELAY_MS = 1_000;
export const MAX_RECONNECT_DELAY_MS = 30_000;

/** The wait before reconnect attempt `attempt` (0-based): doubling from 1 s up to 30 s, each between 50 and 100%. */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(FIRST_RECONNECT_DELAY_MS * 2 ** attempt, MAX_RECONNECT_DELAY_MS);
  return Math.round(ceiling * (0.5 + random() / 2));
}

async function requestTicketFromServer(): Promise<string> {
  const client = await api();
  return (await client.post('events/ticket').json(eventTicketResponse)).ticket;
}

function browserEventSource(): ((url: string) => EventSource) | null {
  return typeof EventSource === 'undefined' ? null : (url) => new EventSource(url);
}

function streamUrl(ticket: string): string {
  return `${readConfig().apiBaseUrl}/api/v1/events?ticket=${encodeURIComponent(ticket)}`;
}

/** Starts receiving live events; returns the unsubscribe, which closes the stream and stops every timer. */
export function subscribeToLiveUpdates(onEvent: (event: LiveEvent) => void, options: LiveUpdatesOptions = {}): () => void {
  const {
    onPoll,
    pollIntervalMs = DEFAULT_POLL_INTERVAL_MS,
    onStatusChange,
    requestTicket = requestTicketFromServer,
    createEventSource = browserEventSource(),
  } = options;
  let stopped = false;
  let source: EventSource | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let pollTimer: ReturnType<typeof setInterval> | undefined;
  let failedAttempts = 0;
  let polling = false;

  const startPolling = () => {
    if (polling) return;
    polling = true;
    onStatusChange?.('polling');
    if (onPoll) pollTimer = setInterval(onPoll, pollIntervalMs);
  };
  const stopPolling = () => {
    polling = false;
    clearInterval(pollTimer);
  };

  const scheduleReconnect = () => {
    if (stopped || !createEventSource) return;
    reconnectTimer = setTimeout(() => void connect(), reconnectDelayMs(failedAttempts));
    failedAttempts += 1;
  };

  const fail = () => {
    source?.close();
    source = null;
    if (stopped) return;
    startPolling();
    scheduleReconnect();
  };

  const receive = (message: MessageEvent<string>) => {
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    const parsed = liveEvent.safeParse(data);
    if (parsed.success) onEvent(parsed.data);
  };

  async function connect() {
    if (!createEventSource) return;
    onStatusChange?.('connecting');
    let ticket: string;
    try {
      ticket = await requestTicket();
    } catch {
      fail();
      return;
    }
    if (stopped) return;
    const opened = createEventSource(streamUrl(ticket));
    source = opened;
    opened.onopen = () => {
      failedAttempts = 0;
      stopPolling();
      onStatusChange?.('live');
      onPoll?.();
    };
    opened.onerror = () => {
      if (source === opened) fail();
    };
    for (const type of LIVE_EVENT_TYPES) opened.addEventListener(type, receive);
  }

  if (createEventSource) void connect();
  else startPolling();

  return () => {
    stopped = true;
    clearTimeout(reconnectTimer);
    stopPolling();
    source?.close();
    source = null;
  };
}
