import { type Placeholder, and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  type NextScreenItem,
  type RequestSurvey,
  type SelectOption,
  type SubmittedRequest,
  type SurveyCategory,
  checkAnswer,
  formatPhone,
} from '../../../src/contract/surveys.ts';
import { type Database, type Executor, preparedFor } from '../../db/client.ts';
import { requests, uploads } from '../../db/schema.ts';
import {
  requestSurveys,
  surveyCategories,
  surveyQuestions,
  userRequestAnswers,
  userRequestSurveys,
} from '../../db/surveys.schema.ts';
import type { FileStorage } from '../ports/fileStorage.ts';
import { readContactProfile } from './onboarding.ts';
import { findSubmittedRequest } from '../requests/requests.ts';
import { confirmStoredUpload } from '../uploads/uploads.ts';
import { conflict, notFound, unprocessable } from '../shared/userFacingError.ts';
import { startServiceClock } from '../sla/serviceClock.ts';

/**
 * The survey engine: the catalogue as the API lists it, and a user's survey session from its first question to the
 * Request it becomes. Every session read and write is scoped to its owner; someone else's session is "not found".
 */

export const SURVEY_NOT_FOUND = 'Survey not found';
export const TEMPLATE_NOT_FOUND = 'Request template not found';
export const CATEGORY_NOT_FOUND = 'Category not found';
export const ALREADY_SUBMITTED = 'This request has already been submitted.';
export const NOT_IN_SURVEY = 'This question is not part of this request.';
export const OUT_OF_ORDER = 'Please answer the questions in order.';
export const UPLOAD_NOT_FOUND = 'That file was not found. Please upload it again.';

// ---------------------------------------------------------------------------------------------------------------
// The catalogue
// ---------------------------------------------------------------------------------------------------------------

const categoryColumns = { id: surveyCategories.id, name: surveyCategories.name, image_url: surveyCategories.imageUrl };

export async function listSurveyCategories(db: Executor): Promise<SurveyCategory[]> {
  return db.select(categoryColumns).from(surveyCategories).orderBy(asc(surveyCategories.id));
}

export async function findSurveyCategory(db: Executor, id: number): Promise<SurveyCategory | null> {
  const [row] = await db.select(categoryColumns).from(surveyCategories).where(eq(surveyCategories.id, id));
  return row ?? null;
}

/** The categories with these slugs, in the order of `slugs`. */
export async function surveyCategoriesBySlug(db: Executor, slugs: readonly string[]): Promise<SurveyCategory[]> {
  if (slugs.length === 0) return [];
  const rows = await db
    .select({ ...categoryColumns, slug: surveyCategories.slug })
    .from(surveyCategories)
    .where(inArray(surveyCategories.slug, [...slugs]));
  return slugs.flatMap((slug) => rows.filter((row) => row.slug === slug).map(({ id, name, image_url }) => ({ id, name, image_url })));
}

/**
 * The for_alpha templates of these categories, most asked-for first, keyed by category id; at most `perCategory`
 * each when given.
 */
export async function alphaTemplatesByCategory(
  db: Executor,
  categoryIds: readonly number[],
  perCategory = Number.POSITIVE_INFINITY,
): Promise<Map<number, RequestSurvey[]>> {
  const byCategory = new Map<number, RequestSurvey[]>(categoryIds.map((id) => [id, []]));
  if (categoryIds.length === 0) return byCategory;
  const rows = await db
    .select({
      id: requestSurveys.id,
      name: requestSurveys.name,
      slug: requestSurveys.slug,
      for_alpha: requestSurveys.forAlpha,
      category: surveyCategories.name,
      categoryId: surveyCategories.id,
    })
    .from(requestSurveys)
    .innerJoin(surveyCategories, eq(surveyCategories.id, requestSurveys.categoryId))
    .where(and(inArray(requestSurveys.categoryId, [...categoryIds]), eq(requestSurveys.forAlpha, true)))
    .orderBy(asc(requestSurveys.categoryId), asc(requestSurveys.position));
  for (const { categoryId, ...template } of rows) {
    const list = byCategory.get(categoryId);
    if (list && list.length < perCategory) list.push(template);
  }
  return byCategory;
}

// ---------------------------------------------------------------------------------------------------------------
// A survey session
// ---------------------------------------------------------------------------------------------------------------

/**
 * Begins a survey session of `userId` on the current version of a template's questions, which the session keeps.
 * With `forAlpha` only templates offered by this app may be begun; the others, like unknown ids, are not found.
 */
export async function beginSurvey(
  db: Database,
  userId: number,
  { requestSurveyId, forAlpha }: { requestSurveyId: number; forAlpha: boolean },
): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    // Shared with other beginners, exclusive of an admin's questions edit: the edit sees every session begun.
    const [template] = await tx
      .select({ id: requestSurveys.id, version: requestSurveys.version })
      .from(requestSurveys)
      .where(and(eq(requestSurveys.id, requestSurveyId), forAlpha ? eq(requestSurveys.forAlpha, true) : undefined))
      .for('share');
    if (!template) throw notFound(TEMPLATE_NOT_FOUND);
    const [session] = await tx
      .insert(userRequestSurveys)
      .values({ userId, requestSurveyId, templateVersion: template.version })
      .returning({ id: userRequestSurveys.id });
    return session;
  });
}

interface SessionQuestion {
  id: number;
  position: number;
  label: string;
  type: (typeof surveyQuestions.$inferSelect)['type'];
  optional: boolean;
  prefill: (typeof surveyQuestions.$inferSelect)['prefill'];
  selectOptions: SelectOption[] | null;
  answerId: number | null;
  /** '' when skipped; null while unanswered. */
  answer: string | null;
}

interface SessionState {
  requestSurveyId: number;
  submitted: boolean;
  /** In order. */
  questions: SessionQuestion[];
}

function selectSession(db: Executor, userId: number | Placeholder, sessionId: number | Placeholder) {
  return db
    .select({
      requestSurveyId: userRequestSurveys.requestSurveyId,
      submittedAt: userRequestSurveys.submittedAt,
      id: surveyQuestions.id,
      position: surveyQuestions.position,
      label: surveyQuestions.label,
      type: surveyQuestions.type,
      optional: surveyQuestions.optional,
      prefill: surveyQuestions.prefill,
      selectOptions: surveyQuestions.selectOptions,
      answerId: userRequestAnswers.id,
      answer: userRequestAnswers.value,
    })
    .from(userRequestSurveys)
    .innerJoin(
      surveyQuestions,
      and(
        eq(surveyQuestions.requestSurveyId, userRequestSurveys.requestSurveyId),
        eq(surveyQuestions.version, userRequestSurveys.templateVersion),
      ),
    )
    .leftJoin(
      userRequestAnswers,
      and(eq(userRequestAnswers.userRequestSurveyId, userRequestSurveys.id), eq(userRequestAnswers.questionId, surveyQuestions.id)),
    )
    .where(and(eq(userRequestSurveys.id, sessionId), eq(userRequestSurveys.userId, userId)))
    .orderBy(asc(surveyQuestions.position));
}

/** Read at every step of the conversation: prepared once per database. */
const sessionRead = preparedFor((db) =>
  selectSession(db, sql.placeholder('userId'), sql.placeholder('sessionId')).prepare('load_survey_session'),
);

/**
 * The session with its questions and their answers, in one query; null when there is no such session of this
 * user. `lock` takes a row lock on the session: 'share' for answering, 'update' for submitting, so an answer can
 * never land after the submit that made the Request.
 */
async function loadSession(
  db: Executor,
  userId: number,
  sessionId: number,
  lock?: 'share' | 'update',
): Promise<SessionState | null> {
  const rows = lock
    ? await selectSession(db, userId, sessionId).for(lock, { of: userRequestSurveys })
    : await sessionRead(db).execute({ userId, sessionId });
  const [first] = rows;
  if (!first) return null;
  return {
    requestSurveyId: first.requestSurveyId,
    submitted: first.submittedAt !== null,
    questions: rows.map(({ requestSurveyId: _template, submittedAt: _submitted, ...question }) => question),
  };
}

async function requireSession(db: Executor, userId: number, sessionId: number, lock?: 'share' | 'update') {
  const session = await loadSession(db, userId, sessionId, lock);
  if (!session) throw notFound(SURVEY_NOT_FOUND);
  return session;
}

const isPending = (question: SessionQuestion) => question.answer === null;

/**
 * The first question, in order, that is neither answered nor skipped, with its pre-filled initial value; null when
 * every question is, or once the survey is submitted.
 */
export async function nextScreenItem(db: Executor, userId: number, sessionId: number): Promise<NextScreenItem | null> {
  const session = await requireSession(db, userId, sessionId);
  if (session.submitted) return null;
  const pending = session.questions.filter(isPending);
  const [current] = pending;
  if (!current) return null;
  const universalAnswer = current.prefill ? (await readContactProfile(db, userId))[current.prefill] : null;
  return {
    id: current.id,
    question: {
      id: current.id,
      label: current.label,
      type: current.type,
      optional: current.optional,
      ...(current.selectOptions ? { select_options: current.selectOptions } : {}),
    },
    universal_answer: universalAnswer,
    optional: current.optional,
    last_question: pending.length === 1,
    position: session.questions.indexOf(current) + 1,
    question_count: session.questions.length,
  };
}

/**
 * Answers (or, with an empty value, skips) one question of the session, replacing an earlier answer. The question
 * must be the current one or an earlier one; the value is checked by the question's type; an upload must be one of
 * the user's own, stored and checked.
 */
export async function answerQuestion(
  db: Database,
  storage: FileStorage,
  userId: number,
  sessionId: number,
  { questionId, value }: { questionId: number; value: string | null },
): Promise<{ id: number; questionId: number; value: string }> {
  return db.transaction(async (tx) => {
    const session = await requireSession(tx, userId, sessionId, 'share');
    if (session.submitted) throw conflict(ALREADY_SUBMITTED);
    const question = session.questions.find((candidate) => candidate.id === questionId);
    if (!question) throw unprocessable(NOT_IN_SURVEY);
    const current = session.questions.find(isPending);
    if (current && question.position > current.position) throw unprocessable(OUT_OF_ORDER);

    const check = checkAnswer(
      { type: question.type, optional: question.optional, select_options: question.selectOptions ?? undefined },
      value,
    );
    if (!check.ok) throw unprocessable(check.error);
    if (question.type === 'SingleUploadInput' && !check.skipped) {
      const [upload] = await tx
        .select()
        .from(uploads)
        .where(and(eq(uploads.key, check.value), eq(uploads.ownerUserId, userId)));
      // Only a file whose bytes arrived and passed the image/PDF check may answer: staff must be able to open it.
      const stored = upload && (await confirmStoredUpload(tx, storage, upload));
      if (!stored) throw unprocessable(UPLOAD_NOT_FOUND);
    }

    const now = new Date();
    const [answer] = await tx
      .insert(userRequestAnswers)
      .values({ userRequestSurveyId: sessionId, questionId, value: check.value, updatedAt: now })
      .onConflictDoUpdate({
        target: [userRequestAnswers.userRequestSurveyId, userRequestAnswers.questionId],
        set: { value: check.value, updatedAt: now },
      })
      .returning({ id: userRequestAnswers.id, value: userRequestAnswers.value });
    return { id: answer.id, questionId, value: answer.value };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Submitting: the Request
// ---------------------------------------------------------------------------------------------------------------

/**
 * How an answer of a formatted type reads to a person: an option by its label, a phone formatted, a file by its name
 * (else its key). Null for free text, which each reader lays out itself. The request details and the console's
 * survey answers both read answers this way.
 */
export function formattedAnswer(
  question: Pick<SessionQuestion, 'type' | 'selectOptions'>,
  answer: string,
  fileName: string | null | undefined,
): string | null {
  switch (question.type) {
    case 'SingleSelectInput':
      return question.selectOptions?.find((option) => option.value === answer)?.label ?? answer;
    case 'PhoneNumberInput':
      return formatPhone(answer);
    case 'SingleUploadInput':
      return fileName ?? answer;
    default:
      return null;
  }
}

/** How an answer reads in the request details: formatted by its type, free text on one line. */
function displayAnswer(question: SessionQuestion, answer: string, fileNames: ReadonlyMap<string, string>): string {
  return (
    formattedAnswer(question, answer, fileNames.get(answer)) ??
    answer
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean)
      .join(' / ')
  );
}

/**
 * The request details a concierge reads: one "Question: answer" line per answered question, in order; skipped and
 * unreached optional questions left out. A question that ends in "?" or ":" is not given a second colon.
 */
export function requestDetails(questions: readonly SessionQuestion[], fileNames: ReadonlyMap<string, string>): string {
  return questions
    .filter((question) => question.answer)
    .map((question) => {
      const separator = /[?:]$/.test(question.label) ? ' ' : ': ';
      return `${question.label}${separator}${displayAnswer(question, question.answer ?? '', fileNames)}`;
    })
    .join('\n');
}

async function describeSubmittedRequest(db: Executor, requestId: number): Promise<SubmittedRequest> {
  const submitted = await findSubmittedRequest(db, requestId);
  if (!submitted) throw new Error(`describeSubmittedRequest: no request ${requestId}`);
  return submitted;
}

/**
 * Turns a complete session into an open Request named after its template, with the answers as details, and ties
 * its uploads to it so the concierge can open them. Idempotent: a session already submitted, even by a concurrent
 * call (the session row is locked, and requests.user_request_survey_id is unique), gives back its one Request.
 */
export async function submitSurvey(db: Database, userId: number, sessionId: number, now = new Date()): Promise<SubmittedRequest> {
  const requestId = await db.transaction(async (tx) => {
    const session = await requireSession(tx, userId, sessionId, 'update');
    const [existing] = await tx
      .select({ id: requests.id })
      .from(requests)
      .where(eq(requests.userRequestSurveyId, sessionId));
    if (existing) return existing.id;

    const missing = session.questions.find((question) => !question.optional && !question.answer);
    if (missing) throw unprocessable(`Please answer "${missing.label}" before submitting.`);

    const uploadKeys = session.questions
      .filter((question) => question.type === 'SingleUploadInput' && question.answer)
      .map((question) => question.answer ?? '');
    const files =
      uploadKeys.length === 0
        ? []
        : await tx
            .select({ key: uploads.key, filename: uploads.filename })
            .from(uploads)
            .where(and(inArray(uploads.key, uploadKeys), eq(uploads.ownerUserId, userId)));
    const [template] = await tx
      .select({ name: requestSurveys.name, categoryId: requestSurveys.categoryId })
      .from(requestSurveys)
      .where(eq(requestSurveys.id, session.requestSurveyId));

    const [request] = await tx
      .insert(requests)
      .values({
        userId,
        name: template.name,
        status: 'open',
        details: requestDetails(session.questions, new Map(files.map((file) => [file.key, file.filename]))),
        surveyCategoryId: template.categoryId,
        userRequestSurveyId: sessionId,
        issuedAt: now,
        updatedAt: now,
      })
      .returning({ id: requests.id });
    // The turnaround promised from the moment it is filed (issue 28).
    await startServiceClock(tx, { requestId: request.id, ownerUserId: userId, now });
    await tx.update(userRequestSurveys).set({ submittedAt: now }).where(eq(userRequestSurveys.id, sessionId));
    if (uploadKeys.length > 0) {
      await tx
        .update(uploads)
        .set({ requestId: request.id })
        .where(and(inArray(uploads.key, uploadKeys), eq(uploads.ownerUserId, userId), isNull(uploads.requestId)));
    }
    return request.id;
  });
  return describeSubmittedRequest(db, requestId);
}

