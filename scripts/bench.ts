/**
 * `npm run bench`: the server time of "answer a question -> get the next one" in the survey conversation, through
 * app.inject on a real app (routes, validation, authentication, database), on PGlite and, when TEST_DATABASE_URL
 * is set, PostgreSQL. Each engine runs in its own process on a fresh database (tests/server/harness.ts).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { InjectOptions } from 'fastify';
import { seedSurveyCatalogue } from '../server/db/seed/surveyCatalogue.ts';
import { AUTHORIZATION_HEADER } from '../src/contract/common.ts';
import { type NextScreenItem, beginSurveyResponse, nextScreenItemResponse } from '../src/contract/surveys.ts';
import { type TestContext, createTestContext } from '../tests/server/harness.ts';

const MEASURED_ANSWERS = 200;
/** Answers before measuring: the first calls compile schemas and fill caches. */
const WARM_UP_ANSWERS = 21;
/** "Anything else": every question type, so every answer check is measured. */
const TEMPLATE_ID = 1001;

type Engine = 'pglite' | 'postgres';

interface Result {
  engine: Engine;
  answers: number;
  /** Milliseconds: answer + next question, then each call alone. */
  round: { median: number; p95: number };
  answer: { median: number; p95: number };
  next: { median: number; p95: number };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

function summary(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
}

async function call(context: TestContext, request: InjectOptions, status: number) {
  const response = await context.app.inject(request);
  if (response.statusCode !== status) {
    throw new Error(`${String(request.method)} ${String(request.url)}: ${response.statusCode} ${response.body}`);
  }
  return response;
}

/** A new employee through the real sign-up and sign-in; their authorization header. */
async function signedInEmployee(context: TestContext): Promise<Record<string, string>> {
  const user = { email: 'bench@example.com', password: 'bench-password' };
  await call(context, { method: 'POST', url: '/api/v1/users/sign_up', payload: { user: { ...user, name: 'Bench', last_name: 'Mark' } } }, 201);
  const signIn = await call(context, { method: 'POST', url: '/api/v1/users/sign_in', payload: { user } }, 200);
  return { [AUTHORIZATION_HEADER]: String(signIn.headers[AUTHORIZATION_HEADER]) };
}

function answerFor(item: NextScreenItem, uploadKey: string): string {
  switch (item.question.type) {
    case 'PhoneNumberInput':
      return '(415) 555-0134';
    case 'ManagedEmailInput':
      return 'bench@example.com';
    case 'SingleSelectInput':
      return item.question.select_options?.[0]?.value ?? '';
    case 'SingleUploadInput':
      return uploadKey;
    default:
      return 'A realistic answer of a sentence or two, like the ones people type.';
  }
}

async function measure(engine: Engine): Promise<Result> {
  const context = await createTestContext();
  try {
    await seedSurveyCatalogue(context.db);
    const headers = await signedInEmployee(context);
    const presign = await call(
      context,
      { method: 'POST', url: '/api/v1/uploads/presigned_url', headers, payload: { upload: { filename: 'receipt.pdf' } } },
      200,
    );
    const uploadKey = (presign.json() as { key: string }).key;
    const nextItem = async (sessionId: number) => {
      const response = await call(context, { method: 'GET', url: `/api/v1/user_request_surveys/${sessionId}/next_screen_item`, headers }, 200);
      return nextScreenItemResponse.parse(response.json()).next_item;
    };

    const rounds: number[] = [];
    const answers: number[] = [];
    const nexts: number[] = [];
    let given = 0;
    while (rounds.length < MEASURED_ANSWERS) {
      const begin = await call(
        context,
        { method: 'POST', url: `/api/v1/request_surveys/${TEMPLATE_ID}/user_request_surveys`, headers, payload: { for_alpha: true } },
        201,
      );
      const sessionId = beginSurveyResponse.parse(begin.json()).user_request_survey.id;
      let item = await nextItem(sessionId);
      while (item && rounds.length < MEASURED_ANSWERS) {
        const payload = {
          user_request_answer: { object_satisfied_id: item.question.id, object_satisfied_type: 'Datum', value: answerFor(item, uploadKey) },
        };
        const started = performance.now();
        await call(context, { method: 'POST', url: `/api/v1/user_request_surveys/${sessionId}/user_request_answers`, headers, payload }, 200);
        const answered = performance.now();
        item = await nextItem(sessionId);
        const finished = performance.now();
        given += 1;
        if (given > WARM_UP_ANSWERS) {
          rounds.push(finished - started);
          answers.push(answered - started);
          nexts.push(finished - answered);
        }
      }
    }
    return { engine, answers: rounds.length, round: summary(rounds), answer: summary(answers), next: summary(nexts) };
  } finally {
    await context.close();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(10);

function printTable(results: readonly Result[]) {
  console.log(`\nSurvey conversation: answer -> next question, server time via app.inject (${WARM_UP_ANSWERS} warm-up answers not counted)\n`);
  console.log(`${'engine'.padEnd(10)}${'answers'.padStart(8)}${'median'.padStart(10)}${'p95'.padStart(10)}  |${'answer p50'.padStart(11)}${'next p50'.padStart(10)}`);
  for (const result of results) {
    console.log(
      `${result.engine.padEnd(10)}${String(result.answers).padStart(8)}${ms(result.round.median)}${ms(result.round.p95)}  |${ms(result.answer.median).padStart(11)}${ms(result.next.median)}`,
    );
  }
  console.log('');
}

const RESULT_PREFIX = 'BENCH_RESULT ';
const engineArgument = process.argv.indexOf('--engine');

if (engineArgument !== -1) {
  // A child run: one engine, the result as the last line of output.
  const engine = process.argv[engineArgument + 1] === 'postgres' ? 'postgres' : 'pglite';
  console.log(RESULT_PREFIX + JSON.stringify(await measure(engine)));
} else {
  const engines: Engine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const results = engines.map((engine): Result => {
    const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--engine', engine], {
      env: { ...process.env, TEST_DB_ENGINE: engine },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = output.split('\n').find((candidate) => candidate.startsWith(RESULT_PREFIX));
    if (!line) throw new Error(`The ${engine} run printed no result:\n${output}`);
    return JSON.parse(line.slice(RESULT_PREFIX.length)) as Result;
  });
  printTable(results);
  if (!process.env.TEST_DATABASE_URL) console.log('PostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to measure it too.\n');
}
