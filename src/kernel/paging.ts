import type { Warning } from './outcome.ts';
import { readPageWindow, readString, type PageWindow, type Params } from './params.ts';

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
 * ONE Record, the webhook delivery log; api.md Endpoints 11, decisions.md §4): the page window,
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
