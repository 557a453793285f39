import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { requestServiceLevels } from '../../db/service.schema.ts';

/**
 * A request was completed (issue 28): its service level records when, and which concierge is credited with it (the
 * completion's rating goes to them), with the employee and survey category the reports group it by; the new
 * completion is not rated yet. A request without a service level yet (filed before the SLA clock existed) gets one.
 * Called in the transaction of the status change.
 */
export async function recordCompletion(
  tx: Executor,
  {
    request,
    completedByUserId,
    now,
  }: { request: { id: number; userId: number; surveyCategoryId: number | null }; completedByUserId: number | null; now: Date },
) {
  const completion = {
    completedAt: now,
    completedByUserId,
    employeeUserId: request.userId,
    surveyCategoryId: request.surveyCategoryId,
    ratingScore: null,
    updatedAt: now,
  };
  await tx
    .insert(requestServiceLevels)
    .values({ requestId: request.id, ...completion })
    .onConflictDoUpdate({ target: requestServiceLevels.requestId, set: completion });
}

/** A completed request was reopened: its completion no longer counts in the reports. In the status change's transaction. */
export async function withdrawCompletion(tx: Executor, requestId: number, now: Date) {
  await tx
    .update(requestServiceLevels)
    .set({ completedAt: null, ratingScore: null, updatedAt: now })
    .where(eq(requestServiceLevels.requestId, requestId));
}
