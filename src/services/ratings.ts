import { type RatingRequest, type RatingState, pendingRatingsResponse, ratingStateResponse } from '../contract/ratings.ts';
import { api } from './http.ts';

/** Satisfaction (issue 28, beyond SPEC): the employee's ratings, signed in or from a completion e-mail's signed link. */

export async function fetchRatingState(requestId: number): Promise<RatingState> {
  const client = await api();
  return (await client.get(`requests/${requestId}/rating`).json(ratingStateResponse)).rating_state;
}

export async function saveRating(requestId: number, rating: RatingRequest): Promise<RatingState> {
  const client = await api();
  return (await client.put(`requests/${requestId}/rating`, { json: rating }).json(ratingStateResponse)).rating_state;
}

/** The latest completed request still waiting for a rating (the Dashboard's card), or null. */
export async function fetchPendingRating(): Promise<RatingState | null> {
  const client = await api();
  return (await client.get('ratings/pending').json(pendingRatingsResponse)).requests[0] ?? null;
}

export async function fetchRatingStateByLink(requestId: number, token: string): Promise<RatingState> {
  const client = await api();
  return (await client.get(`rating_links/${requestId}`, { searchParams: { token } }).json(ratingStateResponse)).rating_state;
}

export async function saveRatingByLink(requestId: number, token: string, rating: RatingRequest): Promise<RatingState> {
  const client = await api();
  return (await client.put(`rating_links/${requestId}`, { json: { token, ...rating } }).json(ratingStateResponse)).rating_state;
}
