import * as z from 'zod/mini';

/**
 * Issue 32 point 5: an employee's search of their own requests (name, details and messages) and of the Benefits &
 * Offers they may see (name, provider, heading, categories). Not in SPEC:
 *
 * - GET /api/v1/requests/search?q=...   -> requestsResponse (the caller's matching requests, issued_at ascending)
 * - GET /api/v1/offerings/search?q=...  -> offeringsResponse (the matching offerings, in catalogue order)
 *
 * Every word of `q` must begin a word of what is searched ('car reg' finds 'Car registration'). A blank or too long
 * `q` is a 422 { error, fields }.
 */

export const SEARCH_QUERY_MAX_LENGTH = 100;

export const SEARCH_ERRORS = {
  blank: 'Please enter something to search for.',
  tooLong: `Please search with at most ${SEARCH_QUERY_MAX_LENGTH} characters.`,
} as const;

export const searchQuery = z.object({
  q: z.string().check(z.trim(), z.minLength(1, SEARCH_ERRORS.blank), z.maxLength(SEARCH_QUERY_MAX_LENGTH, SEARCH_ERRORS.tooLong)),
});
export type SearchQuery = z.input<typeof searchQuery>;
