import { sql, type Kysely } from 'kysely';

/**
 * Alerts after the commit (src/alerts): what entered the market and still awaits its alert.
 * A row is written by the publishing transaction and deleted by the one that writes the alert;
 * the index serves the workers' claim (the oldest due row, skipping rows another one holds).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table alert_jobs (
    id bigserial primary key,
    subject text not null check (subject in ('freight', 'vehicle')),
    subject_id int not null,
    created timestamptz not null,
    due timestamptz not null,
    attempts int not null default 0
  )`.execute(db);
  await sql`create index alert_jobs_due_idx on alert_jobs (due, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists alert_jobs`.execute(db);
}
