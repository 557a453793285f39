import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import { SCIM_TOKEN_EXISTS_ERROR, SCIM_TOKEN_REVOKED_ERROR, type ScimToken } from '../../../src/contract/scim.ts';
import type { Database, Executor } from '../../db/client.ts';
import { scimTokens } from '../../db/scim.schema.ts';
import { companies } from '../../db/schema.ts';
import { recordAudit } from '../admin/audit.ts';
import { COMPANY_NOT_FOUND_ERROR } from '../admin/companies.ts';
import { conflict, notFound } from '../shared/userFacingError.ts';
import { digest, newToken } from '../shared/tokens.ts';

export const SCIM_TOKEN_NOT_FOUND_ERROR = 'SCIM token not found';
/** Enough of the token for an admin to tell it apart, far too little to guess the rest (it has 128 random bits). */
const PREFIX_LENGTH = 6;
/** A directory calls in bursts: its token's last use is written at most this often. */
export const LAST_USED_PRECISION_MS = 60_000;
/** The product's name at the front of every token, so that secret scanners and people know what it is. */
const TOKEN_LABEL = 'lcscim_';

function freshToken() {
  const token = `${TOKEN_LABEL}${newToken()}`;
  return { token, tokenDigest: digest(token), prefix: token.slice(0, TOKEN_LABEL.length + PREFIX_LENGTH) };
}

const tokenFields = {
  id: scimTokens.id,
  companyId: scimTokens.companyId,
  companyName: companies.name,
  prefix: scimTokens.prefix,
  createdAt: scimTokens.createdAt,
  rotatedAt: scimTokens.rotatedAt,
  lastUsedAt: scimTokens.lastUsedAt,
  revokedAt: scimTokens.revokedAt,
};

function selectTokens(db: Executor) {
  return db.select(tokenFields).from(scimTokens).innerJoin(companies, eq(companies.id, scimTokens.companyId));
}
type TokenRow = Awaited<ReturnType<typeof selectTokens>>[number];

function describe(row: TokenRow, token?: string): ScimToken {
  return {
    id: row.id,
    company_id: row.companyId,
    company_name: row.companyName,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    rotated_at: row.rotatedAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    ...(token === undefined ? {} : { token }),
  };
}


/** Every company's tokens, live ones first, newest first. */
export async function listScimTokens(db: Executor): Promise<ScimToken[]> {
  const rows = await selectTokens(db).orderBy(desc(isNull(scimTokens.revokedAt)), desc(scimTokens.id));
  return rows.map((row) => describe(row));
}

async function findToken(db: Executor, tokenId: number, lock = false) {
  const query = selectTokens(db).where(eq(scimTokens.id, tokenId));
  const [row] = await (lock ? query.for('update', { of: scimTokens }) : query);
  if (!row) throw notFound(SCIM_TOKEN_NOT_FOUND_ERROR);
  return row;
}

/** A company's new token, answered with the token itself (shown once); 409 while the company has a live one. */
export async function createScimToken(db: Database, actorUserId: number, companyId: number, now = new Date()): Promise<ScimToken> {
  return db.transaction(async (tx) => {
    const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
    if (!company) throw notFound(COMPANY_NOT_FOUND_ERROR);
    const [live] = await tx
      .select({ id: scimTokens.id })
      .from(scimTokens)
      .where(and(eq(scimTokens.companyId, companyId), isNull(scimTokens.revokedAt)));
    if (live) throw conflict(SCIM_TOKEN_EXISTS_ERROR, 'company_id');
    const { token, tokenDigest, prefix } = freshToken();
    const [created] = await tx.insert(scimTokens).values({ companyId, tokenDigest, prefix, createdAt: now }).returning({ id: scimTokens.id });
    await recordAudit(tx, {
      actorUserId,
      action: 'scim_token.create',
      subjectType: 'scim_token',
      subjectId: created.id,
      changes: { company_id: { before: null, after: companyId }, prefix: { before: null, after: prefix } },
      at: now,
    });
    return describe(await findToken(tx, created.id), token);
  });
}

/** The token gets a new secret (shown once): the old one stops working at once. A revoked token cannot be rotated. */
export async function rotateScimToken(db: Database, actorUserId: number, tokenId: number, now = new Date()): Promise<ScimToken> {
  return db.transaction(async (tx) => {
    const before = await findToken(tx, tokenId, true);
    if (before.revokedAt !== null) throw conflict(SCIM_TOKEN_REVOKED_ERROR);
    const { token, tokenDigest, prefix } = freshToken();
    await tx.update(scimTokens).set({ tokenDigest, prefix, rotatedAt: now, lastUsedAt: null }).where(eq(scimTokens.id, tokenId));
    await recordAudit(tx, {
      actorUserId,
      action: 'scim_token.rotate',
      subjectType: 'scim_token',
      subjectId: tokenId,
      changes: { prefix: { before: before.prefix, after: prefix } },
      at: now,
    });
    return describe(await findToken(tx, tokenId), token);
  });
}

/** The token stops working for good; revoking a revoked token changes nothing. */
export async function revokeScimToken(db: Database, actorUserId: number, tokenId: number, now = new Date()): Promise<ScimToken> {
  return db.transaction(async (tx) => {
    const before = await findToken(tx, tokenId, true);
    if (before.revokedAt === null) {
      await tx.update(scimTokens).set({ revokedAt: now }).where(eq(scimTokens.id, tokenId));
      await recordAudit(tx, {
        actorUserId,
        action: 'scim_token.revoke',
        subjectType: 'scim_token',
        subjectId: tokenId,
        changes: { active: { before: true, after: false } },
        at: now,
      });
    }
    return describe(await findToken(tx, tokenId));
  });
}

/** The company a live token reaches, or null; notes the token's use (at most once a minute). */
export async function companyOfScimToken(db: Executor, token: string, now = new Date()): Promise<number | null> {
  const [row] = await db
    .select({ id: scimTokens.id, companyId: scimTokens.companyId, lastUsedAt: scimTokens.lastUsedAt })
    .from(scimTokens)
    .where(and(eq(scimTokens.tokenDigest, digest(token)), isNull(scimTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
    const stale = new Date(now.getTime() - LAST_USED_PRECISION_MS);
    await db
      .update(scimTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(scimTokens.id, row.id), or(isNull(scimTokens.lastUsedAt), lt(scimTokens.lastUsedAt, stale))));
  }
  return row.companyId;
}
