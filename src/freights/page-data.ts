import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { airportByCode } from '../airports/index.ts';
import { cityNear } from '../places/cities.ts';

/**
 * What the HTML pages show beyond the JSON answers (never part of them): company names for
 * ids, the contact persons after an award, bid summaries for lists, partner companies to pick
 * by name, and city names for places. One small query each, bounded by the page's ids.
 */

type Db = Kysely<DB>;
const MAX_IDS = 500;

const ids = (list: Array<number | null | undefined>) => [...new Set(list.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id)))].slice(0, MAX_IDS);

export async function namesOfCompanies(db: Db, list: Array<number | null | undefined>): Promise<Map<number, string>> {
  const wanted = ids(list);
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom('companies').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export interface Contact {
  realname: string;
  email: string;
  company: string;
}

/** A user as the other side's contact person: name, e-mail and company. */
export async function contactOf(db: Db, userId: number | null | undefined): Promise<Contact | null> {
  if (typeof userId !== 'number') return null;
  const row = await db
    .selectFrom('users')
    .innerJoin('companies', 'companies.id', 'users.company_id')
    .select(['users.realname', 'users.email', 'companies.name as company'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}

/** The user who made the accepted bid of a freight (the winner's contact person). */
export async function acceptedBidUser(db: Db, freightId: number): Promise<number | null> {
  const row = await db.selectFrom('bids').select('user_id').where('freight_id', '=', freightId).where('status', '=', 'accepted').executeTakeFirst();
  return row?.user_id ?? null;
}

/** The user who created the freight (the shipper's contact person). */
export async function creatorOf(db: Db, freightId: number): Promise<number | null> {
  const row = await db.selectFrom('freights').select('user_id').where('id', '=', freightId).executeTakeFirst();
  return row?.user_id ?? null;
}

export interface BidSummary {
  count: number;
  /** the lowest live amount, with its currency */
  best: { amount: string; currency: string } | null;
}

/** Owner lists: number of live (non-revoked) bids and the lowest amount per freight. Only the caller's own freights. */
export async function bidSummaries(db: Db, ownerCompany: number, freightIds: number[]): Promise<Map<number, BidSummary>> {
  const wanted = ids(freightIds);
  if (!wanted.length) return new Map();
  const rows = await db
    .selectFrom('bids')
    .innerJoin('freights', 'freights.id', 'bids.freight_id')
    .select(['bids.freight_id', 'bids.amount', 'bids.currency_code'])
    .where('freights.company_id', '=', ownerCompany)
    .where('bids.freight_id', 'in', wanted)
    .where('bids.status', '<>', 'revoked')
    .execute();
  const out = new Map<number, BidSummary>();
  for (const r of rows) {
    const s = out.get(r.freight_id) ?? { count: 0, best: null };
    s.count += 1;
    if (r.amount !== null && (!s.best || Number(r.amount) < Number(s.best.amount))) s.best = { amount: r.amount, currency: r.currency_code ?? '' };
    out.set(r.freight_id, s);
  }
  return out;
}

export interface OwnBid {
  amount: string | null;
  currency: string | null;
  status: string;
}

/** Bidder lists: the caller's company's latest live bid per freight. */
export async function ownBids(db: Db, company: number, freightIds: number[]): Promise<Map<number, OwnBid>> {
  const wanted = ids(freightIds);
  if (!wanted.length) return new Map();
  const rows = await db
    .selectFrom('bids')
    .select(['freight_id', 'amount', 'currency_code', 'status'])
    .where('company_id', '=', company)
    .where('freight_id', 'in', wanted)
    .where('status', '<>', 'revoked')
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.freight_id, { amount: r.amount, currency: r.currency_code, status: r.status }]));
}

/**
 * Companies to pick by name: those the caller's company has dealt with (bidders on its
 * freights, owners of freights it bid on, companies named in its whitelists) first, then others
 * by name, at most `limit`.
 */
export async function partnerCompanies(db: Db, company: number, limit = 200): Promise<Array<{ id: number; name: string }>> {
  const rows = await sql<{ id: number; name: string; partner: boolean }>`
    select c.id, c.name,
      (exists (select 1 from bids b join freights f on f.id = b.freight_id where f.company_id = ${company} and b.company_id = c.id)
       or exists (select 1 from bids b join freights f on f.id = b.freight_id where b.company_id = ${company} and f.company_id = c.id)
       or exists (select 1 from freights f where f.company_id = ${company} and c.id = any(f.whitelist))) as partner
    from companies c
    where c.id <> ${company}
    order by partner desc, c.name, c.id
    limit ${limit}`.execute(db);
  return rows.rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

/**
 * Company names typed in a form (comma or line separated; an id works too) to ids. Names match
 * case-insensitively and exactly; names that match no company, or several, come back unknown.
 */
export async function companiesByName(db: Db, text: string): Promise<{ ids: number[]; unknown: string[] }> {
  const parts = text
    .split(/[,;\n]/)
    .map((p) => p.trim())
    .filter(Boolean)
    .slice(0, 200);
  const found: number[] = [];
  const unknown: string[] = [];
  const names = parts.filter((p) => !/^\d{1,9}$/.test(p));
  const numeric = parts.filter((p) => /^\d{1,9}$/.test(p)).map(Number);
  const byName = names.length
    ? await db
        .selectFrom('companies')
        .select(['id', 'name'])
        .where(sql<string>`lower(name)`, 'in', names.map((n) => n.toLowerCase()))
        .execute()
    : [];
  const byId = numeric.length ? await db.selectFrom('companies').select('id').where('id', 'in', numeric).execute() : [];
  for (const part of parts) {
    if (/^\d{1,9}$/.test(part)) {
      if (byId.some((r) => r.id === Number(part))) found.push(Number(part));
      else unknown.push(part);
      continue;
    }
    const matches = byName.filter((r) => r.name.toLowerCase() === part.toLowerCase());
    if (matches.length === 1) found.push(matches[0]!.id);
    else unknown.push(part);
  }
  return { ids: [...new Set(found)], unknown };
}

/**
 * A place's city for display: an airport's city, else the city nearest to the coordinates (the
 * city data answers within a short wait; while it loads, no name). Null when unknown.
 */
export async function cityOf(code: unknown, latitude: unknown, longitude: unknown): Promise<string | null> {
  if (typeof code === 'string' && /^[A-Z]{3}$/.test(code)) {
    const airport = airportByCode(code);
    if (airport) return airport.city || airport.name || null;
  }
  const lat = Number(latitude);
  const lon = Number(longitude);
  if (latitude === null || latitude === undefined || longitude === null || longitude === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  // The town the point is in: the largest city within 3 km, else the nearest (a wider circle
  // names the nearby big city: Hanau's 63450 would read "Frankfurt am Main").
  const city = await cityNear(lat, lon, 3, 400);
  return city?.name ?? null;
}
