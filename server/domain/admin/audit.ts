import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { AuditAction, AuditChanges, AuditEvent, AuditFilter, AuditSubjectType } from '../../../src/contract/admin.ts';
import type { Executor } from '../../db/client.ts';
import { auditEvents, users } from '../../db/schema.ts';

/** A record's audited fields, as the audit log shows them (never a secret: callers list what they audit). */
export type AuditedFields = Record<string, unknown>;

/**
 * The fields whose values differ between `before` and `after` (values compared as JSON), each with both values; for a
 * creation (`before` null) every field of `after`, with `before` null.
 */
export function changedFields(before: AuditedFields | null, after: AuditedFields): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, value] of Object.entries(after)) {
    const previous = before === null ? null : (before[field] ?? null);
    if (before === null || JSON.stringify(previous) !== JSON.stringify(value)) {
      changes[field] = { before: previous, after: value ?? null };
    }
  }
  return changes;
}

/**
 * Writes who did what to which record. Call it with the transaction of the write it tells about: the entry exists
 * exactly when the change does.
 */
export async function recordAudit(
  tx: Executor,
  entry: { actorUserId: number; action: AuditAction; subjectType: AuditSubjectType; subjectId: number; changes: AuditChanges; at?: Date },
) {
  await tx.insert(auditEvents).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    changes: entry.changes,
    ...(entry.at ? { at: entry.at } : {}),
  });
}

/**
 * Writes that a record's switch (active, published, featured) was turned to `value`: the action names the way it went,
 * and the change shows the switch's two positions.
 */
export async function recordSwitch(
  tx: Executor,
  entry: {
    actorUserId: number;
    actions: { on: AuditAction; off: AuditAction };
    subjectType: AuditSubjectType;
    subjectId: number;
    field: string;
    value: boolean;
    at?: Date;
  },
) {
  const { field, value, actions, ...subject } = entry;
  await recordAudit(tx, { ...subject, action: value ? actions.on : actions.off, changes: { [field]: { before: !value, after: value } } });
}

/** Newest first, a page of `limit` older than the cursor `before`; `next_cursor` is null on the last page. */
export async function listAuditEvents(db: Executor, filter: AuditFilter): Promise<{ events: AuditEvent[]; next_cursor: number | null }> {
  const rows = await db
    .select({ event: auditEvents, actor: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email } })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(
      and(
        filter.before === undefined ? undefined : lt(auditEvents.id, filter.before),
        filter.subject_type === undefined ? undefined : eq(auditEvents.subjectType, filter.subject_type),
        filter.subject_id === undefined ? undefined : eq(auditEvents.subjectId, filter.subject_id),
        filter.actor_id === undefined ? undefined : eq(auditEvents.actorUserId, filter.actor_id),
        filter.action === undefined ? undefined : eq(auditEvents.action, filter.action),
        filter.from === undefined ? undefined : gte(auditEvents.at, new Date(filter.from)),
        filter.until === undefined ? undefined : lt(auditEvents.at, new Date(filter.until)),
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(filter.limit + 1);
  const page = rows.slice(0, filter.limit);
  return {
    events: page.map(({ event, actor }) => ({
      id: event.id,
      at: event.at.toISOString(),
      action: event.action as AuditAction,
      actor: actor && { id: actor.id, full_name: `${actor.firstName} ${actor.lastName}`.trim(), email: actor.email },
      subject_type: event.subjectType as AuditSubjectType,
      subject_id: event.subjectId,
      changes: event.changes,
    })),
    next_cursor: rows.length > filter.limit ? page[page.length - 1].event.id : null,
  };
}
