import {
  MAX_SUGGESTED_REQUESTS_PER_CATEGORY,
  type CategoryRequestSurveysResponse,
  type NextScreenItem,
  type OnboardingAnswer,
  type OnboardingAnswersRequest,
  type RecommendedRequestCategory,
  type SubmittedRequest,
  type SurveyCategory,
  type UserRequestAnswerRequest,
  type UserRequestAnswerResponse,
  beginSurveyResponse,
  categoryRequestSurveysResponse,
  nextScreenItemResponse,
  onboardingAnswersResponse,
  recommendedRequestCategoriesResponse,
  submitSurveyResponse,
  surveyCategoriesResponse,
  userRequestAnswerResponse,
} from '../contract/surveys.ts';
import { successBody } from '../contract/common.ts';
import { api, requireSuccess } from './http.ts';

/**
 * SPEC §7 "Requests and surveys": the request catalogue, the survey conversation and the onboarding answers.
 * Every call fails as http.ts describes, a success flag that is false included.
 */

/**
 * GET /recommended_request_categories. SPEC §7: only for_alpha templates are kept, at most three per category
 * (the server promises the same; the client does not rely on it).
 */
export async function fetchRecommendedCategories(): Promise<RecommendedRequestCategory[]> {
  const client = await api();
  const answer = requireSuccess(await client.get('recommended_request_categories').json(recommendedRequestCategoriesResponse));
  return answer.recommended_request_categories.map((category) => ({
    ...category,
    request_surveys: category.request_surveys
      .filter((template) => template.for_alpha)
      .slice(0, MAX_SUGGESTED_REQUESTS_PER_CATEGORY),
  }));
}

/** GET /survey_categories: every request category, in catalogue order. */
export async function fetchSurveyCategories(): Promise<SurveyCategory[]> {
  const client = await api();
  return (await client.get('survey_categories').json(surveyCategoriesResponse)).survey_categories;
}

/** GET /survey_categories/{id}/request_surveys: the category and its for_alpha templates. */
export async function fetchCategoryRequestSurveys(categoryId: number): Promise<CategoryRequestSurveysResponse> {
  const client = await api();
  const answer = await client.get(`survey_categories/${categoryId}/request_surveys`).json(categoryRequestSurveysResponse);
  return { ...answer, request_surveys: answer.request_surveys.filter((template) => template.for_alpha) };
}

/** POST /request_surveys/{id}/user_request_surveys: begins a survey; answers the survey session's id. */
export async function beginSurvey(requestSurveyId: number): Promise<number> {
  const client = await api();
  const path = `request_surveys/${requestSurveyId}/user_request_surveys`;
  const answer = requireSuccess(await client.post(path, { json: { for_alpha: true } }).json(beginSurveyResponse));
  return answer.user_request_survey.id;
}

/** GET /user_request_surveys/{id}/next_screen_item: the next question, or null when the survey is complete. */
export async function fetchNextScreenItem(userRequestSurveyId: number): Promise<NextScreenItem | null> {
  const client = await api();
  const path = `user_request_surveys/${userRequestSurveyId}/next_screen_item`;
  return (await client.get(path).json(nextScreenItemResponse)).next_item;
}

export type StoredAnswer = UserRequestAnswerResponse['user_request_answer'];

/**
 * POST /user_request_surveys/{id}/user_request_answers: answers (or, with '', skips) a question; answering again
 * replaces the answer. Answers the value as the server stored it.
 */
export async function answerQuestion(userRequestSurveyId: number, questionId: number, value: string): Promise<StoredAnswer> {
  const client = await api();
  const body: UserRequestAnswerRequest = {
    user_request_answer: { object_satisfied_id: questionId, object_satisfied_type: 'Datum', value },
  };
  const path = `user_request_surveys/${userRequestSurveyId}/user_request_answers`;
  const answer = requireSuccess(await client.post(path, { json: body }).json(userRequestAnswerResponse));
  return answer.user_request_answer;
}

/** POST /user_request_surveys/{id}/submit: the survey becomes a request (submitting again answers the same one). */
export async function submitSurvey(userRequestSurveyId: number): Promise<SubmittedRequest> {
  const client = await api();
  const answer = requireSuccess(await client.post(`user_request_surveys/${userRequestSurveyId}/submit`).json(submitSurveyResponse));
  return answer.request;
}

/** GET /onboarding_answers: what the user told us during onboarding so far. */
export async function fetchOnboardingAnswers(): Promise<OnboardingAnswer[]> {
  const client = await api();
  return (await client.get('onboarding_answers').json(onboardingAnswersResponse)).answers;
}

/** POST /onboarding_answers: saves one step's answers; `completed` (the last step) ends onboarding. */
export async function saveOnboardingAnswers(request: OnboardingAnswersRequest): Promise<void> {
  const client = await api();
  requireSuccess(await client.post('onboarding_answers', { json: request }).json(successBody));
}
