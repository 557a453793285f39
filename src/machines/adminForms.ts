import { fieldErrorsOf } from '../services/console.ts';
import { serverMessage, statusOf } from '../services/http.ts';

/** The admin area's forms: messages keyed by the dotted path of the input at fault, as the server names them. */
export type FieldErrors = Record<string, string>;

export const SAVE_FAILED = "We couldn't save the changes. Please try again.";

/** The messages without those about the given fields, or about anything under them ('sections' takes 'sections.0.heading'). */
export function withoutErrorsFor(errors: FieldErrors, fields: readonly string[]): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([path]) => !fields.some((field) => path === field || path.startsWith(`${field}.`))));
}

export const IMAGE_STILL_UPLOADING = 'Please wait until the image has uploaded.';

/** The first message for each input a contract schema refused. */
export function fieldErrorsOfIssues(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): FieldErrors {
  const errors: FieldErrors = {};
  for (const { path, message } of issues) {
    const key = path.map(String).join('.');
    errors[key] ??= message;
  }
  return errors;
}

/**
 * What a refused or failed write shows: the server's message for each input it named (422, 409), and otherwise its
 * message for the whole form (e.g. the last-admin rule), or SAVE_FAILED when the server could not be reached.
 */
export function failureOf(error: unknown): { fieldErrors: FieldErrors; formError: string | null } {
  if (statusOf(error) === null) return { fieldErrors: {}, formError: SAVE_FAILED };
  const fieldErrors = fieldErrorsOf(error);
  return { fieldErrors, formError: Object.keys(fieldErrors).length > 0 ? null : serverMessage(error) };
}

/** A refusal shown above a list or a confirmation: the server's message (the first field's, when it names one). */
export function refusalOf(error: unknown): string {
  const { fieldErrors, formError } = failureOf(error);
  return formError ?? Object.values(fieldErrors)[0] ?? SAVE_FAILED;
}

/** The error an invoked call failed with, as an action's params. */
export const errorOf = ({ event }: { event: { error: unknown } }) => event.error;

/** A form's list (sections, questions) with the entry at `from` moved `by` places; as it was, past either end. */
export function moved<T>(list: readonly T[], from: number, by: number): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** A form's list with the entry at `index` changed. */
export const replaced = <T>(list: readonly T[], index: number, change: (item: T) => T) =>
  list.map((item, at) => (at === index ? change(item) : item));
