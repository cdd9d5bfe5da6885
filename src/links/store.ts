import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/schema.ts';
import type { LinkPurpose } from './tables.ts';

/** How long a link opens at most when nothing ends it sooner (the trip, with days to spare). */
export const LINK_LIFETIME_DAYS = 14;
/** Ended and expired links are kept this long (the winner may ask when its link stopped), then deleted. */
export const ENDED_LINKS_KEPT_DAYS = 30;

/** A token of 256 random bits, written base64url (43 characters): what the link's address carries. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export interface IssuedLink {
  id: number;
  /** shown once, in the issuing answer; only its hash is stored */
  token: string;
  expires: Date;
}

export interface OpenedLink {
  id: number;
  freightId: number;
  /** the company that issued it (the freight's winner), on whose behalf the page acts */
  companyId: number;
  expires: Date;
}

/**
 * Issues a link of `purpose` for a freight. Earlier links of the same freight and purpose keep
 * opening (a driver's phone and a second phone); the winner ends them all with `revokeLinks`.
 */
export async function issueLink(
  db: Db,
  input: { freightId: number; purpose: LinkPurpose; companyId: number; userId: number | null; now: Date; expires?: Date },
): Promise<IssuedLink> {
  const token = randomBytes(32).toString('base64url');
  const latest = new Date(input.now.getTime() + LINK_LIFETIME_DAYS * 86_400_000);
  const expires = input.expires && input.expires < latest ? input.expires : latest;
  const row = await db
    .insertInto('freight_links')
    .values({
      freight_id: input.freightId,
      purpose: input.purpose,
      token_hash: hashOf(token),
      company_id: input.companyId,
      user_id: input.userId,
      created: input.now,
      expires,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, token, expires };
}

/**
 * The link a token opens for `purpose`, or null: malformed, unknown, of another purpose, ended or
 * expired all answer the same null, so a page cannot tell a guess from a link that ended.
 */
export async function openLink(db: Db, purpose: LinkPurpose, token: string, now: Date): Promise<OpenedLink | null> {
  if (typeof token !== 'string' || !TOKEN.test(token)) return null;
  const row = await db
    .selectFrom('freight_links')
    .select(['id', 'freight_id', 'company_id', 'expires'])
    .where('token_hash', '=', hashOf(token))
    .where('purpose', '=', purpose)
    .where('ended', 'is', null)
    .where('expires', '>', now)
    .executeTakeFirst();
  return row ? { id: row.id, freightId: row.freight_id, companyId: row.company_id, expires: row.expires } : null;
}

/** Ends every open link of a freight for `purpose` (or for every purpose): revoked by the winner, or the freight delivered. Answers how many ended. */
export async function revokeLinks(db: Db, freightId: number, now: Date, purpose?: LinkPurpose): Promise<number> {
  let q = db.updateTable('freight_links').set({ ended: now }).where('freight_id', '=', freightId).where('ended', 'is', null);
  if (purpose) q = q.where('purpose', '=', purpose);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The links of a freight that still open, newest first (for the winner's page: when each ends). */
export async function liveLinks(db: Db, freightId: number, purpose: LinkPurpose, now: Date) {
  return db
    .selectFrom('freight_links')
    .select(['id', 'created', 'expires'])
    .where('freight_id', '=', freightId)
    .where('purpose', '=', purpose)
    .where('ended', 'is', null)
    .where('expires', '>', now)
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}

/** Deletes links ended or expired more than ENDED_LINKS_KEPT_DAYS ago (a sweeper's housekeeping). */
export async function deleteEndedLinks(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - ENDED_LINKS_KEPT_DAYS * 86_400_000);
  const result = await db
    .deleteFrom('freight_links')
    .where((eb) => eb.or([eb('ended', '<', before), eb('expires', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
