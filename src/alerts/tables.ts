import type { Generated } from 'kysely';

/**
 * The alerts module's table (migration 0140): the alerts still to compute, one row per thing
 * that entered the market. Written in the transaction that publishes, deleted in the
 * transaction that writes the alert's notifications and events (queue.ts).
 */

/** What entered the market: a freight (saved searches, fitting vehicle offers) or a vehicle offer (fitting freights). */
export type AlertSubject = 'freight' | 'vehicle';

export interface AlertJobsTable {
  id: Generated<number>;
  subject: AlertSubject;
  subject_id: number;
  /** when it entered the market */
  created: Date;
  /** when the next attempt may run (later after a failed one) */
  due: Date;
  /** failed attempts so far */
  attempts: Generated<number>;
}

export interface AlertTables {
  alert_jobs: AlertJobsTable;
}
