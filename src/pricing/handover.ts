import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { SearchParams } from './fields.ts';

/**
 * What the freights module takes over from pricing (issue 5, point 7):
 * `/freights/add?pricing_search_id=` and `/freights/request/rate/{id}`.
 */

export interface SearchForFreight {
  origin: string;
  destination: string;
  weight: string | null;
  pieces: Array<{ pieces?: number; depth?: string; width?: string; height?: string; weight?: string }>;
}

const INCH_CM = new Decimal('2.54');

/**
 * The stored search of that company: origin/destination as sent (`city:DE-60311`,
 * `airport:FRA`), weight as sent (exact decimal text) or null, piece lines with dimensions in
 * cm (a search made in inches is converted, to 2 decimals, half-up) and `weight` the line's
 * weight. Null when the search does not exist or belongs to another company (or is public).
 */
export async function searchForFreight(db: Kysely<DB>, companyId: number, searchId: number): Promise<SearchForFreight | null> {
  if (!Number.isSafeInteger(searchId) || searchId <= 0 || searchId > 2147483647) return null;
  const row = await db
    .selectFrom('pricing_searches')
    .select(['params'])
    .where('id', '=', searchId)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!row) return null;
  const params = row.params as SearchParams;
  const inches = params.unitOfLength === 'in';
  const cm = (v: string | undefined) =>
    v === undefined ? undefined : inches ? new Decimal(v).times(INCH_CM).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed() : v;
  return {
    origin: params.origin,
    destination: params.destination,
    weight: params.weight ?? null,
    pieces: (params.pieces_json ?? []).map((p) => {
      const out: SearchForFreight['pieces'][number] = {};
      if (p.pieces !== undefined) out.pieces = p.pieces;
      if (p.depth !== undefined) out.depth = cm(p.depth);
      if (p.width !== undefined) out.width = cm(p.width);
      if (p.height !== undefined) out.height = cm(p.height);
      if (p.weight !== undefined) out.weight = p.weight;
      return out;
    }),
  };
}

export interface RateLineForBooking {
  id: number;
  sheetId: number;
  /** The carrier: the company owning the sheet. */
  company: number;
  /** As in the sheet: `city:DE-60`, `airport:FRA`. */
  origin: string;
  destination: string;
  transitDays: number | null;
}

/**
 * A rate line whose sheet the caller's company may see (its own, or `exchange` /
 * `public_search`), else null. Validity dates are not checked: a rate found yesterday can
 * still be booked (the booking request is a draft the carrier confirms).
 */
export async function rateLineForBooking(db: Kysely<DB>, companyId: number, rateId: number): Promise<RateLineForBooking | null> {
  if (!Number.isSafeInteger(rateId) || rateId <= 0 || rateId > 2147483647) return null;
  const row = await db
    .selectFrom('rate_lines as l')
    .innerJoin('rate_sheets as s', 's.id', 'l.sheet_id')
    .select(['l.id', 'l.sheet_id', 's.company_id', 'l.origin', 'l.destination', 'l.transit_days'])
    .where('l.id', '=', rateId)
    .where((eb) => eb.or([eb('s.company_id', '=', companyId), eb('s.visibility', 'in', ['exchange', 'public_search'])]))
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    sheetId: row.sheet_id,
    company: row.company_id,
    origin: row.origin,
    destination: row.destination,
    transitDays: row.transit_days,
  };
}
