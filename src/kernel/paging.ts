import type { EndpointDoc } from './doc.ts';
import type { Warning } from './outcome.ts';
import { MAX_PAGE, readInt, readPageWindow, readString, type PageWindow, type Params } from './params.ts';

/**
 * The sort keys of a list (`sort=Routes.<field>`); the freight lists order by them. `distance` is
 * no column: the great circle between a freight's origin and destination (market/distance.ts).
 */
export const SORTS = {
  id: 'id',
  created: 'created',
  modified: 'modified',
  deadline: 'deadline',
  etd: 'etd',
  eta: 'eta',
  weight: 'weight',
  distance: 'distance',
} as const;

export interface Paging extends PageWindow {
  sort: (typeof SORTS)[keyof typeof SORTS];
  direction: 'asc' | 'desc';
}

/**
 * Paging of the freight lists and of the lists read like them (Shipments, milk run, TMS, cases,
 * ONE Record, the webhook delivery log; docs/reference.md#conventions item 11, docs/reference.md#freights): the page window,
 * sort `Routes.<field>`, direction; problems go to `warnings`.
 */
export function readPaging(params: Params, warnings: Warning[] = []): Paging {
  const { page, limit } = readPageWindow(params, warnings);
  let sort: Paging['sort'] = 'created';
  const sortText = readString(params.sort);
  if (sortText !== undefined) {
    const key = sortText.replace(/^Routes\./, '') as keyof typeof SORTS;
    if (Object.hasOwn(SORTS, key)) sort = SORTS[key];
    else
      warnings.push({
        field: 'sort',
        reason: `not one of ${Object.keys(SORTS)
          .map((k) => `Routes.${k}`)
          .join(', ')}`,
      });
  }
  const dirText = readString(params.direction)?.toLowerCase();
  const direction = dirText === 'asc' ? 'asc' : 'desc';
  if (dirText !== undefined && dirText !== 'asc' && dirText !== 'desc') warnings.push({ field: 'direction', reason: 'not asc or desc' });
  return { page, limit, sort, direction };
}

/** Parameters of transport, not of any list (docs/reference.md#authentication item 3; the pages' form token). */
const PLUMBING = new Set(['auth_token', '_csrf']);

/**
 * What a list ignored of its query, said in its answer's `warnings` (issue 39; the API description
 * says so): a parameter the list does not take (not in its description's parameters), and a
 * `page` or `limit` that is no whole number in range, unless the list named that field already.
 * A list is a JSON GET (`.json`, the envelope) whose description takes `limit`. Checked here for every list alike, from
 * the description each endpoint already gives, so a list cannot forget it.
 */
export function listParameterWarnings(doc: EndpointDoc | undefined, params: Params, said: readonly Warning[] = []): Warning[] {
  const input = doc?.input as { properties?: Record<string, unknown> } | undefined;
  const known = input?.properties;
  if (!known || !Object.hasOwn(known, 'limit')) return [];
  const named = new Set(said.map((w) => w.field));
  const out: Warning[] = [];
  const add = (field: string, reason: string) => {
    if (named.has(field)) return;
    named.add(field);
    out.push({ field: field.slice(0, 100), reason });
  };
  for (const name of Object.keys(params)) {
    if (!Object.hasOwn(known, name) && !PLUMBING.has(name)) add(name, 'not a parameter of this list: ignored');
  }
  const unreadable = (name: 'page' | 'limit', max = Number.MAX_SAFE_INTEGER) => {
    const raw = params[name];
    if (raw === undefined || raw === '') return false;
    const n = readInt(raw);
    return n === undefined || n < 1 || n > max;
  };
  if (unreadable('page', MAX_PAGE)) add('page', `not a page number from 1 to ${MAX_PAGE}: 1 used`);
  // Above the largest page size it is that size (docs/reference.md#the-api: capped), not a mistake.
  if (unreadable('limit')) add('limit', 'not a whole number of at least 1: the default used');
  return out;
}
