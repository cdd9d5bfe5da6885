import { readInt, readString, type Params } from '../kernel/params.ts';

/** List paging of api.md (Endpoints 11) with decisions.md §4's sort fields and limit cap. */
export interface Paging {
  page: number;
  limit: number;
  sort: SortField;
  direction: 'asc' | 'desc';
}

export const SORT_FIELDS = ['id', 'created', 'modified', 'deadline', 'etd', 'eta', 'weight'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export function readPaging(params: Params): Paging {
  const page = Math.max(1, Math.min(readInt(params.page) ?? 1, 1_000_000));
  const rawLimit = readInt(params.limit) ?? DEFAULT_LIMIT;
  const limit = rawLimit < 1 ? DEFAULT_LIMIT : Math.min(rawLimit, MAX_LIMIT);
  const field = (readString(params.sort) ?? '').replace(/^Routes\./i, '');
  const sort = (SORT_FIELDS as readonly string[]).includes(field) ? (field as SortField) : 'created';
  const dir = (readString(params.direction) ?? '').toLowerCase();
  const direction = dir === 'asc' || dir === 'desc' ? dir : 'desc';
  return { page, limit, sort, direction };
}

export const offsetOf = (p: Paging) => (p.page - 1) * p.limit;
