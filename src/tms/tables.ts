import type { ColumnType, Generated } from 'kysely';

export interface ToursTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  name: string;
  /** date column: read as 'YYYY-MM-DD' */
  date: ColumnType<string | null, string | null, string | null>;
  created: Date;
  modified: Date;
}

export interface TourFreightsTable {
  freight_id: number;
  tour_id: number;
  company_id: number;
  position: number;
  created: Date;
}

export interface TmsTables {
  tours: ToursTable;
  tour_freights: TourFreightsTable;
}
