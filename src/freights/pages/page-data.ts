import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { airportByCode } from '../../airports/index.ts';
import { cityNear } from '../../places/cities.ts';
import { companiesToPick, contactOf, namesOfCompanies, type Contact } from '../../accounts/companies.ts';
import type { FreightView } from '../fields.ts';

/**
 * What the HTML pages show beyond the JSON answers (never part of them): company names for
 * ids, the contact persons after an award, bid summaries for lists, partner companies to pick
 * by name, and city names for places. One small query each, bounded by the page's ids.
 */

type Db = Kysely<DB>;
const MAX_IDS = 500;

const ids = (list: Array<number | null | undefined>) =>
  [...new Set(list.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id)))].slice(0, MAX_IDS);

/** The user who made the accepted bid of a freight (the winner's contact person). */
async function acceptedBidUser(db: Db, freightId: number): Promise<number | null> {
  const row = await db
    .selectFrom('bids')
    .select('user_id')
    .where('freight_id', '=', freightId)
    .where('status', '=', 'accepted')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** What the freight page shows beside the presented freight: names, cities, the other side's contact, the partners to address a draft to. */
export interface FreightPageParts {
  companyNames: Map<number, string>;
  contact: Contact | null;
  partners: Array<{ id: number; name: string }>;
  fromCity: string | null;
  toCity: string | null;
}

/**
 * Reads the freight page's parts in one round of statements at once: the names of the companies
 * the JSON gives as ids, after the award the other side's contact person (for the owner the user
 * who made the accepted bid, for the winner the freight's creator: in the presented freight
 * while it is taken), the partners offered for addressing a draft, and the cities of both ends.
 */
export async function readFreightPageParts(db: Db, route: FreightView, companyId: number): Promise<FreightPageParts> {
  const owner = route.company === companyId;
  const winner = route.winner !== null && route.winner === companyId;
  const awarded = ['taken', 'closed', 'archived'].includes(route.status) && route.winner !== null;
  const names = [
    route.winner,
    route.company,
    ...(Array.isArray(route.whitelist) ? route.whitelist : []),
    ...(Array.isArray(route._bids) ? route._bids.map((b) => b.company) : []),
  ];
  // The bids are in the freight while it is taken; closed or archived, the accepted one is read.
  const accepted = route._bids?.find((b) => b.status === 'accepted')?.user;
  const contactUser = !awarded ? null : owner ? (accepted ?? acceptedBidUser(db, route.id)) : winner ? route.user : null;
  const [companyNames, contact, partners, fromCity, toCity] = await Promise.all([
    namesOfCompanies(db, names),
    Promise.resolve(contactUser).then((user) => contactOf(db, user)),
    owner && route.status === 'draft' && route.type !== 'FFR' ? partnerCompanies(db, companyId) : Promise.resolve([]),
    cityOf(route.from, route.from_latitude, route.from_longitude),
    cityOf(route.to, route.to_latitude, route.to_longitude),
  ]);
  return { companyNames, contact, partners, fromCity, toCity };
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
