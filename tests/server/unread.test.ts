import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pendingReplyEmails } from '../../server/db/notifications.schema.ts';
import { nextDigestAt, sendDueReplyEmails } from '../../server/domain/requests/replyEmails.ts';
import { notificationSettingsResponse } from '../../src/contract/notifications.ts';
import {
  MARK_READ_ERRORS,
  markRequestReadResponse,
  requestResponse,
  requestsResponse,
  unreadRepliesResponse,
} from '../../src/contract/requests.ts';
import { suiteContext } from './harness.ts';
import { errorOf, outboxTo } from './helpers.ts';
import { type Person, createPerson, createRequest, employeeMessage, get, post } from './requests.helpers.ts';

/** Issue 32 point 1: the employee's unread replies, marking a thread read, and the e-mails about unread replies. */

const DELAY_MS = 60_000;
const context = suiteContext({ REPLY_EMAIL_DELAY_MS: String(DELAY_MS) });

async function reply(concierge: Person, requestId: number, markdown: string) {
  const response = await post(context, concierge, `/api/v1/console/requests/${requestId}/messages`, { body_markdown: markdown });
  expect(response.statusCode, response.body).toBe(201);
}

async function ownerView(owner: Person, requestId: number) {
  const response = await get(context, owner, `/api/v1/requests/${requestId}`);
  expect(response.statusCode, response.body).toBe(200);
  return requestResponse.parse(response.json()).request;
}

async function unreadOf(owner: Person) {
  const response = await get(context, owner, '/api/v1/requests/unread');
  expect(response.statusCode, response.body).toBe(200);
  return unreadRepliesResponse.parse(response.json());
}

function markRead(person: Pick<Person, 'headers'> | null, requestId: number, messageId: number) {
  return post(context, person, `/api/v1/requests/${requestId}/read`, { message_id: messageId });
}

function chooseReplyEmails(person: Person, choice: string) {
  return context.app.inject({ method: 'PUT', url: '/api/v1/notification_settings', headers: person.headers, payload: { reply_emails: choice } });
}

const replyMails = async (person: Person) => (await outboxTo(context, person.email)).filter((mail) => /repl|digest/i.test(mail.subject ?? ''));

async function lastMessageId(owner: Person, requestId: number): Promise<number> {
  const { messages } = await ownerView(owner, requestId);
  return messages.at(-1)!.id;
}

describe('unread replies', () => {
  it("count the concierge's messages after the owner's marker, in the lists, the detail and the total", async () => {
    const owner = await createPerson(context);
    const concierge = await createPerson(context, 'concierge', { firstName: 'Casey' });
    const requestId = await createRequest(context, owner, { name: 'Walk the dog' });
    const quiet = await createRequest(context, owner, { name: 'Nothing yet' });

    expect(await unreadOf(owner)).toEqual({ success: true, unread_count: 0, requests: [] });
    await post(context, owner, `/api/v1/requests/${requestId}/messages`, employeeMessage('Any news?'));
    await reply(concierge, requestId, 'Found **two** walkers &amp; a sitter.\n\nCall me.');
    await reply(concierge, requestId, 'Second thought');

    const detail = await ownerView(owner, requestId);
    expect(detail.unread_count).toBe(2);
    expect(detail.last_message).toEqual({ body_preview: 'Second thought', created_at: detail.messages.at(-1)!.external_created_at, from_staff: true });
    expect(detail.messages[1].body_html).toContain('<strong>two</strong>');
    expect(await unreadOf(owner)).toEqual({ success: true, unread_count: 2, requests: [{ id: requestId, unread_count: 2 }] });

    const list = requestsResponse.parse((await get(context, owner, '/api/v1/requests/open')).json()).requests;
    expect(list.find((request) => request.id === requestId)).toMatchObject({ unread_count: 2, last_message: { body_preview: 'Second thought' } });
    expect(list.find((request) => request.id === quiet)).toMatchObject({ unread_count: 0, last_message: null });

    // Read up to the first reply: one left; then all.
    const [, firstReply, secondReply] = detail.messages;
    const partly = await markRead(owner, requestId, firstReply.id);
    expect(markRequestReadResponse.parse(partly.json())).toEqual({ success: true, last_read_message_id: firstReply.id, unread_count: 1 });
    expect((await unreadOf(owner)).unread_count).toBe(1);
    expect((await markRead(owner, requestId, secondReply.id)).json()).toMatchObject({ unread_count: 0 });
    expect(await unreadOf(owner)).toEqual({ success: true, unread_count: 0, requests: [] });
    // The list, read again at once, shows it read (the cache forgot it).
    const relisted = requestsResponse.parse((await get(context, owner, '/api/v1/requests/open')).json()).requests;
    expect(relisted.find((request) => request.id === requestId)?.unread_count).toBe(0);
  });

  it('preview the last message as one line of plain text, cut with an ellipsis', async () => {
    const owner = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, owner);
    await reply(concierge, requestId, `# Plan\n\n- one <b>&</b> two\n- ${'long '.repeat(40)}`);
    const { last_message: last } = await ownerView(owner, requestId);
    expect(last?.body_preview).toMatch(/^Plan one & two long long/);
    expect(last?.body_preview.length).toBe(120);
    expect(last?.body_preview.endsWith('…')).toBe(true);
  });

  it('marking read is idempotent and never moves the marker back', async () => {
    const owner = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, owner);
    await reply(concierge, requestId, 'One');
    await reply(concierge, requestId, 'Two');
    const [first, second] = (await ownerView(owner, requestId)).messages;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await markRead(owner, requestId, second.id)).json()).toMatchObject({ last_read_message_id: second.id, unread_count: 0 });
    }
    // A slower device reporting an older message changes nothing.
    expect((await markRead(owner, requestId, first.id)).json()).toMatchObject({ last_read_message_id: second.id, unread_count: 0 });
  });

  it('only the owner marks read: anonymous 401, another employee 404, staff 403, a message of another request 422', async () => {
    const owner = await createPerson(context);
    const stranger = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, owner);
    const otherRequest = await createRequest(context, stranger);
    await reply(concierge, requestId, 'Hello');
    await reply(concierge, otherRequest, 'Not yours');
    const messageId = await lastMessageId(owner, requestId);
    const othersMessage = await lastMessageId(stranger, otherRequest);

    expect((await markRead(null, requestId, messageId)).statusCode).toBe(401);
    expect((await get(context, null, '/api/v1/requests/unread')).statusCode).toBe(401);
    const asStranger = await markRead(stranger, requestId, messageId);
    expect(asStranger.statusCode).toBe(404);
    const asStaff = await markRead(concierge, requestId, messageId);
    expect(asStaff.statusCode).toBe(403);
    expect(errorOf(asStaff)).toBe(MARK_READ_ERRORS.staff);
    const wrongMessage = await markRead(owner, requestId, othersMessage);
    expect(wrongMessage.statusCode).toBe(422);
    expect(errorOf(wrongMessage)).toBe(MARK_READ_ERRORS.messageNotInRequest);
    expect((await post(context, owner, `/api/v1/requests/${requestId}/read`, { message_id: 'latest' })).statusCode).toBe(422);
    // None of those refusals read anything.
    expect((await unreadOf(owner)).unread_count).toBe(1);
    expect((await unreadOf(stranger)).unread_count).toBe(1);
  });
});

describe('e-mails about unread replies', () => {
  const sweep = (now: Date) => sendDueReplyEmails(context.db, { appUrl: context.config.APP_URL, now });
  const afterDelay = () => new Date(Date.now() + DELAY_MS + 1000);

  it('are sent when a reply is still unread after the delay, once for several replies', async () => {
    const owner = await createPerson(context, 'employee', { firstName: 'Erin' });
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, owner, { name: 'Walk the dog' });
    await reply(concierge, requestId, 'One');
    await reply(concierge, requestId, 'Two');
    await reply(concierge, requestId, 'Three');

    // Nothing before the delay has passed.
    await sweep(new Date());
    expect(await replyMails(owner)).toEqual([]);

    await sweep(afterDelay());
    const mails = await replyMails(owner);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('New reply on your request "Walk the dog"');
    expect(mails[0].text).toContain('Hi Erin,');
    expect(mails[0].links).toEqual([`${context.config.APP_URL}/requests/${requestId}`]);
    // The e-mail names the request; the reply itself is read behind sign-in.
    expect(mails[0].text).not.toContain('Three');
    // Swept once: a second sweep (another process) finds nothing.
    expect(await sweep(afterDelay())).toBe(0);
    expect(await replyMails(owner)).toHaveLength(1);
  });

  it('are not sent when the reply was read within the delay', async () => {
    const owner = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, owner);
    await reply(concierge, requestId, 'Read me in the app');
    expect((await markRead(owner, requestId, await lastMessageId(owner, requestId))).statusCode).toBe(200);

    await sweep(afterDelay());
    expect(await replyMails(owner)).toEqual([]);
    const waiting = await context.db.select().from(pendingReplyEmails).where(eq(pendingReplyEmails.requestId, requestId));
    expect(waiting).toEqual([]);
  });

  it('gather the requests that fall due together in one e-mail', async () => {
    const owner = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const dog = await createRequest(context, owner, { name: 'Walk the dog' });
    const car = await createRequest(context, owner, { name: 'Service the car' });
    await reply(concierge, dog, 'Dog');
    await reply(concierge, car, 'Car');
    await reply(concierge, car, 'Car again');
    await sweep(afterDelay());
    const [mail, ...others] = await replyMails(owner);
    expect(others).toEqual([]);
    expect(mail.subject).toBe('New replies on 2 of your requests');
    expect(mail.text).toContain('"Walk the dog": a reply');
    expect(mail.text).toContain('"Service the car": 2 replies');
    expect(mail.links).toEqual([`${context.config.APP_URL}/requests/${dog}`, `${context.config.APP_URL}/requests/${car}`]);
  });

  it("follow the employee's choice: none sends nothing, digest waits for the day's digest", async () => {
    const quiet = await createPerson(context);
    const digest = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    expect((await chooseReplyEmails(quiet, 'none')).statusCode).toBe(200);
    const chosen = await chooseReplyEmails(digest, 'digest');
    expect(notificationSettingsResponse.parse(chosen.json())).toEqual({ success: true, settings: { reply_emails: 'digest' } });
    const settings = await get(context, digest, '/api/v1/notification_settings');
    expect(settings.json()).toEqual({ success: true, settings: { reply_emails: 'digest' } });

    const quietRequest = await createRequest(context, quiet);
    const digestRequest = await createRequest(context, digest, { name: 'Book a vet' });
    await reply(concierge, quietRequest, 'Shh');
    await reply(concierge, digestRequest, 'Vet found');

    await sweep(afterDelay());
    expect(await replyMails(quiet)).toEqual([]);
    expect(await replyMails(digest)).toEqual([]);

    await sweep(new Date(nextDigestAt(new Date()).getTime() + 1000));
    const [mail] = await replyMails(digest);
    expect(mail.subject).toBe('Your Life Concierge digest: unread replies');
    expect(mail.text).toContain('"Book a vet": a reply');
    expect(await replyMails(quiet)).toEqual([]);
  });

  it('a choice is validated by the contract, and needs a signed-in user', async () => {
    const person = await createPerson(context);
    expect((await chooseReplyEmails(person, 'hourly')).statusCode).toBe(422);
    expect((await get(context, null, '/api/v1/notification_settings')).statusCode).toBe(401);
    expect((await get(context, person, '/api/v1/notification_settings')).json()).toEqual({ success: true, settings: { reply_emails: 'each' } });
  });

  it('the digest goes out at its hour, the next day once it has passed', () => {
    expect(nextDigestAt(new Date('2026-01-05T07:59:00Z')).toISOString()).toBe('2026-01-05T08:00:00.000Z');
    expect(nextDigestAt(new Date('2026-01-05T08:00:00Z')).toISOString()).toBe('2026-01-06T08:00:00.000Z');
  });
});
