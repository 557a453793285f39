import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { AssignmentSettings, StaffCap, TeamMember } from '../../../src/contract/assignment.ts';
import type { Database, Executor } from '../../db/client.ts';
import { assignmentSettings, staffAssignment } from '../../db/assignment.schema.ts';
import { requests, users } from '../../db/schema.ts';
import { recordAudit } from '../admin/audit.ts';
import type { RealtimeNotice } from '../realtime/realtime.ts';
import { notFound } from '../shared/userFacingError.ts';
import { assignLockedRequest } from './console.ts';
import { fullNameOf } from './requests.ts';

/**
 * Automatic assignment (issue 28): a request nobody holds goes, oldest first, to the next available staff member
 * under their cap of open requests, round-robin by account id after the last one assigned. Every run locks the
 * team's settings row (which holds the round-robin pointer) for its whole transaction, so runs in several server
 * processes take turns and never give out the same turn twice; a request being claimed by hand at that moment is
 * skipped (SKIP LOCKED), not waited for.
 */

/** The cap of open requests per staff member until an admin sets another. */
export const DEFAULT_OPEN_REQUEST_CAP = 5;
const SETTINGS_ID = 1;
/** Who the history names for an assignment no one made by hand. */
export const AUTOMATIC_ASSIGNMENT_ACTOR = 'Automatic assignment';

const STAFF_ROLES = ['concierge', 'admin'] as const;
type StaffRole = (typeof STAFF_ROLES)[number];

/** The settings row, created on first use, locked until the transaction ends when `lock`. */
async function settingsOf(tx: Executor, lock: boolean) {
  await tx
    .insert(assignmentSettings)
    .values({ id: SETTINGS_ID, defaultOpenRequestCap: DEFAULT_OPEN_REQUEST_CAP })
    .onConflictDoNothing();
  const query = tx.select().from(assignmentSettings).where(eq(assignmentSettings.id, SETTINGS_ID));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Every active staff member with their availability, cap and open requests, by id. */
async function teamRows(db: Executor, defaultCap: number, onlyUserId?: number) {
  const openRequests = sql<number>`(
    select count(*) from ${requests} where ${requests.assigneeUserId} = ${users.id} and ${requests.status} <> 'closed'
  )`.mapWith(Number);
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
      available: staffAssignment.available,
      capOverride: staffAssignment.openRequestCap,
      openRequests,
    })
    .from(users)
    .leftJoin(staffAssignment, eq(staffAssignment.userId, users.id))
    .where(
      and(
        inArray(users.role, [...STAFF_ROLES]),
        isNull(users.deactivatedAt),
        onlyUserId === undefined ? undefined : eq(users.id, onlyUserId),
      ),
    )
    .orderBy(asc(users.id));
  return rows.map((row) => ({
    ...row,
    role: row.role as StaffRole,
    available: row.available ?? false,
    cap: row.capOverride ?? defaultCap,
  }));
}
type TeamRow = Awaited<ReturnType<typeof teamRows>>[number];

const toMember = (row: TeamRow): TeamMember => ({
  id: row.id,
  full_name: fullNameOf(row),
  role: row.role,
  available: row.available,
  open_requests: row.openRequests,
  open_request_cap: row.cap,
});

/** The next in turn: the first with room after `lastAssigned` by id, else the first with room. */
export function nextInTurn<T extends { id: number; available: boolean; openRequests: number; cap: number }>(
  team: readonly T[],
  lastAssigned: number | null,
): T | undefined {
  const withRoom = team.filter((member) => member.available && member.openRequests < member.cap);
  return withRoom.find((member) => lastAssigned === null || member.id > lastAssigned) ?? withRoom[0];
}

/**
 * Assigns waiting requests, oldest first, while someone available has room: after a request is filed, someone
 * becomes available, a cap rises or a request is completed. The notices to publish.
 */
export async function assignWaitingRequests(db: Database, appUrl: string): Promise<RealtimeNotice[]> {
  return db.transaction(async (tx) => {
    const settings = await settingsOf(tx, true);
    const team = await teamRows(tx, settings.defaultOpenRequestCap);
    let lastAssigned = settings.lastAssignedUserId;
    const notices: RealtimeNotice[] = [];
    for (let next = nextInTurn(team, lastAssigned); next; next = nextInTurn(team, lastAssigned)) {
      const [waiting] = await tx
        .select()
        .from(requests)
        .where(and(eq(requests.status, 'open'), isNull(requests.assigneeUserId)))
        .orderBy(asc(requests.issuedAt), asc(requests.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!waiting) break;
      const assignee = { id: next.id, name: fullNameOf(next) };
      notices.push(...(await assignLockedRequest(tx, waiting, assignee, { id: null, name: AUTOMATIC_ASSIGNMENT_ACTOR }, appUrl)));
      next.openRequests += 1;
      lastAssigned = next.id;
    }
    if (lastAssigned !== settings.lastAssignedUserId) {
      await tx.update(assignmentSettings).set({ lastAssignedUserId: lastAssigned, updatedAt: new Date() }).where(eq(assignmentSettings.id, SETTINGS_ID));
    }
    return notices;
  });
}

/** The caller and the team, as the console's header shows them. */
export async function availabilityOf(db: Executor, userId: number): Promise<{ me: TeamMember; team: TeamMember[] }> {
  const settings = await settingsOf(db, false);
  const team = (await teamRows(db, settings.defaultOpenRequestCap)).map(toMember);
  const me = team.find((member) => member.id === userId);
  if (!me) throw new Error(`availabilityOf: ${userId} is not active staff`);
  return { me, team };
}

/** Sets the caller available or away; the caller's team view afterwards. */
export async function setAvailability(db: Database, userId: number, available: boolean) {
  const now = new Date();
  await db
    .insert(staffAssignment)
    .values({ userId, available, availabilityChangedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: staffAssignment.userId,
      set: { available, availabilityChangedAt: now, updatedAt: now },
      // Saying the same twice changes nothing, not even the time it last changed.
      setWhere: ne(staffAssignment.available, available),
    });
}

// ---- The admin's caps ----

const settingsToWire = (row: { id: number; defaultOpenRequestCap: number }): AssignmentSettings => ({
  id: row.id,
  default_open_request_cap: row.defaultOpenRequestCap,
});

export async function findAssignmentSettings(db: Executor): Promise<AssignmentSettings> {
  return settingsToWire(await settingsOf(db, false));
}

/** Sets the team's default cap, audit-logged with it. */
export async function setDefaultCap(db: Database, actorUserId: number, cap: number): Promise<AssignmentSettings> {
  return db.transaction(async (tx) => {
    const before = await settingsOf(tx, true);
    const [after] = await tx
      .update(assignmentSettings)
      .set({ defaultOpenRequestCap: cap, updatedAt: new Date() })
      .where(eq(assignmentSettings.id, SETTINGS_ID))
      .returning();
    if (before.defaultOpenRequestCap !== cap) {
      await recordAudit(tx, {
        actorUserId,
        action: 'assignment.default_cap_change',
        subjectType: 'assignment_settings',
        subjectId: SETTINGS_ID,
        changes: { default_open_request_cap: { before: before.defaultOpenRequestCap, after: cap } },
      });
    }
    return settingsToWire(after);
  });
}

const toStaffCap = (row: TeamRow): StaffCap => ({ ...toMember(row), email: row.email, cap_override: row.capOverride });

export async function listStaffCaps(db: Executor): Promise<StaffCap[]> {
  const settings = await settingsOf(db, false);
  return (await teamRows(db, settings.defaultOpenRequestCap)).map(toStaffCap);
}

export const STAFF_MEMBER_NOT_FOUND = 'Staff member not found';

/** Sets a staff member's own cap (null: the team's default), audit-logged with it. */
export async function setStaffCap(db: Database, actorUserId: number, userId: number, capOverride: number | null): Promise<StaffCap> {
  return db.transaction(async (tx) => {
    const settings = await settingsOf(tx, false);
    const [before] = await teamRows(tx, settings.defaultOpenRequestCap, userId);
    if (!before) throw notFound(STAFF_MEMBER_NOT_FOUND);
    await tx
      .insert(staffAssignment)
      .values({ userId, openRequestCap: capOverride })
      .onConflictDoUpdate({ target: staffAssignment.userId, set: { openRequestCap: capOverride, updatedAt: new Date() } });
    if (before.capOverride !== capOverride) {
      await recordAudit(tx, {
        actorUserId,
        action: 'account.cap_change',
        subjectType: 'account',
        subjectId: userId,
        changes: { open_request_cap: { before: before.capOverride, after: capOverride } },
      });
    }
    return findStaffCap(tx, userId);
  });
}

export async function findStaffCap(db: Executor, userId: number): Promise<StaffCap> {
  const settings = await settingsOf(db, false);
  const [row] = await teamRows(db, settings.defaultOpenRequestCap, userId);
  if (!row) throw notFound(STAFF_MEMBER_NOT_FOUND);
  return toStaffCap(row);
}
