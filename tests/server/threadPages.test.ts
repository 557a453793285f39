import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages, requestReadMarkers } from '../../server/db/threads.schema.ts';
import { OLDER_MESSAGES_ERRORS, THREAD_PAGE_SIZE, olderMessagesResponse, requestResponse, requestsResponse } from '../../src/contract/requests.ts';
import { suiteContext } from './harness.ts';
import { errorOf } from './helpers.ts';
import { type Person, createPerson, createRequest, get } from './requests.helpers.ts';

const context = suiteContext();

/**
 * A thread of `count` messages a minute apart, alternating employee and concierge (the first the employee's), written
 * straight to the table; answers their ids, oldest first.
 */
async function longThread(owner: Person, requestId: number, count: number): Promise<number[]> {
  const rows = await context.db
    .insert(messages)
    .values(
      Array.from({ length: count }, (_, index) => ({
        requestId,
        authorUserId: index % 2 === 0 ? owner.id : null,
        source: index % 2 === 0 ? ('user' as const) : ('life_concierge' as const),
        sourceName: index % 2 === 0 ? 'Erin' : 'Concierge',
        bodyHtml: `<p>Message ${index + 1}</p>`,
        createdAt: new Date(Date.UTC(2030, 0, 1, 0, index)),
      })),
    )
    .returning({ id: messages.id });
  return rows.map((row) => row.id);
}

const olderPage = (person: Person, requestId: number, before: number | string) =>
  get(context, person, `/api/v1/requests/${requestId}/messages?before=${before}`);

describe('a long thread, page by page (issue 31)', () => {
  it('answers the newest page with the request and in the lists, and counts every unread reply', async () => {
    const owner = await createPerson(context);
    const requestId = await createRequest(context, owner);
    const ids = await longThread(owner, requestId, 2 * THREAD_PAGE_SIZE + 50);
    // Read up to the 10th message: every later concierge message is unread, beyond the page too.
    await context.db.insert(requestReadMarkers).values({ userId: owner.id, requestId, lastReadMessageId: ids[9] });
    const unreadReplies = ids.filter((id, index) => index % 2 === 1 && id > ids[9]).length;

    const { request } = requestResponse.parse((await get(context, owner, `/api/v1/requests/${requestId}`)).json());
    expect(request.messages.map((message) => message.id)).toEqual(ids.slice(-THREAD_PAGE_SIZE));
    expect(request).toMatchObject({ has_older_messages: true, unread_count: unreadReplies });
    expect(request.last_message?.body_preview).toBe(`Message ${ids.length}`);

    const [listed] = requestsResponse.parse((await get(context, owner, '/api/v1/requests/open')).json()).requests;
    expect(listed.messages.map((message) => message.id)).toEqual(ids.slice(-THREAD_PAGE_SIZE));
    expect(listed).toMatchObject({ has_older_messages: true, unread_count: unreadReplies });
  });

  it('answers a thread of exactly one page whole, with no older messages', async () => {
    const owner = await createPerson(context);
    const requestId = await createRequest(context, owner);
    const ids = await longThread(owner, requestId, THREAD_PAGE_SIZE);
    const { request } = requestResponse.parse((await get(context, owner, `/api/v1/requests/${requestId}`)).json());
    expect(request.messages.map((message) => message.id)).toEqual(ids);
    expect(request.has_older_messages).toBe(false);
  });

  it('gives the older messages a page at a time before a cursor, oldest first, down to the first', async () => {
    const owner = await createPerson(context);
    const requestId = await createRequest(context, owner);
    const ids = await longThread(owner, requestId, 2 * THREAD_PAGE_SIZE + 50);

    const first = await olderPage(owner, requestId, ids[ids.length - THREAD_PAGE_SIZE]);
    expect(first.statusCode, first.body).toBe(200);
    const middle = olderMessagesResponse.parse(first.json());
    expect(middle.messages.map((message) => message.id)).toEqual(ids.slice(50, 50 + THREAD_PAGE_SIZE));
    expect(middle.has_older_messages).toBe(true);
    expect(middle.messages[0]).toMatchObject({ body_html: '<p>Message 51</p>', source: 'user', external_created_at: '2030-01-01T00:50:00.000Z' });

    const last = olderMessagesResponse.parse((await olderPage(owner, requestId, ids[50])).json());
    expect(last.messages.map((message) => message.id)).toEqual(ids.slice(0, 50));
    expect(last.has_older_messages).toBe(false);

    const none = olderMessagesResponse.parse((await olderPage(owner, requestId, ids[0])).json());
    expect(none).toEqual({ success: true, messages: [], has_older_messages: false });
  });

  it('orders by creation time, as the thread does, not by id', async () => {
    const owner = await createPerson(context);
    const requestId = await createRequest(context, owner);
    const ids = await longThread(owner, requestId, 3);
    // The newest id written first: a message stored with an earlier time than the one before it.
    await context.db.execute(sql`UPDATE messages SET created_at = '2029-12-31T00:00:00Z' WHERE id = ${ids[2]}`);
    const older = olderMessagesResponse.parse((await olderPage(owner, requestId, ids[0])).json());
    expect(older.messages.map((message) => message.id)).toEqual([ids[2]]);
  });

  it('refuses a cursor outside the thread, another’s request, a bad cursor and a stranger', async () => {
    const owner = await createPerson(context);
    const stranger = await createPerson(context);
    const requestId = await createRequest(context, owner);
    const otherRequestId = await createRequest(context, owner);
    const [mine] = await longThread(owner, requestId, 1);
    const [elsewhere] = await longThread(owner, otherRequestId, 1);

    const outside = await olderPage(owner, requestId, elsewhere);
    expect(outside.statusCode).toBe(422);
    expect(errorOf(outside)).toBe(OLDER_MESSAGES_ERRORS.notInThread);
    expect((await olderPage(stranger, requestId, mine)).statusCode).toBe(404);
    for (const bad of ['abc', '0', '-3', '1.5']) expect((await olderPage(owner, requestId, bad)).statusCode, bad).toBe(422);
    expect((await get(context, owner, `/api/v1/requests/${requestId}/messages`)).statusCode).toBe(422);
    expect((await get(context, null, `/api/v1/requests/${requestId}/messages?before=${mine}`)).statusCode).toBe(401);
  });
});
