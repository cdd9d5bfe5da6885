import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.ts';

/** Applies every pending migration; PostgreSQL's advisory lock serialises concurrent starts. */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
  }
}
