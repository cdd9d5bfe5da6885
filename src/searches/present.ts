import { listPath } from '../freights/index.ts';
import type { Clock } from '../kernel/time.ts';
import type { SavedSearchRow } from './store.ts';

/** The list page a saved search opens: its filter with its parameters in the query string. */
export function searchUrl(filterId: number, params: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(params)).toString();
  return `${listPath(filterId)}${query ? `?${query}` : ''}`;
}

/** A saved search as `data.search`: the parameters normalised as the lists read them. */
export function presentSearch(row: SavedSearchRow, clock: Clock) {
  const params = row.params ?? {};
  return {
    id: row.id,
    name: row.name,
    filter: row.filter_id,
    params,
    alert: row.alert ? 1 : 0,
    url: searchUrl(row.filter_id, params),
    created: clock.format(row.created),
    modified: clock.format(row.modified),
  };
}

export type PresentedSearch = ReturnType<typeof presentSearch>;
