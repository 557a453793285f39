import { escapeHtml, plainTextToHtml } from '../contract/plainText.ts';
import { MESSAGE_BODY_MAX, MESSAGE_COUNTER_FROM, type Message, type Request, type RequestList } from '../contract/requests.ts';
import { isNetworkError } from './http.ts';
import { mergeRequestLists } from './requests.ts';

/**
 * The rules of the employee's Requests and Request screens (SPEC §2, §4 Request status and Message thread, §8), as
 * pure functions: what goes in which tab and section, how counts read, the thread's order and its synthetic first
 * message, how attachments are shown, and the upload error sentence.
 */

// ---------------------------------------------------------------------------------------------------------------
// Requests screen
// ---------------------------------------------------------------------------------------------------------------

/**
 * A request as the app holds it. The status is kept as the server sent it: a list call fills in a missing one
 * with its list's status (SPEC §4), and a value this app does not know stays as it is (requestStatusLabel shows it
 * as 'Unknown') rather than failing the whole list.
 */
export type ClientRequest = Omit<Request, 'status'> & { status: string };

/** What the three list calls answered (GET /api/v1/requests/open, /in_progress, /completed). */
export type RequestLists = Record<RequestList, ClientRequest[]>;

export interface RequestGroups {
  inProgress: ClientRequest[];
  inQueue: ClientRequest[];
  completed: ClientRequest[];
}

const SECTION_OF_STATUS: Record<string, keyof RequestGroups> = {
  in_progress: 'inProgress',
  open: 'inQueue',
  closed: 'completed',
};
const SECTION_OF_LIST: Record<RequestList, keyof RequestGroups> = {
  in_progress: 'inProgress',
  open: 'inQueue',
  completed: 'completed',
};

/**
 * The three lists merged, each request once, sorted by issued_at ascending (SPEC §4), then split by status. A
 * request whose status changed between two list calls can come back twice: its own status places it. A status this
 * app does not know (shown 'Unknown') stays with the list that returned it.
 */
export function groupRequests(lists: RequestLists): RequestGroups {
  const groups: RequestGroups = { inProgress: [], inQueue: [], completed: [] };
  const sectionOf = new Map<ClientRequest, keyof RequestGroups>();
  for (const list of ['in_progress', 'open', 'completed'] as const) {
    for (const request of lists[list]) sectionOf.set(request, SECTION_OF_STATUS[request.status] ?? SECTION_OF_LIST[list]);
  }
  const seen = new Set<number>();
  for (const request of mergeRequestLists(lists.in_progress, lists.open, lists.completed)) {
    if (seen.has(request.id)) continue;
    seen.add(request.id);
    groups[sectionOf.get(request) as keyof RequestGroups].push(request);
  }
  return groups;
}

/** SPEC §2 'n request(s) …': '1 request in queue', '2 requests in queue', '0 requests completed'. */
export function requestCount(count: number, what: 'in progress' | 'in queue' | 'completed'): string {
  return `${count} ${count === 1 ? 'request' : 'requests'} ${what}`;
}

/** SPEC §2 Requests strings. */
export const REQUESTS_TEXT = {
  toDoTab: (count: number) => `To do (${count})`,
  completedTab: (count: number) => `Completed (${count})`,
  noOpenRequests: 'No open requests',
  createRequest: 'Create a request',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Request screen: the thread
// ---------------------------------------------------------------------------------------------------------------

/** SPEC §4: the concierge's welcome that opens every thread of a request with details. */
export const SYNTHETIC_MESSAGE_ID = -1;
export const CONCIERGE_NAME = 'Life Concierge';
export const SYNTHETIC_MESSAGE_TEXT =
  "Thanks! We've received your request, and your concierge will be in contact with you soon. Here are the details you gave us:";
export const NO_MESSAGES = 'No messages yet';


/** The welcome message: it is rendered like any other, so its text is escaped here (the details are the user's). */
export function syntheticMessage(request: Pick<ClientRequest, 'details' | 'created_at'>): Message {
  const detailLines = (request.details ?? '').split('\n').map(escapeHtml).join('<br>');
  return {
    id: SYNTHETIC_MESSAGE_ID,
    body_html: `<p>${escapeHtml(SYNTHETIC_MESSAGE_TEXT)}</p><p>${detailLines}</p>`,
    source: 'life_concierge',
    source_name: CONCIERGE_NAME,
    external_created_at: request.created_at,
    attachment_keys: [],
  };
}

/** SPEC §4: by creation time ascending; messages of the same instant keep the server's order (by id). */
export function sortMessages(messages: readonly Message[]): Message[] {
  return [...messages].sort(
    (a, b) => Date.parse(a.external_created_at) - Date.parse(b.external_created_at) || a.id - b.id,
  );
}

/**
 * What the thread shows: the synthetic welcome first when the request has details (once the thread's start is loaded:
 * issue 31), then the messages in order.
 */
export function threadMessages(request: Pick<ClientRequest, 'details' | 'created_at' | 'messages' | 'has_older_messages'>): Message[] {
  const hasDetails = (request.details ?? '').trim() !== '' && !request.has_older_messages;
  return [...(hasDetails ? [syntheticMessage(request)] : []), ...sortMessages(request.messages)];
}

/** The oldest message loaded (issue 31): older ones are asked for before it. */
export function oldestMessageId(request: Pick<ClientRequest, 'messages'>): number | null {
  return sortMessages(request.messages)[0]?.id ?? null;
}

/** A page of older messages (issue 31) joins the thread before what it holds; a message known already is kept once. */
export function withOlderMessages(request: ClientRequest, page: { messages: Message[]; has_older_messages: boolean }): ClientRequest {
  const known = new Set(request.messages.map((message) => message.id));
  return {
    ...request,
    messages: [...page.messages.filter((message) => !known.has(message.id)), ...request.messages],
    has_older_messages: page.has_older_messages,
  };
}

/** How one of my messages went: on its way, not sent, sent, or read by a concierge. */
export type Delivery = 'sending' | 'failed' | 'sent' | 'seen';

export const DELIVERY_TEXT: Record<Delivery, string> = {
  sending: 'Sending…',
  failed: 'Not sent',
  sent: 'Sent',
  seen: 'Seen',
};

/**
 * The stored message of mine that tells how my messages went, as messengers do: the last one, 'Seen' once a
 * concierge has read the thread up to it, else 'Sent'. Null when I have written nothing.
 */
export function lastOwnDelivery(
  request: Pick<ClientRequest, 'messages' | 'seen_by_staff_message_id'>,
): { messageId: number; delivery: 'sent' | 'seen' } | null {
  const mine = sortMessages(request.messages).filter((message) => message.source === 'user').at(-1);
  if (!mine) return null;
  const seenUpTo = request.seen_by_staff_message_id ?? null;
  return { messageId: mine.id, delivery: seenUpTo !== null && seenUpTo >= mine.id ? 'seen' : 'sent' };
}

/** The id of the message on its way, which the server has not numbered yet. */
export const OUTGOING_MESSAGE_ID = -2;

/** A message on its way (or not sent) as of `now`, shown as the server will show it once stored. */
export function outgoingAsMessage(outgoing: { body: string; attachmentKey: string | null }, authorName: string, now: Date): Message {
  return {
    id: OUTGOING_MESSAGE_ID,
    body_html: plainTextToHtml(outgoing.body),
    source: 'user',
    source_name: authorName,
    external_created_at: now.toISOString(),
    attachment_keys: outgoing.attachmentKey ? [outgoing.attachmentKey] : [],
  };
}

/**
 * Whether the thread already holds the message on its way: the live stream can bring it before the post's answer
 * does, and it must not show twice.
 */
export function isDelivered(
  outgoing: { body: string; attachmentKey: string | null; afterMessageId: number },
  request: Pick<ClientRequest, 'messages'>,
): boolean {
  const bodyHtml = plainTextToHtml(outgoing.body);
  const keys = outgoing.attachmentKey ? [outgoing.attachmentKey] : [];
  return request.messages.some(
    (message) =>
      message.source === 'user' && message.id > outgoing.afterMessageId && message.body_html === bodyHtml &&
      message.attachment_keys.join('\n') === keys.join('\n'),
  );
}

/** SPEC §9: what is left of the message's length, once the limit is near (null before that). */
export function charactersLeft(draft: string): number | null {
  const length = draft.trim().length;
  return length >= MESSAGE_COUNTER_FROM ? MESSAGE_BODY_MAX - length : null;
}

/** The counter's words: what is left, or how far over the limit the text is. */
export function charactersLeftText(left: number): string {
  if (left >= 0) return `${left} ${left === 1 ? 'character' : 'characters'} left`;
  const over = -left;
  return `${over} ${over === 1 ? 'character' : 'characters'} over the limit`;
}

/** A message that arrived live joins the thread once, however often it is delivered (stream and refetch). */
export function withMessage(request: ClientRequest, message: Message): ClientRequest {
  if (request.messages.some((known) => known.id === message.id)) return request;
  return { ...request, messages: [...request.messages, message] };
}

/**
 * A request as fetched, keeping the messages already shown that it lacks: a live message can arrive while a fetch
 * answered before it was written is on its way, and must not vanish when that answer lands; and the older pages
 * loaded already (issue 31), the fetch answering only the newest page of a long thread.
 */
export function withShownMessages(fetched: ClientRequest, shown: ClientRequest | null): ClientRequest {
  const merged = (shown?.messages ?? []).reduce(withMessage, fetched);
  return fetched.has_older_messages && shown && !shown.has_older_messages ? { ...merged, has_older_messages: false } : merged;
}

/**
 * SPEC §3 initials: the first letters of the first and last words, upper-cased ('Ada King Lovelace' -> 'AL',
 * 'Sam' -> 'S').
 */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const first = words[0] as string;
  const last = words.length > 1 ? (words.at(-1) as string) : '';
  return `${first.charAt(0)}${last.charAt(0)}`.toUpperCase();
}

// ---------------------------------------------------------------------------------------------------------------
// Attachments and upload errors
// ---------------------------------------------------------------------------------------------------------------

/** Upload keys keep the file's extension (server/domain/uploads/uploads.ts newUploadKey); it decides how a file is shown. */
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'heic', 'heif', 'avif']);

export type AttachmentKind = 'image' | 'pdf' | 'file';

export function attachmentKind(key: string): AttachmentKind {
  const extension = /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? '';
  if (extension === 'pdf') return 'pdf';
  return IMAGE_EXTENSIONS.has(extension) ? 'image' : 'file';
}

/** SPEC §2 Attachment route: the key, URL-encoded, as one path segment. */
export function attachmentHref(key: string): string {
  return `/attachments/${encodeURIComponent(key)}`;
}

/** SPEC §8 message file upload error. */
export function uploadErrorMessage(reason: string): string {
  return `There was an error uploading your file: ${reason}. We have been notified of the error, but you are welcome to try again.`;
}

/** The reason of an upload answered outside 200-299: the server's error when it gave one, else the status. */
export function uploadHttpFailureReason(details: { status: number; statusText: string; responseText: string }): string {
  try {
    const parsed: unknown = JSON.parse(details.responseText);
    if (parsed && typeof parsed === 'object' && 'error' in parsed && typeof parsed.error === 'string' && parsed.error) {
      return stripFinalPeriod(parsed.error);
    }
  } catch {
    // Not JSON (an object store's XML, an HTML error page): the status says enough.
  }
  return `HTTP ${details.status}${details.statusText ? ` ${details.statusText}` : ''}`;
}

/** The reason of an upload that got no answer at all (or failed otherwise, e.g. an answer the app cannot read). */
export function uploadNetworkFailureReason(error: unknown): string {
  if (isNetworkError(error) || !(error instanceof Error) || !error.message) return 'The upload could not reach the server';
  return stripFinalPeriod(error.message);
}

/** The sentence goes on with '. We have been notified…': a reason's own full stop would double it. */
function stripFinalPeriod(text: string): string {
  return text.replace(/\.+\s*$/, '');
}
