import { randomUUID } from 'node:crypto';
import { sendDueReplyEmails } from '../../server/domain/requests/replyEmails.ts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { internalNotes, messages } from '../../server/db/threads.schema.ts';
import { suiteContext } from './harness.ts';
import { outboxTo } from './helpers.ts';
import { type Person, createPerson, createRequest, employeeMessage } from './requests.helpers.ts';

/** Issue 9 point 11: a post retried with its Idempotency-Key is stored once. */

const context = suiteContext();
const REUSED = { error: 'This Idempotency-Key was already used for a different post.' };

function postWithKey(person: Person, url: string, payload: object, key?: string) {
  return context.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...person.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });
}

const messagesOf = (requestId: number) => context.db.select().from(messages).where(eq(messages.requestId, requestId));

describe('Idempotency-Key on message, reply and note posts', () => {
  it('an employee message retried with its key is stored once and answered the same', async () => {
    const employee = await createPerson(context);
    const requestId = await createRequest(context, employee);
    const url = `/api/v1/requests/${requestId}/messages`;
    const key = randomUUID();
    const first = await postWithKey(employee, url, employeeMessage('Is Tuesday fine?'), key);
    const retry = await postWithKey(employee, url, employeeMessage('Is Tuesday fine?'), key);
    expect(first.statusCode, first.body).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(await messagesOf(requestId)).toHaveLength(1);

    const changed = await postWithKey(employee, url, employeeMessage('Is Wednesday fine?'), key);
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toEqual(REUSED);
    // Without a key (an older app) every post is a new message.
    await postWithKey(employee, url, employeeMessage('Is Tuesday fine?'));
    expect(await messagesOf(requestId)).toHaveLength(2);
  });

  it('a concierge reply retried with its key is stored and e-mailed once', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, employee);
    const url = `/api/v1/console/requests/${requestId}/messages`;
    const key = randomUUID();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await postWithKey(concierge, url, { body_markdown: 'Booked for **Tuesday**' }, key)).statusCode).toBe(201);
    }
    expect(await messagesOf(requestId)).toHaveLength(1);
    // The e-mail waits to see whether the reply is read in the app (issue 32); once due, it goes once.
    await sendDueReplyEmails(context.db, { appUrl: context.config.APP_URL, now: new Date(Date.now() + 24 * 3_600_000) });
    expect(await outboxTo(context, employee.email)).toHaveLength(1);
  });

  it('two simultaneous posts with one key store one message', async () => {
    const employee = await createPerson(context);
    const requestId = await createRequest(context, employee);
    const url = `/api/v1/requests/${requestId}/messages`;
    const key = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => postWithKey(employee, url, employeeMessage('Twice?'), key)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
    expect(await messagesOf(requestId)).toHaveLength(1);
  });

  it('an internal note retried with its key is stored once; keys are per author', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const colleague = await createPerson(context, 'admin');
    const requestId = await createRequest(context, employee);
    const url = `/api/v1/console/requests/${requestId}/notes`;
    const key = randomUUID();
    await postWithKey(concierge, url, { body_markdown: 'Call first' }, key);
    await postWithKey(concierge, url, { body_markdown: 'Call first' }, key);
    await postWithKey(colleague, url, { body_markdown: 'Call first' }, key);
    const notes = await context.db.select().from(internalNotes).where(eq(internalNotes.requestId, requestId));
    expect(notes).toHaveLength(2);
  });

  it('a key used on another request is refused, and a malformed key is a 422 naming the header', async () => {
    const employee = await createPerson(context);
    const [first, second] = [await createRequest(context, employee), await createRequest(context, employee)];
    const key = randomUUID();
    await postWithKey(employee, `/api/v1/requests/${first}/messages`, employeeMessage('Hello'), key);
    const elsewhere = await postWithKey(employee, `/api/v1/requests/${second}/messages`, employeeMessage('Hello'), key);
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json()).toEqual(REUSED);

    const malformed = await postWithKey(employee, `/api/v1/requests/${first}/messages`, employeeMessage('Hello'), 'not-a-uuid');
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().fields).toHaveProperty('idempotency-key');
  });
});
