/**
 * A refusal of a survey or onboarding call that the user may be told about. The surveys routes answer
 * `statusCode` with `{ error: message, fields? }`.
 */
export class SurveyError extends Error {
  readonly statusCode: 404 | 409 | 422;
  /** Field-level problems keyed by the dotted path of the input, as in errorBody. */
  readonly fields?: Record<string, string>;

  constructor(statusCode: 404 | 409 | 422, message: string, options: { fields?: Record<string, string> } = {}) {
    super(message);
    this.name = 'SurveyError';
    this.statusCode = statusCode;
    this.fields = options.fields;
  }
}
