import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { airportByCode } from '../airports/index.ts';
import { cityNear } from '../places/cities.ts';
import { companiesToPick } from '../accounts/companies.ts';

/**
 * What the HTML pages show beyond the JSON answers (never part of them): company names for
 * ids, the contact persons after an award, bid summaries for lists, partner companies to pick
 * by name, and city names for places. One small query each, bounded by the page's ids.
 */

type Db = Kysely<DB>;
const MAX_IDS = 500;

const ids = (list: Array<number | null | undefined>) =>
  [...new Set(list.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id)))].slice(0, MAX_IDS);

export async function acceptedBidUser(db: Db, freightId: number): Promise<number | null> {
  const row = await db
    .selectFrom('bids')
    .select('user_id')
    .where('freight_id', '=', freightId)
    .where('status', '=', 'accepted')
    .executeTakeFirst();
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
    if (r.amount !== null && (!s.best || Number(r.amount) < Number(s.best.amount)))
      s.best = { amount: r.amount, currency: r.currency_code ?? '' };
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
  return companiesToPick(
    db,
    company,
    (c) => sql`(exists (select 1 from bids b join freights f on f.id = b.freight_id where f.company_id = ${company} and b.company_id = ${c})
       or exists (select 1 from bids b join freights f on f.id = b.freight_id where b.company_id = ${company} and f.company_id = ${c})
       or exists (select 1 from freights f where f.company_id = ${company} and ${c} = any(f.whitelist)))`,
    limit,
  );
}

export async function cityOf(code: unknown, latitude: unknown, longitude: unknown): Promise<string | null> {
  if (typeof code === 'string' && /^[A-Z]{3}$/.test(code)) {
    const airport = airportByCode(code);
    if (airport) return airport.city || airport.name || null;
  }
  const lat = Number(latitude);
  const lon = Number(longitude);
  if (
    latitude === null ||
    latitude === undefined ||
    longitude === null ||
    longitude === undefined ||
    !Number.isFinite(lat) ||
    !Number.isFinite(lon)
  )
    return null;
  // The town the point is in: the largest city within 3 km, else the nearest (a wider circle
  // names the nearby big city: Hanau's 63450 would read "Frankfurt am Main").
  const city = await cityNear(lat, lon, 3, 400);
  return city?.name ?? null;
}
