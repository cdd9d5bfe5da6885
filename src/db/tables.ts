/**
 * The db module's own table (migration 0120): per company, the primary's WAL position after its
 * last write request, for read-your-writes on replicas (replicas.ts).
 */

export interface ReadFencesTable {
  company_id: number;
  /** a `pg_lsn`, read as its text (`16/B374D848`) */
  lsn: string;
  at: Date;
}

export interface DbTables {
  read_fences: ReadFencesTable;
}
