import { describe, expect, it } from 'vitest';
import {
  SAVED_REPLY_ERRORS,
  type SavedReply,
  fillPlaceholders,
  filledSavedReply,
  savedRepliesResponse,
  savedReplyResponse,
  unknownPlaceholders,
} from '../../src/contract/assignment.ts';
import { SAVED_REPLY_NOT_FOUND } from '../../server/domain/admin/savedReplies.ts';
import { adminCall, auditLog, expectAdminsOnly } from './admin.helpers.ts';
import { suiteContext } from './harness.ts';
import { errorOf } from './helpers.ts';
import { type Person, createPerson, createRequest, get, post } from './requests.helpers.ts';

const context = suiteContext();
let codeCounter = 0;
const uniqueCode = (stem: string) => `${stem}-${(codeCounter += 1)}`;

async function createReply(admin: Person, fields: Partial<Record<'title' | 'short_code' | 'body_markdown', string>> = {}): Promise<SavedReply> {
  const response = await adminCall(context, admin, 'POST', '/saved_replies', {
    title: 'Welcome',
    short_code: uniqueCode('welcome'),
    body_markdown: 'Hi {{employee_first_name}}, I am on **{{request_name}}**. {{concierge_name}}',
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return savedReplyResponse.parse(response.json()).saved_reply;
}

const fill = (person: Person, replyId: number, requestId: number) =>
  post(context, person, `/api/v1/console/saved_replies/${replyId}/fill`, { request_id: requestId });

describe('placeholders', () => {
  it('fills the three placeholders, spaces inside the braces allowed, and names the unknown ones', () => {
    const values = { employee_first_name: 'Erin', request_name: 'Find a dog walker', concierge_name: 'Casey Concierge' };
    expect(fillPlaceholders('Hi {{employee_first_name}}, {{ request_name }} by {{concierge_name}}.', values)).toBe(
      'Hi Erin, Find a dog walker by Casey Concierge.',
    );
    expect(fillPlaceholders('No placeholders', values)).toBe('No placeholders');
    expect(unknownPlaceholders('{{employee_first_name}} {{first_name}} {{ nope }}')).toEqual(['first_name', 'nope']);
  });
});

describe('saved replies', () => {
  it('lets admins create, edit, archive and restore them, each change in the audit log', async () => {
    const admin = await createPerson(context, 'admin');
    const created = await createReply(admin, { title: 'Got it', short_code: ' GotIt ' });
    expect(created).toMatchObject({ title: 'Got it', short_code: 'gotit', active: true });

    const edited = await adminCall(context, admin, 'PATCH', `/saved_replies/${created.id}`, {
      title: 'Got it!',
      short_code: 'gotit',
      body_markdown: 'On it, {{employee_first_name}}.',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(savedReplyResponse.parse(edited.json()).saved_reply).toMatchObject({ title: 'Got it!', body_markdown: 'On it, {{employee_first_name}}.' });

    const archived = await adminCall(context, admin, 'POST', `/saved_replies/${created.id}/archive`);
    expect(savedReplyResponse.parse(archived.json()).saved_reply.active).toBe(false);
    const restored = await adminCall(context, admin, 'POST', `/saved_replies/${created.id}/restore`);
    expect(savedReplyResponse.parse(restored.json()).saved_reply.active).toBe(true);

    const { events } = await auditLog(context, admin, { subject_type: 'saved_reply', subject_id: created.id });
    expect(events.map((event) => event.action)).toEqual(['saved_reply.restore', 'saved_reply.archive', 'saved_reply.update', 'saved_reply.create']);
    expect(events[2].changes).toEqual({
      title: { before: 'Got it', after: 'Got it!' },
      body_markdown: { before: expect.any(String), after: 'On it, {{employee_first_name}}.' },
    });
    expect(events[3].changes.short_code).toEqual({ before: null, after: 'gotit' });

    const all = savedRepliesResponse.parse((await adminCall(context, admin, 'GET', '/saved_replies')).json()).saved_replies;
    expect(all.map((reply) => reply.id)).toContain(created.id);
  });

  it('offers concierges the active ones only, filled in for the request at hand', async () => {
    const admin = await createPerson(context, 'admin');
    const concierge = await createPerson(context, 'concierge', { firstName: 'Casey', lastName: 'Concierge' });
    const employee = await createPerson(context, 'employee', { firstName: 'Erin', lastName: 'Employee' });
    const requestId = await createRequest(context, employee, { name: 'Find a dog walker' });
    const offered = await createReply(admin);
    const archived = await createReply(admin, { short_code: uniqueCode('old') });
    await adminCall(context, admin, 'POST', `/saved_replies/${archived.id}/archive`);

    const list = savedRepliesResponse.parse((await get(context, concierge, '/api/v1/console/saved_replies')).json()).saved_replies;
    expect(list.map((reply) => reply.id)).toContain(offered.id);
    expect(list.map((reply) => reply.id)).not.toContain(archived.id);

    const filled = await fill(concierge, offered.id, requestId);
    expect(filled.statusCode, filled.body).toBe(200);
    expect(filledSavedReply.parse(filled.json()).body_markdown).toBe('Hi Erin, I am on **Find a dog walker**. Casey Concierge');

    const ofArchived = await fill(concierge, archived.id, requestId);
    expect(ofArchived.statusCode).toBe(404);
    expect(errorOf(ofArchived)).toBe(SAVED_REPLY_NOT_FOUND);
    expect((await fill(concierge, offered.id, 999_999)).statusCode).toBe(404);
  });

  it('keeps writing to admins and using to staff: employees 403 everywhere, visitors 401', async () => {
    const admin = await createPerson(context, 'admin');
    const concierge = await createPerson(context, 'concierge');
    const employee = await createPerson(context);
    const requestId = await createRequest(context, employee);
    const reply = await createReply(admin);
    const body = { title: 'X', short_code: 'x', body_markdown: 'Y' };
    await expectAdminsOnly(context, { employee, concierge }, [
      ['GET', '/saved_replies'],
      ['POST', '/saved_replies', body],
      ['PATCH', `/saved_replies/${reply.id}`, body],
      ['POST', `/saved_replies/${reply.id}/archive`],
      ['POST', `/saved_replies/${reply.id}/restore`],
    ]);
    expect((await get(context, employee, '/api/v1/console/saved_replies')).statusCode).toBe(403);
    expect((await fill(employee, reply.id, requestId)).statusCode).toBe(403);
    expect((await get(context, null, '/api/v1/console/saved_replies')).statusCode).toBe(401);
    expect((await post(context, null, `/api/v1/console/saved_replies/${reply.id}/fill`, { request_id: requestId })).statusCode).toBe(401);
    // Nothing the outsiders sent was saved.
    const all = savedRepliesResponse.parse((await adminCall(context, admin, 'GET', '/saved_replies')).json()).saved_replies;
    expect(all.find((saved) => saved.short_code === 'x')).toBeUndefined();
  });

  it('refuses bad input with a message naming the field, and a short code in use with 409', async () => {
    const admin = await createPerson(context, 'admin');
    const concierge = await createPerson(context, 'concierge');
    const cases: [payload: object, field: string, message: string][] = [
      [{ title: '', short_code: 'ok', body_markdown: 'Body' }, 'title', SAVED_REPLY_ERRORS.title],
      [{ title: 'T', short_code: 'has space', body_markdown: 'Body' }, 'short_code', SAVED_REPLY_ERRORS.shortCode],
      [{ title: 'T', short_code: '/slash', body_markdown: 'Body' }, 'short_code', SAVED_REPLY_ERRORS.shortCode],
      [{ title: 'T', short_code: 'ok', body_markdown: '   ' }, 'body_markdown', SAVED_REPLY_ERRORS.body],
      [{ title: 'T', short_code: 'ok', body_markdown: 'x'.repeat(10_001) }, 'body_markdown', SAVED_REPLY_ERRORS.body],
      [{ title: 'T', short_code: 'ok', body_markdown: 'Hi {{first_name}}' }, 'body_markdown', SAVED_REPLY_ERRORS.unknownPlaceholder('first_name')],
    ];
    for (const [payload, field, message] of cases) {
      const response = await adminCall(context, admin, 'POST', '/saved_replies', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json().fields).toEqual({ [field]: message });
    }
    const taken = await createReply(admin);
    const clash = await adminCall(context, admin, 'POST', '/saved_replies', { title: 'Twin', short_code: taken.short_code, body_markdown: 'Twin' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({
      error: SAVED_REPLY_ERRORS.shortCodeTaken(taken.short_code),
      fields: { short_code: SAVED_REPLY_ERRORS.shortCodeTaken(taken.short_code) },
    });
    const other = await createReply(admin);
    const renamedOnto = await adminCall(context, admin, 'PATCH', `/saved_replies/${other.id}`, { title: 'T', short_code: taken.short_code, body_markdown: 'B' });
    expect(renamedOnto.statusCode).toBe(409);
    expect((await adminCall(context, admin, 'PATCH', '/saved_replies/999999', { title: 'T', short_code: 'zz', body_markdown: 'B' })).statusCode).toBe(404);
    const badFill = await post(context, concierge, `/api/v1/console/saved_replies/${taken.id}/fill`, { request_id: 'one' });
    expect(badFill.statusCode).toBe(422);
    expect(Object.keys(badFill.json().fields)).toEqual(['request_id']);
  });
});
