import * as z from 'zod/mini';
import { dbId } from './common.ts';

/**
 * SPEC §3 and §7 "Requests and surveys": request categories, request templates (request surveys), the one-question-
 * at-a-time survey conversation, its answers and submission, and the onboarding answers. Parsed by the server on
 * the way in and out, and by src/services on the way back.
 *
 * Status codes: every call answers 200, except beginning a survey (201, a new survey session is created). Errors
 * are `errorBody` (src/contract/common.ts): 404 for an unknown id or someone else's survey session, 409 when a
 * submitted survey is answered again, 422 for an answer or onboarding value that breaks a rule of SPEC §5.
 */

// ---------------------------------------------------------------------------------------------------------------
// Limits and question types
// ---------------------------------------------------------------------------------------------------------------

export const QUESTION_TYPES = [
  'TextInput',
  'MultilineTextInput',
  'PhoneNumberInput',
  'ManagedEmailInput',
  'SingleSelectInput',
  'SingleUploadInput',
] as const;
export const questionType = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof questionType>;

/** What a question's initial value can be taken from, and the one question type each source can fill. */
export const PREFILL_TYPES = {
  full_name: 'TextInput',
  phone: 'PhoneNumberInput',
  email: 'ManagedEmailInput',
  address: 'MultilineTextInput',
} as const satisfies Record<string, QuestionType>;
export type QuestionPrefill = keyof typeof PREFILL_TYPES;
export const QUESTION_PREFILLS = Object.keys(PREFILL_TYPES) as [QuestionPrefill, ...QuestionPrefill[]];

export const TEXT_ANSWER_MAX = 500;
export const MULTILINE_ANSWER_MAX = 5000;

/** SPEC §1/§9 ids named by the product. */
export const BENEFITS_HELP_SURVEY_ID = 720;
export const ONBOARDING_INTRO_SURVEY_ID = 603;
/** SPEC §7/§9: suggested requests per category. */
export const MAX_SUGGESTED_REQUESTS_PER_CATEGORY = 3;

// ---------------------------------------------------------------------------------------------------------------
// Categories and templates
// ---------------------------------------------------------------------------------------------------------------

export const surveyCategory = z.object({
  id: z.number().check(z.int()),
  /** Display name: 'Car', 'Family', 'Finances', 'Home / Moving', 'Medical / Employer Benefits', 'Pet', 'Travel',
   * 'Wildcard'. Lower-cased, it is the category icon key of SPEC §5. */
  name: z.string(),
  image_url: z.string(),
});
export type SurveyCategory = z.infer<typeof surveyCategory>;

export const requestSurvey = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  slug: z.string(),
  for_alpha: z.boolean(),
  /** The category's display name; null for a template outside every category (the onboarding intro, 603). */
  category: z.nullable(z.string()),
});
export type RequestSurvey = z.infer<typeof requestSurvey>;

export const recommendedRequestCategory = z.extend(surveyCategory, {
  /** At most MAX_SUGGESTED_REQUESTS_PER_CATEGORY, all for_alpha, most asked-for first. */
  request_surveys: z.array(requestSurvey),
});
export type RecommendedRequestCategory = z.infer<typeof recommendedRequestCategory>;

/**
 * GET /api/v1/recommended_request_categories. The categories that fit the user's onboarding answers first (own a
 * home -> Home / Moving, own/lease a car -> Car, parent -> Family, pet -> Pet, partner -> Travel and Family), then
 * general ones (Finances, Medical / Employer Benefits, Wildcard) until there are at least 3. The Dashboard shows
 * the first 3.
 */
export const recommendedRequestCategoriesResponse = z.object({
  success: z.boolean(),
  recommended_request_categories: z.array(recommendedRequestCategory),
});
export type RecommendedRequestCategoriesResponse = z.infer<typeof recommendedRequestCategoriesResponse>;

/** GET /api/v1/survey_categories: every category, in catalogue order. */
export const surveyCategoriesResponse = z.object({ survey_categories: z.array(surveyCategory) });
export type SurveyCategoriesResponse = z.infer<typeof surveyCategoriesResponse>;

/** GET /api/v1/survey_categories/{id}/request_surveys: the category and its for_alpha templates, in order. */
export const categoryRequestSurveysResponse = z.object({
  survey_category: surveyCategory,
  request_surveys: z.array(requestSurvey),
});
export type CategoryRequestSurveysResponse = z.infer<typeof categoryRequestSurveysResponse>;

// ---------------------------------------------------------------------------------------------------------------
// The survey conversation
// ---------------------------------------------------------------------------------------------------------------

/**
 * POST /api/v1/request_surveys/{id}/user_request_surveys (201). With for_alpha true (the default, and what this
 * app sends) only a for_alpha template may be begun; any other id answers 404.
 */
export const beginSurveyRequest = z.object({ for_alpha: z._default(z.boolean(), true) });
export type BeginSurveyRequest = z.input<typeof beginSurveyRequest>;
export const beginSurveyResponse = z.object({
  success: z.boolean(),
  user_request_survey: z.object({ id: z.number().check(z.int()) }),
});
export type BeginSurveyResponse = z.infer<typeof beginSurveyResponse>;

export const selectOption = z.object({ label: z.string(), value: z.string() });
export type SelectOption = z.infer<typeof selectOption>;

export const question = z.object({
  /** The `object_satisfied_id` to answer it with. */
  id: z.number().check(z.int()),
  label: z.string(),
  type: questionType,
  optional: z.boolean(),
  /** SingleSelectInput only. */
  select_options: z.optional(z.array(selectOption)),
});
export type Question = z.infer<typeof question>;

/**
 * SPEC §3 Question item. One question per screen, so `id` (the screen item) equals `question.id`; `optional`
 * repeats `question.optional`.
 */
export const nextScreenItem = z.object({
  id: z.number().check(z.int()),
  question,
  /**
   * The initial value, from what the user already told us: their name, phone (onboarding or MFA phone, 10
   * digits), e-mail (preferred e-mail from onboarding, else the account's) or address (one line per part:
   * "line 1\nline 2\ncity, state postal code\ncountry"). Null when nothing is known.
   */
  universal_answer: z.nullable(z.string()),
  optional: z.boolean(),
  /** Answering (or skipping) this question completes the survey: the summary review comes next. */
  last_question: z.boolean(),
  /**
   * Not in SPEC §3 (issue 32): where the question stands in the survey, 1-based, and how many questions it has, for
   * 'Question 3 of 6'. Optional: an answer without them shows no progress line.
   */
  position: z.optional(z.number().check(z.int(), z.positive())),
  question_count: z.optional(z.number().check(z.int(), z.positive())),
});
export type NextScreenItem = z.infer<typeof nextScreenItem>;

/**
 * GET /api/v1/user_request_surveys/{id}/next_screen_item: the first question, in order, that is neither answered
 * nor skipped; null when there is none (the survey is complete, or submitted).
 */
export const nextScreenItemResponse = z.object({ next_item: z.nullable(nextScreenItem) });
export type NextScreenItemResponse = z.infer<typeof nextScreenItemResponse>;

/**
 * POST /api/v1/user_request_surveys/{id}/user_request_answers. `value`: text; a phone in 10 digits or masked; an
 * e-mail; one of the question's option values; the key of the caller's upload (POST /api/v1/uploads/presigned_url).
 * An empty value (or null) skips the question, which only an optional question allows. Answering again replaces
 * the answer. Questions are answered in order: the current one or any earlier one.
 */
export const userRequestAnswerRequest = z.object({
  user_request_answer: z.object({
    object_satisfied_id: dbId,
    object_satisfied_type: z.literal('Datum'),
    value: z.nullable(z.string().check(z.maxLength(MULTILINE_ANSWER_MAX * 2))),
  }),
});
export type UserRequestAnswerRequest = z.infer<typeof userRequestAnswerRequest>;
export const userRequestAnswerResponse = z.object({
  success: z.boolean(),
  user_request_answer: z.object({
    id: z.number().check(z.int()),
    object_satisfied_id: z.number().check(z.int()),
    /** As stored: trimmed; a phone as 10 digits; an e-mail lower-cased; '' for a skipped question. */
    value: z.string(),
  }),
});
export type UserRequestAnswerResponse = z.infer<typeof userRequestAnswerResponse>;

export const requestStatus = z.enum(['open', 'in_progress', 'closed']);

/** The Request a submitted survey became (SPEC §3 Request, without its message thread). */
export const submittedRequest = z.object({
  id: z.number().check(z.int()),
  external_id: z.string(),
  /** The template's name. */
  name: z.string(),
  status: requestStatus,
  issued_at: z.string(),
  created_at: z.string(),
  /** One "Question: answer" line per answered question, in order; skipped ones left out; files by name. */
  details: z.nullable(z.string()),
  survey_category_name: z.nullable(z.string()),
  survey_category_image_url: z.nullable(z.string()),
});
export type SubmittedRequest = z.infer<typeof submittedRequest>;

/**
 * POST /api/v1/user_request_surveys/{id}/submit (no body). Every required question must be answered (422 names
 * the first one missing). Idempotent: submitting again answers 200 with the same request.
 */
export const submitSurveyResponse = z.object({ success: z.boolean(), request: submittedRequest });
export type SubmitSurveyResponse = z.infer<typeof submitSurveyResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Onboarding answers (SPEC §3 ids)
// ---------------------------------------------------------------------------------------------------------------

export const ONBOARDING_ANSWER_IDS = {
  ownHome: 132,
  ownOrLeaseCar: 134,
  parent: 121,
  pet: 122,
  partner: 120,
  phone: 104,
  preferredEmail: 165,
  address: 611,
  addressLine1: 148,
  addressLine2: 149,
  city: 150,
  state: 151,
  postalCode: 311,
  country: 313,
} as const;

const ids = ONBOARDING_ANSWER_IDS;
export const ABOUT_YOU_ANSWER_IDS = [ids.ownHome, ids.ownOrLeaseCar, ids.parent, ids.pet, ids.partner] as const;
export const ADDRESS_PART_IDS = [ids.addressLine1, ids.addressLine2, ids.city, ids.state, ids.postalCode, ids.country] as const;
/** SPEC §5 Contact info: once any address part is filled, these are required (line 2 stays optional). */
export const REQUIRED_ADDRESS_PART_IDS = [ids.addressLine1, ids.city, ids.state, ids.postalCode, ids.country] as const;
export const ADDRESS_PART_MAX = 200;

const addressPart = z.object({
  answer_id: z.literal(ADDRESS_PART_IDS),
  value: z.string().check(z.maxLength(ADDRESS_PART_MAX)),
});

/**
 * One answer. About-you choices are booleans; phone (10 digits or masked) and preferred e-mail are strings, '' to
 * clear; the address (611) carries its parts, and replaces the whole saved address (an empty list clears it).
 */
export const onboardingAnswer = z.discriminatedUnion('answer_id', [
  z.object({ answer_id: z.literal(ABOUT_YOU_ANSWER_IDS), value: z.boolean() }),
  z.object({
    answer_id: z.literal([ids.phone, ids.preferredEmail]),
    value: z.string().check(z.maxLength(ADDRESS_PART_MAX)),
  }),
  z.object({
    answer_id: z.literal(ids.address),
    value: z.array(addressPart).check(z.maxLength(ADDRESS_PART_IDS.length)),
  }),
]);
export type OnboardingAnswer = z.infer<typeof onboardingAnswer>;

/**
 * POST /api/v1/onboarding_answers: saves (upserts) the given answers; `completed: true` (sent with the last step)
 * ends onboarding, so /users/current says onboarding_required false. Answers 200 `{ success: true }`.
 */
export const onboardingAnswersRequest = z.object({
  answers: z.array(onboardingAnswer).check(z.maxLength(20)),
  completed: z.optional(z.boolean()),
});
export type OnboardingAnswersRequest = z.infer<typeof onboardingAnswersRequest>;

/** GET /api/v1/onboarding_answers: what was saved, in the same shape (only answers that have a value). */
export const onboardingAnswersResponse = z.object({ answers: z.array(onboardingAnswer) });
export type OnboardingAnswersResponse = z.infer<typeof onboardingAnswersResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Answer rules shared by the survey view and the server
// ---------------------------------------------------------------------------------------------------------------

export const ANSWER_ERRORS = {
  required: 'Please answer this question; it cannot be skipped.',
  textTooLong: `Please keep your answer to ${TEXT_ANSWER_MAX} characters or fewer.`,
  multilineTooLong: `Please keep your answer to ${MULTILINE_ANSWER_MAX} characters or fewer.`,
  /** SPEC §5 MFA phone wording, used for every phone. */
  phone: 'Please enter a valid phone number',
  /** SPEC §5 sign-in wording, used for every e-mail. */
  email: 'Please enter a valid email address',
  option: 'Please choose one of the options.',
  upload: 'Please upload a file.',
} as const;

/** The 10 digits of a phone typed bare or masked ("(212) 555-1212", "212.555.1212"); null if it is not one. */
export function phoneDigits(value: string): string | null {
  if (!/^[\d\s().-]+$/.test(value)) return null;
  const digits = value.replace(/\D/g, '');
  return digits.length === 10 ? digits : null;
}

const emailAddress = z.email();

export type AnswerCheck = { ok: true; value: string; skipped: boolean } | { ok: false; error: string };

/**
 * Checks and normalises an answer to a question by its type (SPEC §5 Question answers). An upload answer is only
 * checked for presence here; that the key is the user's own upload is the server's to check.
 */
export function checkAnswer(
  target: Pick<Question, 'type' | 'optional' | 'select_options'>,
  raw: string | null,
): AnswerCheck {
  const value = (raw ?? '').trim();
  if (value === '') {
    return target.optional ? { ok: true, value: '', skipped: true } : { ok: false, error: ANSWER_ERRORS.required };
  }
  const accept = (normalised: string): AnswerCheck => ({ ok: true, value: normalised, skipped: false });
  switch (target.type) {
    case 'TextInput':
      return value.length <= TEXT_ANSWER_MAX ? accept(value) : { ok: false, error: ANSWER_ERRORS.textTooLong };
    case 'MultilineTextInput':
      return value.length <= MULTILINE_ANSWER_MAX ? accept(value) : { ok: false, error: ANSWER_ERRORS.multilineTooLong };
    case 'PhoneNumberInput': {
      const digits = phoneDigits(value);
      return digits ? accept(digits) : { ok: false, error: ANSWER_ERRORS.phone };
    }
    case 'ManagedEmailInput':
      return emailAddress.safeParse(value).success ? accept(value.toLowerCase()) : { ok: false, error: ANSWER_ERRORS.email };
    case 'SingleSelectInput':
      return target.select_options?.some((option) => option.value === value)
        ? accept(value)
        : { ok: false, error: ANSWER_ERRORS.option };
    case 'SingleUploadInput':
      return accept(value);
  }
}

/** "2125551212" -> "(212) 555-1212", the mask of SPEC §5. */
export function formatPhone(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}
