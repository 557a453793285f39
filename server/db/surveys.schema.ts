import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { QUESTION_PREFILLS, QUESTION_TYPES } from '../../src/contract/surveys.ts';
import { uploads, users } from './schema.ts';

/**
 * The survey catalogue (reference data loaded from server/db/seed/surveys/) and what users do with it: survey
 * sessions, their answers, and the onboarding answers that pre-fill later surveys.
 */

/** The column takes exactly the question types the API contract knows. */
export const questionType = pgEnum('question_type', QUESTION_TYPES);

/** What a question's initial value (universal_answer) is taken from. */
export const questionPrefill = pgEnum('question_prefill', QUESTION_PREFILLS);

export const surveyCategories = pgTable('survey_categories', {
  /** Explicit, stable ids from the catalogue files; the display order too. */
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  imageUrl: text('image_url').notNull(),
  /** Set when the image was uploaded in the admin area; then image_url is its catalogueImagePath. */
  imageUploadKey: text('image_upload_key').references((): AnyPgColumn => uploads.key, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/** A request template (SPEC §3 Request survey). */
export const requestSurveys = pgTable(
  'request_surveys',
  {
    /** Explicit, stable ids from the catalogue files (720 and 603 are named by the product). */
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    /** Null for a template that belongs to no category, such as the onboarding intro. */
    categoryId: integer('category_id').references(() => surveyCategories.id, { onDelete: 'restrict' }),
    /** Offered by this app; the others are never listed nor begun by it. */
    forAlpha: boolean('for_alpha').notNull().default(true),
    /** Order within the category: the most asked-for first. */
    position: integer('position').notNull(),
    /**
     * The version of its questions that new sessions get. Once a session has begun on a version, its questions are
     * never changed: an edit makes the next version, and the session keeps its own.
     */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
  },
  (table) => [index('request_surveys_category_idx').on(table.categoryId, table.position)],
);

export interface SelectOption {
  label: string;
  value: string;
}

/** One question of a template, asked on its own screen; its id is the `object_satisfied_id` of an answer. */
export const surveyQuestions = pgTable(
  'survey_questions',
  {
    id: serial('id').primaryKey(),
    requestSurveyId: integer('request_survey_id')
      .notNull()
      .references(() => requestSurveys.id, { onDelete: 'cascade' }),
    /** The template version this question belongs to (request_surveys.version). */
    version: integer('version').notNull().default(1),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    type: questionType('type').notNull(),
    optional: boolean('optional').notNull().default(false),
    prefill: questionPrefill('prefill'),
    /** SingleSelectInput only. */
    selectOptions: jsonb('select_options').$type<SelectOption[]>(),
  },
  (table) => [unique('survey_questions_position_unique').on(table.requestSurveyId, table.version, table.position)],
);

/** A user working through a template (SPEC §3 User request survey); the Request it became points back to it. */
export const userRequestSurveys = pgTable(
  'user_request_surveys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestSurveyId: integer('request_survey_id')
      .notNull()
      .references(() => requestSurveys.id, { onDelete: 'restrict' }),
    /** The template's version when the session began: its questions are the session's, whatever edits come later. */
    templateVersion: integer('template_version').notNull().default(1),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('user_request_surveys_user_idx').on(table.userId)],
);

export const userRequestAnswers = pgTable(
  'user_request_answers',
  {
    id: serial('id').primaryKey(),
    userRequestSurveyId: integer('user_request_survey_id')
      .notNull()
      .references(() => userRequestSurveys.id, { onDelete: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => surveyQuestions.id, { onDelete: 'cascade' }),
    /** The normalised answer; '' when an optional question was skipped. An upload answer holds the upload key. */
    value: text('value').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // One answer per question and session: answering again replaces it.
  (table) => [unique('user_request_answers_question_unique').on(table.userRequestSurveyId, table.questionId)],
);

/**
 * What the user told us during onboarding (SPEC §3 Onboarding answers), one row per answer id: 'true' or 'false'
 * for the about-you choices, the text for phone, e-mail and each address part. Surveys pre-fill from it. (Text,
 * not jsonb: drizzle reads a jsonb string of digits, such as a phone, back as a number.)
 */
export const onboardingAnswers = pgTable(
  'onboarding_answers',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    answerId: integer('answer_id').notNull(),
    value: text('value').notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.answerId] })],
);
