import { describe, expect, it } from 'vitest';
import { type Message, requestStatusLabel } from '../../src/contract/requests.ts';
import type { ClientRequest } from '../../src/services/threadRules.ts';
import {
  SYNTHETIC_MESSAGE_ID,
  SYNTHETIC_MESSAGE_TEXT,
  attachmentHref,
  attachmentKind,
  charactersLeft,
  charactersLeftText,
  groupRequests,
  isDelivered,
  lastOwnDelivery,
  initialsOf,
  requestCount,
  sortMessages,
  syntheticMessage,
  threadMessages,
  uploadErrorMessage,
  uploadHttpFailureReason,
  uploadNetworkFailureReason,
  withMessage,
  withShownMessages,
} from '../../src/services/threadRules.ts';
import { refusalInWords } from '../../src/services/http.ts';
import { networkError, serverRefusal } from '../machines/httpFailures.support.ts';

function request(id: number, status: string, issuedAt: string, extra: Partial<ClientRequest> = {}): ClientRequest {
  return {
    id,
    external_id: `R-${id}`,
    name: `Request ${id}`,
    status,
    issued_at: issuedAt,
    created_at: issuedAt,
    details: null,
    survey_category_name: 'Car',
    survey_category_image_url: null,
    messages: [],
    ...extra,
  };
}

function message(id: number, at: string, extra: Partial<Message> = {}): Message {
  return {
    id,
    body_html: `<p>Message ${id}</p>`,
    source: 'user',
    source_name: 'Ada Lovelace',
    external_created_at: at,
    attachment_keys: [],
    ...extra,
  };
}

const ids = (requests: { id: number }[]) => requests.map((item) => item.id);

describe('request status labels (SPEC §4)', () => {
  it.each([
    ['open', 'In Queue'],
    ['in_progress', 'In Progress'],
    ['closed', 'Completed'],
    ['archived', 'Unknown'],
    ['', 'Unknown'],
    ['toString', 'Unknown'],
  ])('%s reads %s', (status, label) => {
    expect(requestStatusLabel(status)).toBe(label);
  });
});

describe('request counts (SPEC §2)', () => {
  it('says "request" for one and "requests" otherwise', () => {
    expect(requestCount(1, 'in progress')).toBe('1 request in progress');
    expect(requestCount(2, 'in progress')).toBe('2 requests in progress');
    expect(requestCount(1, 'in queue')).toBe('1 request in queue');
    expect(requestCount(3, 'in queue')).toBe('3 requests in queue');
    expect(requestCount(1, 'completed')).toBe('1 request completed');
    expect(requestCount(0, 'completed')).toBe('0 requests completed');
  });
});

describe('grouping the three request lists', () => {
  it('sorts every section by issued_at ascending, whatever order the lists came in', () => {
    const groups = groupRequests({
      open: [request(1, 'open', '2025-03-05T10:00:00Z'), request(2, 'open', '2025-03-01T10:00:00Z')],
      in_progress: [request(3, 'in_progress', '2025-03-04T10:00:00Z'), request(4, 'in_progress', '2025-02-01T10:00:00Z')],
      completed: [request(5, 'closed', '2025-03-09T00:00:00Z'), request(6, 'closed', '2024-12-31T23:59:59Z')],
    });
    expect(ids(groups.inQueue)).toEqual([2, 1]);
    expect(ids(groups.inProgress)).toEqual([4, 3]);
    expect(ids(groups.completed)).toEqual([6, 5]);
  });

  it("keeps a status it does not know with the list that returned it", () => {
    const groups = groupRequests({
      open: [request(1, 'archived', '2025-03-01T00:00:00Z')],
      in_progress: [],
      completed: [request(2, 'on_hold', '2025-03-02T00:00:00Z')],
    });
    expect(ids(groups.inQueue)).toEqual([1]);
    expect(ids(groups.completed)).toEqual([2]);
  });

  it('shows a request returned by two lists once, where its own status puts it', () => {
    // It was closed between the in-progress call and the completed call.
    const groups = groupRequests({
      open: [],
      in_progress: [request(7, 'in_progress', '2025-03-01T00:00:00Z')],
      completed: [request(7, 'closed', '2025-03-01T00:00:00Z')],
    });
    expect(ids(groups.inProgress)).toEqual([7]);
    expect(groups.completed).toEqual([]);
  });
});

describe('the thread (SPEC §4 Message thread)', () => {
  const details = 'Make and model: Volvo <XC40>\nWhen: next week';

  it('sorts messages by creation time ascending, ties by id', () => {
    const sorted = sortMessages([
      message(3, '2025-03-02T10:00:00Z'),
      message(1, '2025-03-02T09:00:00Z'),
      message(4, '2025-03-01T10:00:00Z'),
      message(2, '2025-03-02T09:00:00Z'),
    ]);
    expect(ids(sorted)).toEqual([4, 1, 2, 3]);
  });

  it('opens with the synthetic concierge message (id -1) when the request has details', () => {
    const thread = threadMessages(request(1, 'open', '2025-03-01T00:00:00Z', {
      details,
      created_at: '2025-03-01T00:00:01Z',
      messages: [message(9, '2025-03-03T00:00:00Z'), message(8, '2025-03-02T00:00:00Z')],
    }));
    expect(ids(thread)).toEqual([SYNTHETIC_MESSAGE_ID, 8, 9]);
    const [welcome] = thread;
    expect(welcome).toMatchObject({ source: 'life_concierge', external_created_at: '2025-03-01T00:00:01Z', attachment_keys: [] });
  });

  it('has no synthetic message without details', () => {
    expect(threadMessages(request(1, 'open', '2025-03-01T00:00:00Z', { details: null }))).toEqual([]);
    expect(threadMessages(request(1, 'open', '2025-03-01T00:00:00Z', { details: '  ' }))).toEqual([]);
  });

  it('says the request was received, then shows the details, escaped, one line each', () => {
    const html = syntheticMessage({ details, created_at: '2025-03-01T00:00:00Z' }).body_html;
    const shown = document.createElement('div');
    shown.innerHTML = html;
    expect(shown.querySelectorAll('p')[0]?.textContent).toBe(SYNTHETIC_MESSAGE_TEXT);
    expect(SYNTHETIC_MESSAGE_TEXT).toMatch(/received your request.*in contact with you soon/);
    expect(shown.querySelectorAll('p')[1]?.innerHTML).toBe('Make and model: Volvo &lt;XC40&gt;<br>When: next week');
    expect(shown.querySelector('xc40')).toBeNull();
  });

  it('takes a live message in once, however often it is delivered', () => {
    const original = request(1, 'open', '2025-03-01T00:00:00Z', { messages: [message(1, '2025-03-01T00:00:00Z')] });
    const once = withMessage(original, message(2, '2025-03-02T00:00:00Z'));
    expect(ids(once.messages)).toEqual([1, 2]);
    expect(withMessage(once, message(2, '2025-03-02T00:00:00Z'))).toBe(once);
  });

  it('keeps a live message that a fetch answered before it lacks, and nothing twice', () => {
    const shown = request(1, 'open', '2025-03-01T00:00:00Z', { messages: [message(1, '2025-03-01T00:00:00Z'), message(3, '2025-03-03T00:00:00Z')] });
    const fetched = request(1, 'in_progress', '2025-03-01T00:00:00Z', { messages: [message(1, '2025-03-01T00:00:00Z'), message(2, '2025-03-02T00:00:00Z')] });
    const merged = withShownMessages(fetched, shown);
    expect(ids(merged.messages)).toEqual([1, 2, 3]);
    expect(merged.status).toBe('in_progress');
    expect(withShownMessages(fetched, null)).toBe(fetched);
  });

  it('makes initials of the first and last words', () => {
    expect(initialsOf('Ada King Lovelace')).toBe('AL');
    expect(initialsOf('sam')).toBe('S');
    expect(initialsOf('  ')).toBe('');
  });
});

describe('attachments', () => {
  it('previews images, links PDFs, and links anything else', () => {
    expect(attachmentKind('0f3a.png')).toBe('image');
    expect(attachmentKind('0f3a.JPEG')).toBe('image');
    expect(attachmentKind('0f3a.heic')).toBe('image');
    expect(attachmentKind('0f3a.pdf')).toBe('pdf');
    expect(attachmentKind('0f3a')).toBe('file');
  });

  it('opens each through the Attachment route with the key encoded', () => {
    expect(attachmentHref('uploads/a b.pdf')).toBe('/attachments/uploads%2Fa%20b.pdf');
  });
});

describe('the message file upload error (SPEC §8)', () => {
  it('puts the reason inside the sentence', () => {
    expect(uploadErrorMessage('HTTP 500 Internal Server Error')).toBe(
      'There was an error uploading your file: HTTP 500 Internal Server Error. We have been notified of the error, but you are welcome to try again.',
    );
  });

  it("takes the server's error as the reason, without a second full stop", () => {
    expect(uploadHttpFailureReason({ status: 415, statusText: 'Unsupported Media Type', responseText: '{"error":"Only images or PDFs are allowed."}' }))
      .toBe('Only images or PDFs are allowed');
    expect(uploadHttpFailureReason({ status: 403, statusText: 'Forbidden', responseText: '<Error>SignatureDoesNotMatch</Error>' }))
      .toBe('HTTP 403 Forbidden');
    expect(uploadHttpFailureReason({ status: 502, statusText: '', responseText: '' })).toBe('HTTP 502');
  });

  it('names a failure without an answer, and any other by its message', () => {
    expect(uploadNetworkFailureReason(networkError())).toBe('The upload could not reach the server');
    expect(uploadNetworkFailureReason('offline')).toBe('The upload could not reach the server');
    expect(uploadNetworkFailureReason(new Error('Response schema validation failed.'))).toBe('Response schema validation failed');
  });
});

describe('the thread as a messenger (issue 32 point 2)', () => {
  const mine = (id: number, body: string, keys: string[] = []): Message => ({
    id,
    body_html: body ? `<p>${body}</p>` : '',
    source: 'user',
    source_name: 'Tess Thread',
    external_created_at: `2025-03-01T09:${String(id).padStart(2, '0')}:00.000Z`,
    attachment_keys: keys,
  });
  const reply: Message = { ...mine(15, 'On it'), source: 'life_concierge', source_name: 'Casey' };

  it('says Sent under my last message, and Seen once staff have read up to it', () => {
    const thread = { messages: [mine(10, 'One'), mine(12, 'Two'), reply] };
    expect(lastOwnDelivery({ ...thread, seen_by_staff_message_id: null })).toEqual({ messageId: 12, delivery: 'sent' });
    expect(lastOwnDelivery({ ...thread, seen_by_staff_message_id: 11 })).toEqual({ messageId: 12, delivery: 'sent' });
    expect(lastOwnDelivery({ ...thread, seen_by_staff_message_id: 15 })).toEqual({ messageId: 12, delivery: 'seen' });
    expect(lastOwnDelivery({ messages: [reply] })).toBeNull();
  });

  it('knows the message on its way once the thread holds it, and not an older one with the same words', () => {
    const outgoing = { body: 'ok <b>', attachmentKey: 'a1.png', afterMessageId: 12 };
    const same = { ...mine(13, 'ok &lt;b&gt;', ['a1.png']) };
    expect(isDelivered(outgoing, { messages: [mine(12, 'ok &lt;b&gt;', ['a1.png'])] })).toBe(false);
    expect(isDelivered(outgoing, { messages: [{ ...same, attachment_keys: [] }] })).toBe(false);
    expect(isDelivered(outgoing, { messages: [same] })).toBe(true);
    expect(isDelivered(outgoing, { messages: [{ ...same, source: 'life_concierge' }] })).toBe(false);
  });

  it('counts the characters left from 9,000 on, and how far over the limit', () => {
    expect(charactersLeft('x'.repeat(8_999))).toBeNull();
    expect(charactersLeft('x'.repeat(9_000))).toBe(1_000);
    expect(charactersLeft('x'.repeat(10_002))).toBe(-2);
    expect(charactersLeftText(1)).toBe('1 character left');
    expect(charactersLeftText(500)).toBe('500 characters left');
    expect(charactersLeftText(-1)).toBe('1 character over the limit');
    expect(charactersLeftText(-2)).toBe('2 characters over the limit');
  });

  it('words a refusal without the path of its field', () => {
    const refusal = serverRefusal(422, 'message.body: Please keep your message under 10000 characters.', {
      'message.body': 'Please keep your message under 10000 characters.',
    });
    expect(refusalInWords(refusal)).toBe('Please keep your message under 10000 characters.');
    expect(refusalInWords(serverRefusal(404, 'Request not found'))).toBe('Request not found');
    expect(refusalInWords(networkError())).toBe('We could not reach the server. Check your connection and try again.');
  });
});
