import type { ColumnType, Generated } from 'kysely';

export interface SavedSearchesTable {
  id: Generated<number>;
  user_id: number;
  company_id: number;
  name: string;
  filter_id: number;
  /** JSON text of the normalised parameters: write with JSON.stringify, read back parsed */
  params: ColumnType<Record<string, string>, string, string>;
  alert: Generated<boolean>;
  created: Date;
  modified: Date;
  /** the `from` patterns' texts, kept by PostgreSQL from `params` (migration 0130); null: none */
  from_keys: ColumnType<string[] | null, never, never>;
  to_keys: ColumnType<string[] | null, never, never>;
  /** a `from_near` point's latitude and longitude and the radius in km, as numbers (migration 0130); null otherwise */
  from_near_lat: ColumnType<number | null, never, never>;
  from_near_lon: ColumnType<number | null, never, never>;
  from_near_km: ColumnType<number | null, never, never>;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  search_id: number | null;
  search_name: string;
  /** the freight it names; null for a tender's invitation (migration 0331: exactly one of freight_id and tender_id) */
  freight_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** the tender of a `tender.published` notification (docs/reference.md#tenders) */
  tender_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** the vehicle offer of a vehicle match (docs/reference.md#vehicles); null for a saved search's */
  vehicle_id: ColumnType<number | null, number | null | undefined, number | null>;
  created: Date;
  read_at: Date | null;
  /** a further reason of a user's `freight.matched` of one freight: the notification shown (migration 0397); null: shown itself */
  merged_into: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SearchTables {
  saved_searches: SavedSearchesTable;
  notifications: NotificationsTable;
}
