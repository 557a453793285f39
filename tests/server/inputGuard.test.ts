import { describe, expect, it } from 'vitest';
import { INPUT_PROBLEMS, MAX_INPUT_DEPTH, findInputProblem } from '../../server/plugins/inputGuard.ts';
import { suiteContext } from './harness.ts';
import { type Person, createPerson, createRequest, employeeMessage } from './requests.helpers.ts';

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

/** JSON text `depth` objects deep: as text, because the test's own JSON.stringify would overflow its stack first. */
const nestedJson = (depth: number) => `${'{"data":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`;

const errorReport = (data: unknown) => ({
  analytics_id: 'web',
  name: 'Error',
  message: 'Boom',
  path: '/dashboard',
  response: { status: 500, status_text: 'Server Error', data },
  occurred_at: new Date().toISOString(),
});

describe('input the database cannot store is a 422 naming the field (issue 9 point 2)', () => {
  let employee: Person;
  let admin: Person;
  let requestId: number;
  const send = (person: Person | null, method: 'GET' | 'POST', url: string, payload?: object | string) =>
    context.app.inject({ method, url, payload, headers: { ...person?.headers, 'content-type': 'application/json' } });

  it('refuses NUL bytes, unpaired surrogates and deep nesting wherever they come in', async () => {
    employee = await createPerson(context, 'employee', { companyName: 'Guarded Inc' });
    admin = await createPerson(context, 'admin');
    requestId = await createRequest(context, employee);
    const deepReport = JSON.stringify(errorReport('DEEP')).replace('"DEEP"', nestedJson(5_000));
    const cases: Array<[Person | null, 'GET' | 'POST', string, object | string | undefined, string, string]> = [
      [null, 'POST', '/api/v1/users/sign_up', { user: { email: 'a@b.test', password: 'secret-1', name: 'A\u0000', last_name: 'B' } }, 'user.name', INPUT_PROBLEMS.nul],
      [null, 'POST', '/api/v1/users/sign_up', { user: { email: 'a@b.test', password: 'secret-1', name: 'A', last_name: 'B', company_slug: '\u0000' } }, 'user.company_slug', INPUT_PROBLEMS.nul],
      [employee, 'POST', `/api/v1/requests/${requestId}/messages`, employeeMessage('Hi\u0000'), 'message.body', INPUT_PROBLEMS.nul],
      [employee, 'POST', '/api/v1/uploads/presigned_url', { upload: { filename: 'a\u0000.pdf' } }, 'upload.filename', INPUT_PROBLEMS.nul],
      [employee, 'POST', '/api/v1/onboarding_answers', { answers: [{ answer_id: 611, value: [{ answer_id: 612, value: 'Main St\u0000' }] }] }, 'answers.0.value.0.value', INPUT_PROBLEMS.nul],
      [admin, 'POST', `/api/v1/console/requests/${requestId}/notes`, { body_markdown: 'x\u0000' }, 'body_markdown', INPUT_PROBLEMS.nul],
      [employee, 'GET', '/api/v1/offerings?q=%00', undefined, 'q', INPUT_PROBLEMS.nul],
      [employee, 'GET', '/api/v1/uploads/expiring_url?key=%00', undefined, 'key', INPUT_PROBLEMS.nul],
      [null, 'POST', '/api/v1/analytics/errors', { ...errorReport(null), message: 'x\ud800' }, 'message', INPUT_PROBLEMS.loneSurrogate],
      [null, 'POST', '/api/v1/analytics/errors', deepReport, `response.data${'.data'.repeat(MAX_INPUT_DEPTH - 2)}`, INPUT_PROBLEMS.tooDeep],
    ];
    for (const [person, method, url, payload, field, problem] of cases) {
      const response = await send(person, method, url, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(422);
      expect(response.json()).toEqual({ error: `${field}: ${problem}`, fields: { [field]: problem } });
    }
  });

  it('refuses ids no database row can have, naming the field', async () => {
    const tooBig = 2 ** 31;
    const cases: Array<[Person, string, object | undefined, string]> = [
      [admin, `/api/v1/console/requests/${requestId}/assign`, { assignee_id: tooBig }, 'assignee_id'],
      [employee, '/api/v1/uploads/presigned_url', { upload: { filename: 'a.pdf' }, request_id: tooBig }, 'request_id'],
      [employee, `/api/v1/requests/${tooBig}/messages`, employeeMessage('Hi'), 'id'],
    ];
    for (const [person, url, payload, field] of cases) {
      const response = await send(person, 'POST', url, payload);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(422);
      expect(response.json().fields).toHaveProperty(field);
    }
  });

  it('lets well-formed text through: emoji, accents and every other plane', async () => {
    const response = await send(employee, 'POST', `/api/v1/requests/${requestId}/messages`, employeeMessage('Café 😀 𝄞'));
    expect(response.statusCode, response.body).toBe(201);
  });
});

describe('findInputProblem', () => {
  it('names keys as well as values, and walks a million levels without recursing', () => {
    expect(findInputProblem({ user: { 'na\u0000me': 'x' } }, 'body')).toEqual({ field: 'user', problem: INPUT_PROBLEMS.nul });
    expect(findInputProblem('\udc00', 'body')).toEqual({ field: 'body', problem: INPUT_PROBLEMS.loneSurrogate });
    expect(findInputProblem(JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`), 'body')?.problem).toBe(INPUT_PROBLEMS.tooDeep);
    expect(findInputProblem(Buffer.from([0, 0xd8]), 'body')).toBeNull();
    expect(findInputProblem({ ok: ['Ünïcødé 😀'], n: 1, b: null }, 'body')).toBeNull();
  });
});
