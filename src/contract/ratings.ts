import * as z from 'zod/mini';

/**
 * Satisfaction (issue 28 part 3): the employee's rating of a completed request, 1 to 5 with an optional comment. One
 * rating per completion, changeable for RATING_CHANGE_DAYS after it; a reopened and completed-again request is rated
 * anew. Signed-in, under /api/v1/requests/{id}/rating (the owner only: another employee 404, staff 403); from the
 * completion e-mail's signed links, under /api/v1/rating_links/{id} with the link's token instead of a session.
 */

export const RATING_CHANGE_DAYS = 14;
export const RATING_COMMENT_MAX = 2000;
export const RATING_SCORES = [1, 2, 3, 4, 5] as const;

export const RATING_SCORE_LABELS: Record<number, string> = {
  1: 'Very poor',
  2: 'Poor',
  3: 'Okay',
  4: 'Good',
  5: 'Excellent',
};

export const RATING_ERRORS = {
  notCompleted: 'This request is not completed, so there is nothing to rate yet.',
  windowClosed: `Ratings can be given or changed for ${RATING_CHANGE_DAYS} days after completion; this one can no longer be changed.`,
  staff: 'Only the employee who made the request can rate it.',
  linkInvalid: 'This rating link is not valid. Sign in to rate your request.',
  linkExpired: 'This rating link has expired. Sign in to see your request.',
  linkOutdated: 'This rating link is for an earlier completion of the request. Sign in to rate its latest completion.',
} as const;

export const ratingScore = z.number().check(z.int(), z.minimum(1), z.maximum(5));

/** PUT body: the score and an optional comment (blank is none). */
export const ratingRequest = z.object({
  score: ratingScore,
  comment: z.optional(z.nullable(z.string().check(z.maxLength(RATING_COMMENT_MAX)))),
});
export type RatingRequest = z.infer<typeof ratingRequest>;

/** The same, from a signed link: the link's token authorises it. */
export const ratingLinkRequest = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(200)),
  score: ratingScore,
  comment: z.optional(z.nullable(z.string().check(z.maxLength(RATING_COMMENT_MAX)))),
});
export type RatingLinkRequest = z.infer<typeof ratingLinkRequest>;

export const ratingLinkQuery = z.object({ token: z.string().check(z.minLength(1), z.maxLength(200)) });

export const givenRating = z.object({
  score: ratingScore,
  comment: z.nullable(z.string()),
  updated_at: z.string(),
});
export type GivenRating = z.infer<typeof givenRating>;

/**
 * A request as its rating sees it. `completed_at` null: not completed, nothing to rate. `changeable_until`: the end of
 * the window in which a rating may be given or changed; `rating` the one given for this completion, if any.
 */
export const ratingState = z.object({
  request_id: z.number().check(z.int()),
  request_name: z.string(),
  completed_at: z.nullable(z.string()),
  changeable_until: z.nullable(z.string()),
  rating: z.nullable(givenRating),
});
export type RatingState = z.infer<typeof ratingState>;

export const ratingStateResponse = z.object({ rating_state: ratingState });

/** GET /api/v1/ratings/pending: the employee's completed requests still waiting for a rating, latest first. */
export const pendingRatingsResponse = z.object({ requests: z.array(ratingState) });
