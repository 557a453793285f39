import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { RATING_ERRORS, type RatingState } from '../../../src/contract/ratings.ts';
import type { Database, Executor } from '../../db/client.ts';
import { requests } from '../../db/schema.ts';
import { requestRatings, requestServiceLevels } from '../../db/service.schema.ts';
import { type RequestRow, lockRequest, requestNotFound } from '../requests/requests.ts';
import { UserFacingError, conflict, forbidden } from '../shared/userFacingError.ts';
import { RATING_WINDOW_MS, checkRatingLinkToken } from './ratingLinks.ts';

/**
 * Satisfaction (issue 28 part 3). A completed request asks its employee for a rating of that completion: one row of
 * request_ratings per (request, completion), changeable until RATING_WINDOW_MS after the completion. Reopening and
 * completing again is a new completion, so it asks again. The concierge credited is the one the service level names
 * as having completed it.
 */

/** When the request's current completion happened, or null while it is not completed. */
const completionTime = sql<Date | null>`case when ${requests.status} = 'closed'
  then coalesce(${requestServiceLevels.completedAt}, ${requests.closedAt}) end`.mapWith((value) => (value === null ? null : new Date(value as string)));

function selectRatable(db: Executor) {
  return db
    .select({
      id: requests.id,
      name: requests.name,
      userId: requests.userId,
      completedAt: completionTime,
      completedByUserId: requestServiceLevels.completedByUserId,
      rating: { score: requestRatings.score, comment: requestRatings.comment, updatedAt: requestRatings.updatedAt },
    })
    .from(requests)
    .leftJoin(requestServiceLevels, eq(requestServiceLevels.requestId, requests.id))
    .leftJoin(requestRatings, and(eq(requestRatings.requestId, requests.id), eq(requestRatings.completedAt, completionTime)));
}

type RatableRow = Awaited<ReturnType<ReturnType<typeof selectRatable>['execute']>>[number];

function toState(row: RatableRow): RatingState {
  return {
    request_id: row.id,
    request_name: row.name,
    completed_at: row.completedAt?.toISOString() ?? null,
    changeable_until: row.completedAt ? new Date(row.completedAt.getTime() + RATING_WINDOW_MS).toISOString() : null,
    rating:
      row.rating && row.rating.score !== null
        ? { score: row.rating.score, comment: row.rating.comment, updated_at: row.rating.updatedAt!.toISOString() }
        : null,
  };
}

async function ratableRow(db: Executor, requestId: number): Promise<RatableRow | null> {
  const [row] = await selectRatable(db).where(eq(requests.id, requestId));
  return row ?? null;
}

/** The rating state of the employee's own request; 404 for anyone else's. */
export async function ratingStateOfOwner(db: Executor, ownerUserId: number, requestId: number): Promise<RatingState> {
  const row = await ratableRow(db, requestId);
  if (!row || row.userId !== ownerUserId) throw requestNotFound();
  return toState(row);
}

/** The employee's completed requests whose latest completion still waits for a rating, latest completion first. */
export async function pendingRatings(db: Executor, ownerUserId: number, now = new Date()): Promise<RatingState[]> {
  const rows = await selectRatable(db)
    .where(
      and(
        eq(requests.userId, ownerUserId),
        eq(requests.status, 'closed'),
        isNull(requestRatings.id),
        gt(completionTime, new Date(now.getTime() - RATING_WINDOW_MS)),
      ),
    )
    .orderBy(desc(completionTime), desc(requests.id))
    .limit(20);
  return rows.map(toState);
}

const blankToNull = (comment: string | null | undefined) => {
  const trimmed = comment?.trim();
  return trimmed ? trimmed : null;
};

/**
 * Within a transaction holding the request: gives or changes the rating of `completedAt`, the request's current
 * completion, while its window is open (409 once it has closed).
 */
async function writeRating(
  tx: Executor,
  request: RequestRow,
  { score, comment, now }: { score: number; comment: string | null | undefined; now: Date },
) {
  const row = await ratableRow(tx, request.id);
  if (!row?.completedAt) throw conflict(RATING_ERRORS.notCompleted);
  if (now.getTime() >= row.completedAt.getTime() + RATING_WINDOW_MS) throw conflict(RATING_ERRORS.windowClosed);
  const values = { score, comment: blankToNull(comment), conciergeUserId: row.completedByUserId, updatedAt: now };
  await tx
    .insert(requestRatings)
    .values({ ...values, requestId: request.id, completedAt: row.completedAt, userId: request.userId, createdAt: now })
    .onConflictDoUpdate({ target: [requestRatings.requestId, requestRatings.completedAt], set: values });
  // The reports read the score with the completion it rates.
  await tx
    .update(requestServiceLevels)
    .set({ ratingScore: score, updatedAt: now })
    .where(and(eq(requestServiceLevels.requestId, request.id), eq(requestServiceLevels.completedAt, row.completedAt)));
  return toState((await ratableRow(tx, request.id))!);
}

/** The signed-in owner rates their request (another employee: 404). */
export async function rateOwnRequest(
  db: Database,
  { ownerUserId, requestId, score, comment, now = new Date() }: { ownerUserId: number; requestId: number; score: number; comment?: string | null; now?: Date },
): Promise<RatingState> {
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, requestId, ownerUserId);
    if (!request) throw requestNotFound();
    return writeRating(tx, request, { score, comment, now });
  });
}

/** A signed link's token: the request it names and the completion it was sent for, or the refusal to answer. */
async function linkedRequest(db: Executor, { secret, requestId, token, now }: { secret: string; requestId: number; token: string; now: Date }) {
  const check = checkRatingLinkToken(secret, requestId, token, now);
  if (!check.valid) throw refusedLink(check.reason === 'expired' ? RATING_ERRORS.linkExpired : RATING_ERRORS.linkInvalid);
  const row = await ratableRow(db, requestId);
  if (!row) throw refusedLink(RATING_ERRORS.linkInvalid);
  if (row.completedAt?.getTime() !== check.completedAt.getTime()) throw outdatedLink();
  return row;
}

const outdatedLink = () => new UserFacingError(409, RATING_ERRORS.linkOutdated);
/**
 * 403, not 401: the link is refused, not a session, and a 401 would tell a signed-in browser that its session is gone.
 */
const refusedLink = (message: string) => forbidden(message);

/** What a signed link opens: the request's rating state. Reading it writes nothing (mail scanners follow links). */
export async function ratingStateByLink(db: Executor, link: { secret: string; requestId: number; token: string; now?: Date }): Promise<RatingState> {
  return toState(await linkedRequest(db, { ...link, now: link.now ?? new Date() }));
}

/** The rating page, opened from a signed link, confirmed: the link stands for the owner's session. */
export async function rateByLink(
  db: Database,
  { secret, requestId, token, score, comment, now = new Date() }: { secret: string; requestId: number; token: string; score: number; comment?: string | null; now?: Date },
): Promise<RatingState> {
  return db.transaction(async (tx) => {
    // Under the request's lock, so that a reopening cannot slip between the link's check and the write.
    const request = await lockRequest(tx, requestId);
    if (!request) throw refusedLink(RATING_ERRORS.linkInvalid);
    await linkedRequest(tx, { secret, requestId, token, now });
    return writeRating(tx, request, { score, comment, now });
  });
}
