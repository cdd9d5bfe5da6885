import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.ts';

/** Applies every pending migration; PostgreSQL's advisory lock serialises concurrent starts. */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // Each module numbers its migrations in its own range (freights 0010-, pricing 0030-, …), so a
  // module's new migration may sort before another module's applied one: apply it anyway.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
  }
}
