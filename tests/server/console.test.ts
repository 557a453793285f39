import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { requests, users } from '../../server/db/schema.ts';
import {
  requestSurveys,
  surveyCategories,
  surveyQuestions,
  userRequestAnswers,
  userRequestSurveys,
} from '../../server/db/surveys.schema.ts';
import {
  type ConsoleRequest,
  consoleRequestResponse,
  consoleRequestsResponse,
  markReadResponse,
  staffResponse,
} from '../../src/contract/console.ts';
import { MESSAGE_ERRORS, requestResponse } from '../../src/contract/requests.ts';
import { sendDueReplyEmails } from '../../server/domain/requests/replyEmails.ts';
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

const consoleUrl = (path: string) => `/api/v1/console${path}`;

async function viewRequest(staff: Person, requestId: number): Promise<ConsoleRequest> {
  const response = await get(context, staff, consoleUrl(`/requests/${requestId}`));
  expect(response.statusCode, response.body).toBe(200);
  return consoleRequestResponse.parse(response.json()).request;
}

async function consoleList(staff: Person, query: Record<string, string> = {}) {
  const response = await context.app.inject({ method: 'GET', url: consoleUrl('/requests'), query, headers: staff.headers });
  expect(response.statusCode, response.body).toBe(200);
  return consoleRequestsResponse.parse(response.json());
}

function changeStatus(staff: Person, requestId: number, status: string) {
  return post(context, staff, consoleUrl(`/requests/${requestId}/status`), { status });
}

function reply(staff: Person, requestId: number, bodyMarkdown: string, attachmentKeys?: string[]) {
  return post(context, staff, consoleUrl(`/requests/${requestId}/messages`), {
    body_markdown: bodyMarkdown,
    ...(attachmentKeys ? { attachment_keys: attachmentKeys } : {}),
  });
}

async function employeeView(employee: Person, requestId: number) {
  const response = await get(context, employee, `/api/v1/requests/${requestId}`);
  expect(response.statusCode).toBe(200);
  return requestResponse.parse(response.json()).request;
}

describe('who may use the console', () => {
  it('refuses every console route to an employee (403) and a visitor (401), and serves concierges and admins', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const admin = await createPerson(context, 'admin');
    const requestId = await createRequest(context, employee);
    const routes: [method: 'GET' | 'POST', url: string, payload?: object][] = [
      ['GET', consoleUrl('/requests')],
      ['GET', consoleUrl('/requests?queue=in_queue&q=x')],
      ['GET', consoleUrl('/staff')],
      ['GET', consoleUrl(`/requests/${requestId}`)],
      ['POST', consoleUrl(`/requests/${requestId}/claim`)],
      ['POST', consoleUrl(`/requests/${requestId}/assign`), { assignee_id: concierge.id }],
      ['POST', consoleUrl(`/requests/${requestId}/status`), { status: 'in_progress' }],
      ['POST', consoleUrl(`/requests/${requestId}/messages`), { body_markdown: 'Hello' }],
      ['POST', consoleUrl(`/requests/${requestId}/notes`), { body_markdown: 'Note' }],
      ['POST', consoleUrl(`/requests/${requestId}/read`)],
      ['POST', consoleUrl('/preview'), { body_markdown: '**hi**' }],
      // Even a malformed call tells an employee nothing but "not for you".
      ['POST', consoleUrl(`/requests/${requestId}/status`), { status: 'nonsense' }],
    ];
    for (const [method, url, payload] of routes) {
      const asEmployee = await context.app.inject({ method, url, headers: employee.headers, ...(payload ? { payload } : {}) });
      expect(asEmployee.statusCode, `${method} ${url}`).toBe(403);
      const asVisitor = await context.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(asVisitor.statusCode, `${method} ${url}`).toBe(401);
    }
    // Nothing the employee tried took effect.
    const [row] = await context.db.select().from(requests).where(eq(requests.id, requestId));
    expect(row).toMatchObject({ status: 'open', assigneeUserId: null });
    expect((await employeeView(employee, requestId)).messages).toEqual([]);

    for (const staff of [concierge, admin]) {
      expect((await get(context, staff, consoleUrl('/requests'))).statusCode).toBe(200);
      expect((await get(context, staff, consoleUrl(`/requests/${requestId}`))).statusCode).toBe(200);
    }
    const staffList = staffResponse.parse((await get(context, admin, consoleUrl('/staff'))).json()).staff;
    expect(staffList.map((member) => member.id)).toEqual(expect.arrayContaining([concierge.id, admin.id]));
    expect(staffList.map((member) => member.id)).not.toContain(employee.id);
  });

  it('answers 404 for a request that does not exist', async () => {
    const concierge = await createPerson(context, 'concierge');
    expect((await get(context, concierge, consoleUrl('/requests/999999'))).statusCode).toBe(404);
    expect((await post(context, concierge, consoleUrl('/requests/999999/claim'))).statusCode).toBe(404);
  });
});

describe('queues and search', () => {
  it('sorts requests into In Queue, In Progress (mine and everyone’s) and Completed, with counts', async () => {
    const employee = await createPerson(context, 'employee', { firstName: 'Quinn', lastName: 'Queue' });
    const me = await createPerson(context, 'concierge');
    const colleague = await createPerson(context, 'concierge');
    const before = (await consoleList(me)).counts;
    const waiting = await createRequest(context, employee, { name: 'Waiting' });
    const mine = await createRequest(context, employee, { name: 'Mine', status: 'in_progress', assigneeUserId: me.id });
    const theirs = await createRequest(context, employee, { name: 'Theirs', status: 'in_progress', assigneeUserId: colleague.id });
    const done = await createRequest(context, employee, { name: 'Done', status: 'closed' });

    const all = await consoleList(me, { q: 'Quinn' });
    expect(all.counts).toEqual({
      in_queue: before.in_queue + 1,
      in_progress_mine: before.in_progress_mine + 1,
      in_progress: before.in_progress + 2,
      completed: before.completed + 1,
    });
    const ids = async (queue: string) => (await consoleList(me, { queue, q: 'Quinn' })).requests.map((request) => request.id);
    expect(await ids('in_queue')).toEqual([waiting]);
    expect(await ids('in_progress_mine')).toEqual([mine]);
    expect((await ids('in_progress')).sort()).toEqual([mine, theirs].sort());
    expect(await ids('completed')).toEqual([done]);
    expect(all.total).toBe(4);

    const summary = (await consoleList(me, { queue: 'in_progress_mine', q: 'Quinn' })).requests[0];
    expect(summary).toMatchObject({
      name: 'Mine',
      status: 'in_progress',
      employee: { id: employee.id, full_name: 'Quinn Queue', email: employee.email },
      assignee: { id: me.id, role: 'concierge' },
      unread_count: 0,
    });
  });

  it('keeps its queue counts equal to the requests through claims, reassignment, completion, reopening and deletion', async () => {
    const me = await createPerson(context, 'concierge');
    const colleague = await createPerson(context, 'concierge');
    const employee = await createPerson(context, 'employee');
    const leaver = await createPerson(context, 'employee');
    const counted = async () => {
      const [row] = await context.db
        .select({
          in_queue: sql<number>`count(*) filter (where ${requests.status} = 'open')`.mapWith(Number),
          in_progress_mine: sql<number>`count(*) filter (where ${requests.status} = 'in_progress' and ${requests.assigneeUserId} = ${me.id})`.mapWith(Number),
          in_progress: sql<number>`count(*) filter (where ${requests.status} = 'in_progress')`.mapWith(Number),
          completed: sql<number>`count(*) filter (where ${requests.status} = 'closed')`.mapWith(Number),
        })
        .from(requests);
      return row;
    };
    const expectCountsOfTheRequests = async () => expect((await consoleList(me)).counts).toEqual(await counted());

    const first = await createRequest(context, employee, { name: 'First' });
    const second = await createRequest(context, employee, { name: 'Second' });
    await createRequest(context, leaver, { name: 'Gone with its owner', status: 'in_progress', assigneeUserId: me.id });
    await expectCountsOfTheRequests();
    expect((await post(context, me, consoleUrl(`/requests/${first}/claim`))).statusCode).toBe(200);
    expect((await post(context, colleague, consoleUrl(`/requests/${second}/claim`))).statusCode).toBe(200);
    await expectCountsOfTheRequests();
    expect((await post(context, me, consoleUrl(`/requests/${second}/assign`), { assignee_id: me.id })).statusCode).toBe(200);
    expect((await post(context, me, consoleUrl(`/requests/${first}/status`), { status: 'closed' })).statusCode).toBe(200);
    await expectCountsOfTheRequests();
    expect((await post(context, me, consoleUrl(`/requests/${first}/status`), { status: 'in_progress' })).statusCode).toBe(200);
    await context.db.delete(users).where(eq(users.id, leaver.id));
    await expectCountsOfTheRequests();
  });

  it('finds requests by employee name, e-mail or request name, and treats % and _ literally', async () => {
    const employee = await createPerson(context, 'employee', { firstName: 'Zelda', lastName: 'Zimmermann' });
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, employee, { name: 'Repair the 100% wool sofa' });
    const found = async (q: string) => (await consoleList(concierge, { q })).requests.map((request) => request.id);

    expect(await found('zelda zimm')).toContain(requestId);
    expect(await found(employee.email.toUpperCase())).toContain(requestId);
    expect(await found('wool SOFA')).toContain(requestId);
    expect(await found('100%')).toEqual([requestId]);
    expect(await found('Zelda_')).toEqual([]);
  });

  it('counts unread employee messages per staff member until they mark the request read', async () => {
    const employee = await createPerson(context);
    const me = await createPerson(context, 'concierge');
    const colleague = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, employee, { name: 'Unread test' });
    const unread = async (staff: Person) => (await viewRequest(staff, requestId)).unread_count;

    await post(context, employee, `/api/v1/requests/${requestId}/messages`, employeeMessage('First'));
    await post(context, employee, `/api/v1/requests/${requestId}/messages`, employeeMessage('Second'));
    expect(await unread(me)).toBe(2);

    const read = await post(context, me, consoleUrl(`/requests/${requestId}/read`));
    expect(markReadResponse.parse(read.json())).toEqual({ success: true, unread_count: 0 });
    expect(await unread(me)).toBe(0);
    expect(await unread(colleague)).toBe(2);

    await post(context, employee, `/api/v1/requests/${requestId}/messages`, employeeMessage('Third'));
    expect(await unread(me)).toBe(1);
    // Replying means having read the thread; the concierge's own reply is never unread.
    expect((await reply(colleague, requestId, 'On it')).statusCode).toBe(201);
    expect(await unread(colleague)).toBe(0);
  });
});

describe('the request view', () => {
  it('shows the employee with their companies, the survey answers and the details', async () => {
    const employee = await createPerson(context, 'employee', { firstName: 'Sam', lastName: 'Survey', companyName: 'Acme Corp' });
    const concierge = await createPerson(context, 'concierge');
    const [category] = await context.db
      .insert(surveyCategories)
      .values({ slug: `pets-${Date.now()}`, name: 'Pet', imageUrl: '/seed/categories/pet.svg' })
      .returning();
    const [template] = await context.db
      .insert(requestSurveys)
      .values({ slug: `walker-${Date.now()}`, name: 'Find a dog walker', categoryId: category.id, position: 1 })
      .returning();
    const questions = await context.db
      .insert(surveyQuestions)
      .values([
        { requestSurveyId: template.id, position: 1, label: 'How big is your dog?', type: 'SingleSelectInput', selectOptions: [{ label: 'Small (under 10 kg)', value: 'small' }] },
        { requestSurveyId: template.id, position: 2, label: 'Best number to reach you', type: 'PhoneNumberInput' },
        { requestSurveyId: template.id, position: 3, label: 'Anything else?', type: 'MultilineTextInput', optional: true },
        { requestSurveyId: template.id, position: 4, label: 'A photo of your dog', type: 'SingleUploadInput' },
      ])
      .returning();
    const photoKey = await uploadFile(context, employee, { filename: 'rex.png' });
    const [session] = await context.db
      .insert(userRequestSurveys)
      .values({ userId: employee.id, requestSurveyId: template.id, submittedAt: new Date() })
      .returning();
    await context.db.insert(userRequestAnswers).values([
      { userRequestSurveyId: session.id, questionId: questions[0].id, value: 'small' },
      { userRequestSurveyId: session.id, questionId: questions[1].id, value: '2125551212' },
      { userRequestSurveyId: session.id, questionId: questions[2].id, value: '' },
      { userRequestSurveyId: session.id, questionId: questions[3].id, value: photoKey },
    ]);
    const requestId = await createRequest(context, employee, {
      name: 'Find a dog walker',
      details: 'How big is your dog? Small (under 10 kg)',
      userRequestSurveyId: session.id,
    });
    await context.db.update(requests).set({ surveyCategoryId: category.id }).where(eq(requests.id, requestId));

    const view = await viewRequest(concierge, requestId);
    expect(view.employee).toMatchObject({ id: employee.id, full_name: 'Sam Survey', email: employee.email });
    expect(view.employee.companies.map((company) => company.name)).toEqual(['Acme Corp']);
    expect(view.survey_category_name).toBe('Pet');
    expect(view.details).toBe('How big is your dog? Small (under 10 kg)');
    expect(view.survey_answers).toEqual([
      { question_id: questions[0].id, label: 'How big is your dog?', answer: 'Small (under 10 kg)', attachment_key: null },
      { question_id: questions[1].id, label: 'Best number to reach you', answer: '(212) 555-1212', attachment_key: null },
      { question_id: questions[3].id, label: 'A photo of your dog', answer: 'rex.png', attachment_key: photoKey },
    ]);
  });
});

describe('claiming, assigning and status changes', () => {
  it('claims a queued request: assigned to me, In Progress, and the employee is e-mailed a link', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge', { firstName: 'Casey', lastName: 'Claims' });
    const requestId = await createRequest(context, employee, { name: 'Claim me' });

    const claimed = await post(context, concierge, consoleUrl(`/requests/${requestId}/claim`));
    expect(claimed.statusCode, claimed.body).toBe(200);
    const view = consoleRequestResponse.parse(claimed.json()).request;
    expect(view).toMatchObject({ status: 'in_progress', assignee: { id: concierge.id, full_name: 'Casey Claims' } });
    expect(view.thread.filter((entry) => entry.kind === 'event').map((entry) => entry.kind === 'event' && entry.event)).toEqual([
      'assigned',
      'status_changed',
    ]);

    const [mail] = await outboxTo(context, employee.email);
    expect(mail.subject).toBe('Your request "Claim me" is In Progress');
    expect(mail.links).toEqual([`${context.config.APP_URL}/requests/${requestId}`]);
  });

  it('assigns to another staff member, and refuses to assign to an employee', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const admin = await createPerson(context, 'admin');
    const requestId = await createRequest(context, employee);

    const assigned = await post(context, concierge, consoleUrl(`/requests/${requestId}/assign`), { assignee_id: admin.id });
    expect(assigned.statusCode).toBe(200);
    expect(consoleRequestResponse.parse(assigned.json()).request).toMatchObject({ status: 'in_progress', assignee: { id: admin.id } });

    const toEmployee = await post(context, concierge, consoleUrl(`/requests/${requestId}/assign`), { assignee_id: employee.id });
    expect(toEmployee.statusCode).toBe(422);
    expect((await viewRequest(concierge, requestId)).assignee?.id).toBe(admin.id);
  });

  it('allows open -> in_progress -> closed -> in_progress and refuses every other move with 409', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, employee, { name: 'Lifecycle' });
    const statusNow = async () => (await viewRequest(concierge, requestId)).status;

    for (const refused of ['closed', 'open']) {
      const response = await changeStatus(concierge, requestId, refused);
      expect(response.statusCode, refused).toBe(409);
    }
    expect(errorOf(await changeStatus(concierge, requestId, 'closed'))).toBe(
      'A request that is In Queue cannot be moved to Completed.',
    );
    expect(await statusNow()).toBe('open');

    const started = await changeStatus(concierge, requestId, 'in_progress');
    expect(started.statusCode).toBe(200);
    // Starting an unclaimed request claims it.
    expect(consoleRequestResponse.parse(started.json()).request.assignee?.id).toBe(concierge.id);
    for (const refused of ['in_progress', 'open']) expect((await changeStatus(concierge, requestId, refused)).statusCode).toBe(409);

    const closed = await changeStatus(concierge, requestId, 'closed');
    expect(consoleRequestResponse.parse(closed.json()).request.closed_at).not.toBeNull();
    for (const refused of ['closed', 'open']) expect((await changeStatus(concierge, requestId, refused)).statusCode).toBe(409);

    const reopened = await changeStatus(concierge, requestId, 'in_progress');
    expect(consoleRequestResponse.parse(reopened.json()).request).toMatchObject({ status: 'in_progress', closed_at: null });
    expect((await changeStatus(concierge, requestId, 'bogus')).statusCode).toBe(422);

    const subjects = (await outboxTo(context, employee.email)).map((mail) => mail.subject).reverse();
    expect(subjects).toEqual([
      'Your request "Lifecycle" is In Progress',
      'Your request "Lifecycle" is Completed',
      'Your request "Lifecycle" has been reopened',
    ]);
    const history = (await viewRequest(concierge, requestId)).thread.flatMap((entry) =>
      entry.kind === 'event' && entry.event === 'status_changed' ? [`${entry.from_status}->${entry.to_status}`] : [],
    );
    expect(history).toEqual(['open->in_progress', 'in_progress->closed', 'closed->in_progress']);
  });
});

describe('replies and internal notes', () => {
  it('stores a Markdown reply as sanitised HTML, shows it to the employee and, unread, e-mails them the link', async () => {
    const employee = await createPerson(context, 'employee', { firstName: 'Erin' });
    const concierge = await createPerson(context, 'concierge', { firstName: 'Casey' });
    const requestId = await createRequest(context, employee, { name: 'Walk the dog' });

    const markdown = 'I found **three** walkers.\n\n<script>alert(1)</script><img src=x onerror="alert(2)">\n\n[Profile](javascript:alert(3)) and [site](https://walkers.example)';
    const response = await reply(concierge, requestId, markdown);
    expect(response.statusCode, response.body).toBe(201);
    const [message] = (await employeeView(employee, requestId)).messages;
    expect(message.source).toBe('life_concierge');
    expect(message.source_name).toBe('Casey');
    expect(message.body_html).toContain('<strong>three</strong>');
    expect(message.body_html).toContain('<a href="https://walkers.example" target="_blank" rel="noopener noreferrer nofollow">site</a>');
    expect(message.body_html).not.toMatch(/<script|onerror|javascript:|<img/i);
    // The status does not change with a reply.
    expect((await employeeView(employee, requestId)).status).toBe('open');

    // The e-mail waits for the reply to stay unread a while (tests/server/unread.test.ts tells the rest).
    expect(await outboxTo(context, employee.email)).toEqual([]);
    await sendDueReplyEmails(context.db, { appUrl: context.config.APP_URL, now: new Date(Date.now() + context.config.REPLY_EMAIL_DELAY_MS + 1000) });
    const [mail] = await outboxTo(context, employee.email);
    expect(mail.subject).toBe('New reply on your request "Walk the dog"');
    expect(mail.text).toContain('Hi Erin,');
    expect(mail.links).toEqual([`${context.config.APP_URL}/requests/${requestId}`]);
    // The e-mail names the request; the reply itself is read behind sign-in.
    expect(mail.text).not.toContain('three');
  });

  it('sends one staff attachment the employee may open, and nobody else', async () => {
    const employee = await createPerson(context);
    const stranger = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, employee);
    const key = await uploadFile(context, concierge, { filename: 'quote.pdf', bytes: Buffer.from('%PDF-1.4\n%%EOF\n'), requestId });

    const two = await reply(concierge, requestId, 'Two files', [key, key]);
    expect(two.statusCode).toBe(422);
    expect(errorOf(two)).toContain(MESSAGE_ERRORS.tooManyFiles);
    const employeesFile = await uploadFile(context, employee);
    expect((await reply(concierge, requestId, 'Not mine to send', [employeesFile])).statusCode).toBe(422);

    expect((await reply(concierge, requestId, 'Here is the quote', [key])).statusCode).toBe(201);
    const [message] = (await employeeView(employee, requestId)).messages;
    expect(message.attachment_keys).toEqual([key]);
    expect((await expiringUrl(context, employee, key)).statusCode).toBe(200);
    expect((await expiringUrl(context, stranger, key)).statusCode).toBe(404);
  });

  it('refuses a blank reply, and one that is nothing once sanitised', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, employee);
    for (const markdown of ['   ', '<script>alert(1)</script>']) {
      const response = await reply(concierge, requestId, markdown);
      expect(response.statusCode, markdown).toBe(422);
      expect(errorOf(response)).toContain(MESSAGE_ERRORS.blank);
    }
    expect((await employeeView(employee, requestId)).messages).toEqual([]);
    expect(await outboxTo(context, employee.email)).toEqual([]);
  });

  it('keeps internal notes among staff: in the console thread, never for the employee, never e-mailed', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge', { firstName: 'Nora', lastName: 'Notes' });
    const requestId = await createRequest(context, employee, { status: 'in_progress', assigneeUserId: concierge.id });

    const noted = await post(context, concierge, consoleUrl(`/requests/${requestId}/notes`), {
      body_markdown: 'Employee prefers *mornings*. SECRET-NOTE',
    });
    expect(noted.statusCode, noted.body).toBe(201);
    const thread = consoleRequestResponse.parse(noted.json()).request.thread;
    expect(thread).toEqual([
      expect.objectContaining({ kind: 'note', author_name: 'Nora Notes', body_html: '<p>Employee prefers <em>mornings</em>. SECRET-NOTE</p>' }),
    ]);

    expect((await get(context, employee, `/api/v1/requests/${requestId}`)).body).not.toContain('SECRET-NOTE');
    expect((await get(context, employee, '/api/v1/requests/in_progress')).body).not.toContain('SECRET-NOTE');
    expect(await outboxTo(context, employee.email)).toEqual([]);
  });

  it('previews Markdown exactly as a reply would be stored', async () => {
    const concierge = await createPerson(context, 'concierge');
    const response = await post(context, concierge, consoleUrl('/preview'), { body_markdown: '# Hi\n<b onclick="x()">bold</b>' });
    expect(response.json()).toEqual({ body_html: '<h1>Hi</h1>\n<p><b>bold</b></p>' });
  });
});
