import { readIdList, readString } from '../kernel/params.ts';
import type { FailureCode } from '../kernel/errors.ts';

export const MAX_TOUR_ROUTES = 500;
export const MAX_NAME = 200;

export type Read<T> = { ok: true; value: T } | { ok: false; reason: FailureCode; vars?: Record<string, string | number> };

/**
 * `route_ids`: a JSON array, form `route_ids[]=1&route_ids[]=2` (an array too after parsing),
 * or `1,2,3` as one string. Duplicates collapse; an entry that is no id is an error naming it.
 * More than MAX_TOUR_ROUTES entries as sent is refused before any of them is read.
 */
export function readRouteIds(value: unknown): Read<number[]> {
  const read = readIdList(value, MAX_TOUR_ROUTES);
  if (read.ok) return { ok: true, value: read.ids };
  if (read.reason === 'too_many') return { ok: false, reason: 'tms.too_many_routes', vars: { max: MAX_TOUR_ROUTES } };
  return { ok: false, reason: 'tms.route_ids_invalid', vars: { value: read.reason === 'not_an_id' ? read.item : '' } };
}

export function readTourName(value: unknown): Read<string> {
  const name = (readString(value) ?? '').trim();
  if (!name) return { ok: false, reason: 'tms.name_required' };
  if (name.length > MAX_NAME) return { ok: false, reason: 'tms.name_too_long', vars: { max: MAX_NAME } };
  return { ok: true, value: name };
}

/** `YYYY-MM-DD` (a real calendar day); empty is no date. */
export function readTourDate(value: unknown): Read<string | null> {
  const text = (readString(value) ?? '').trim();
  if (text === '') return { ok: true, value: null };
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!m || !d || d.toISOString().slice(0, 10) !== text)
    return { ok: false, reason: 'tms.date_invalid', vars: { value: text.slice(0, 30) } };
  return { ok: true, value: text };
}
