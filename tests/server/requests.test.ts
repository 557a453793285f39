import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { requests, uploads } from '../../server/db/schema.ts';
import { MESSAGE_ERRORS, requestResponse, requestsResponse } from '../../src/contract/requests.ts';
import { suiteContext } from './harness.ts';
import { errorOf, outboxTo } from './helpers.ts';
import {
  type Person,
  createPerson,
  createRequest,
  employeeMessage,
  expiringUrl,
  get,
  post,
  uploadFile,
} from './requests.helpers.ts';

const context = suiteContext();

function postMessage(person: Person | null, requestId: number, payload: object) {
  return post(context, person, `/api/v1/requests/${requestId}/messages`, payload);
}

describe('the request lists and a request (SPEC §7)', () => {
  it('lists only the caller’s requests, each list holding its status, oldest issued first', async () => {
    const owner = await createPerson(context);
    const stranger = await createPerson(context);
    const later = await createRequest(context, owner, { name: 'Plan a trip', issuedAt: new Date('2030-01-02T00:00:00Z') });
    const earlier = await createRequest(context, owner, { name: 'Book a vet', issuedAt: new Date('2030-01-01T00:00:00Z') });
    const working = await createRequest(context, owner, { name: 'Renew a passport', status: 'in_progress' });
    const done = await createRequest(context, owner, { name: 'Buy a car', status: 'closed' });
    await createRequest(context, stranger, { name: 'Someone else’s' });

    const lists = await Promise.all(['open', 'in_progress', 'completed'].map((list) => get(context, owner, `/api/v1/requests/${list}`)));
    const [open, inProgress, completed] = lists.map((response) => {
      expect(response.statusCode).toBe(200);
      return requestsResponse.parse(response.json());
    });
    expect(open.success).toBe(true);
    expect(open.requests.map((request) => request.id)).toEqual([earlier, later]);
    expect(inProgress.requests.map((request) => [request.id, request.status])).toEqual([[working, 'in_progress']]);
    expect(completed.requests.map((request) => [request.id, request.status])).toEqual([[done, 'closed']]);
  });

  it('gives the owner the request with the SPEC §3 fields, and nobody else', async () => {
    const owner = await createPerson(context);
    const stranger = await createPerson(context);
    const requestId = await createRequest(context, owner, { details: 'Breed: Beagle' });

    const mine = await get(context, owner, `/api/v1/requests/${requestId}`);
    expect(mine.statusCode).toBe(200);
    const { success, request } = requestResponse.parse(mine.json());
    expect(success).toBe(true);
    expect(Object.keys(request).sort()).toEqual(
      [
        'id', 'name', 'status', 'issued_at', 'details', 'created_at', 'external_id', 'messages',
        'survey_category_image_url', 'survey_category_name', 'seen_by_staff_message_id',
        // Beyond SPEC (issue 32, docs/spec-differences.md).
        'unread_count', 'last_message',
        // Beyond SPEC (issue 28): the turnaround promised, in plain words; null for a request filed without one.
        'service_promise',
        // Beyond SPEC (issue 31): whether a long thread has older messages than the page answered.
        'has_older_messages',
      ].sort(),
    );
    expect(request).toMatchObject({
      id: requestId,
      status: 'open',
      details: 'Breed: Beagle',
      messages: [],
      seen_by_staff_message_id: null,
      unread_count: 0,
      last_message: null,
      has_older_messages: false,
    });

    const theirs = await get(context, stranger, `/api/v1/requests/${requestId}`);
    expect(theirs.statusCode).toBe(404);
    expect(errorOf(theirs)).toBe('Request not found');
    expect((await get(context, owner, '/api/v1/requests/999999')).statusCode).toBe(404);
    expect((await get(context, null, `/api/v1/requests/${requestId}`)).statusCode).toBe(401);
  });
});

describe('an employee writes in the thread', () => {
  it('answers 201 with the request and its thread; the text is escaped, never markup', async () => {
    const owner = await createPerson(context, 'employee', { firstName: 'Ada', lastName: 'Lovelace' });
    const requestId = await createRequest(context, owner);

    const response = await postMessage(owner, requestId, employeeMessage('Hello <script>alert(1)</script>\nsecond line\n\nNew & improved'));
    expect(response.statusCode, response.body).toBe(201);
    const { success, request } = requestResponse.parse(response.json());
    expect(success).toBe(true);
    expect(request.messages).toHaveLength(1);
    const [message] = request.messages;
    expect(message.body_html).toBe('<p>Hello &lt;script&gt;alert(1)&lt;/script&gt;<br>second line</p><p>New &amp; improved</p>');
    // The author is named by the account, whatever the client put in source_name.
    expect(message).toMatchObject({ source: 'user', source_name: 'Ada Lovelace', attachment_keys: [] });
    expect(Number.isNaN(Date.parse(message.external_created_at))).toBe(false);

    // The thread is sorted by creation time.
    await postMessage(owner, requestId, employeeMessage('And another thing'));
    const thread = requestResponse.parse((await get(context, owner, `/api/v1/requests/${requestId}`)).json()).request.messages;
    expect(thread.map((entry) => entry.body_html)).toEqual([message.body_html, '<p>And another thing</p>']);
  });

  it('refuses blank text without a file, more than one file, and a source other than the user', async () => {
    const owner = await createPerson(context);
    const requestId = await createRequest(context, owner);

    for (const body of ['', '   \n\t  ']) {
      const blank = await postMessage(owner, requestId, employeeMessage(body));
      expect(blank.statusCode).toBe(422);
      expect(blank.json()).toEqual({ error: `message.body: ${MESSAGE_ERRORS.blankWithoutFile}`, fields: { 'message.body': MESSAGE_ERRORS.blankWithoutFile } });
    }
    const first = await uploadFile(context, owner);
    const second = await uploadFile(context, owner, { filename: 'scan.pdf', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') });
    const two = await postMessage(owner, requestId, employeeMessage('Two files', [first, second]));
    expect(two.statusCode).toBe(422);
    expect(errorOf(two)).toContain(MESSAGE_ERRORS.tooManyFiles);

    const pretending = await postMessage(owner, requestId, { message: { body: 'Hi', source: 'life_concierge', source_name: 'Casey' } });
    expect(pretending.statusCode).toBe(422);

    const thread = requestResponse.parse((await get(context, owner, `/api/v1/requests/${requestId}`)).json()).request.messages;
    expect(thread).toEqual([]);
  });

  it('takes one stored image or PDF of the caller, and links it to the request for staff', async () => {
    const owner = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, owner);
    const key = await uploadFile(context, owner, { filename: 'receipt.png' });
    // Before it is part of the thread, staff may not read someone's file.
    expect((await expiringUrl(context, concierge, key)).statusCode).toBe(404);

    const response = await postMessage(owner, requestId, employeeMessage('Here is the receipt', [key]));
    expect(response.statusCode, response.body).toBe(201);
    expect(requestResponse.parse(response.json()).request.messages[0].attachment_keys).toEqual([key]);
    const [upload] = await context.db.select().from(uploads).where(eq(uploads.key, key));
    expect(upload.requestId).toBe(requestId);
    expect((await expiringUrl(context, concierge, key)).statusCode).toBe(200);
  });

  it('takes a file without text (beyond SPEC), and retries it under the same key as one message', async () => {
    const owner = await createPerson(context);
    const requestId = await createRequest(context, owner);
    const key = await uploadFile(context, owner, { filename: 'photo.png' });
    const idempotencyKey = '00000000-0000-4000-8000-00000000f11e';
    const postFile = () =>
      context.app.inject({
        method: 'POST',
        url: `/api/v1/requests/${requestId}/messages`,
        headers: { ...owner.headers, 'idempotency-key': idempotencyKey },
        payload: employeeMessage('  ', [key]),
      });

    const first = await postFile();
    expect(first.statusCode, first.body).toBe(201);
    const retried = await postFile();
    expect(retried.statusCode, retried.body).toBe(201);
    const { messages } = requestResponse.parse(retried.json()).request;
    expect(messages.map((message) => [message.body_html, message.attachment_keys])).toEqual([['', [key]]]);
  });

  it('says how far staff have read the thread: a concierge’s reading counts, another employee’s cannot exist', async () => {
    const owner = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, owner);
    const seen = async () => requestResponse.parse((await get(context, owner, `/api/v1/requests/${requestId}`)).json()).request.seen_by_staff_message_id;

    const firstId = requestResponse.parse((await postMessage(owner, requestId, employeeMessage('One'))).json()).request.messages[0].id;
    expect(await seen()).toBeNull();
    expect((await post(context, concierge, `/api/v1/console/requests/${requestId}/read`)).statusCode).toBe(200);
    expect(await seen()).toBe(firstId);
    // A later message is not seen until staff read again; the lists say the same.
    const later = requestResponse.parse((await postMessage(owner, requestId, employeeMessage('Two'))).json()).request;
    expect(later.seen_by_staff_message_id).toBe(firstId);
    const [listed] = requestsResponse.parse((await get(context, owner, '/api/v1/requests/open')).json()).requests;
    expect(listed.seen_by_staff_message_id).toBe(firstId);
    // The employee cannot mark it read for staff.
    expect((await post(context, owner, `/api/v1/console/requests/${requestId}/read`)).statusCode).toBe(403);
    expect(await seen()).toBe(firstId);
  });

  it('refuses someone else’s upload, one whose bytes never arrived, and an unknown key', async () => {
    const owner = await createPerson(context);
    const other = await createPerson(context);
    const requestId = await createRequest(context, owner);
    const othersKey = await uploadFile(context, other);
    const pendingKey = await uploadFile(context, owner, { store: false });

    for (const key of [othersKey, pendingKey, 'no-such-key.png']) {
      const response = await postMessage(owner, requestId, employeeMessage('With a file', [key]));
      expect(response.statusCode).toBe(422);
      expect(errorOf(response)).toBe(MESSAGE_ERRORS.fileNotFound);
    }
    const [othersUpload] = await context.db.select().from(uploads).where(eq(uploads.key, othersKey));
    expect(othersUpload.requestId).toBeNull();
  });

  it('refuses a file already part of another request', async () => {
    const owner = await createPerson(context);
    const first = await createRequest(context, owner);
    const second = await createRequest(context, owner);
    const key = await uploadFile(context, owner);
    expect((await postMessage(owner, first, employeeMessage('Attached here', [key]))).statusCode).toBe(201);
    const reused = await postMessage(owner, second, employeeMessage('And here', [key]));
    expect(reused.statusCode).toBe(422);
  });

  it('reopens a Completed request: In Progress with its concierge, In Queue without one; nobody is e-mailed', async () => {
    const owner = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const assigned = await createRequest(context, owner, { status: 'closed', assigneeUserId: concierge.id });
    const unassigned = await createRequest(context, owner, { status: 'closed' });

    const reopened = await postMessage(owner, assigned, employeeMessage('One more question'));
    expect(requestResponse.parse(reopened.json()).request.status).toBe('in_progress');
    const queued = await postMessage(owner, unassigned, employeeMessage('One more question'));
    expect(requestResponse.parse(queued.json()).request.status).toBe('open');
    const [row] = await context.db.select().from(requests).where(eq(requests.id, assigned));
    expect(row.closedAt).toBeNull();
    expect(await outboxTo(context, owner.email)).toEqual([]);
  });
});

describe('the ownership matrix', () => {
  it('keeps employee B out of A’s request, thread and files, for reading and writing', async () => {
    const a = await createPerson(context);
    const b = await createPerson(context);
    const requestId = await createRequest(context, a);
    const key = await uploadFile(context, a);
    expect((await postMessage(a, requestId, employeeMessage('My file', [key]))).statusCode).toBe(201);

    expect((await get(context, b, `/api/v1/requests/${requestId}`)).statusCode).toBe(404);
    for (const list of ['open', 'in_progress', 'completed']) {
      const answer = requestsResponse.parse((await get(context, b, `/api/v1/requests/${list}`)).json());
      expect(answer.requests.map((request) => request.id)).not.toContain(requestId);
    }
    const written = await postMessage(b, requestId, employeeMessage('Let me in'));
    expect(written.statusCode).toBe(404);
    expect((await expiringUrl(context, b, key)).statusCode).toBe(404);
    // B may not hang a file on A's request either.
    const presign = await post(context, b, '/api/v1/uploads/presigned_url', { upload: { filename: 'x.png' }, request_id: requestId });
    expect(presign.statusCode).toBe(404);

    const thread = requestResponse.parse((await get(context, a, `/api/v1/requests/${requestId}`)).json()).request.messages;
    expect(thread).toHaveLength(1);
  });
});
