import { sql, type Kysely } from 'kysely';

/**
 * Read-your-writes with replicas (src/db/replicas.ts): per company, the primary's WAL position
 * after its last write request. A read of the company goes to a replica only once the replica
 * has replayed past it. Written only when DATABASE_READ_URL names replicas.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table read_fences (company_id int primary key, lsn pg_lsn not null, at timestamptz not null)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists read_fences`.execute(db);
}
