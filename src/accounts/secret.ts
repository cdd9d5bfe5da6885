import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.ts';
import type { DB } from '../db/schema.ts';

/**
 * TOKEN_SECRET when set; otherwise (demo only, config refuses production without it) a secret
 * generated once and kept in the database: inside DATA_DIR for the embedded database, and shared
 * by every server process of a PostgreSQL deployment.
 */
export async function resolveTokenSecret(config: Pick<Config, 'tokenSecret'>, db: Kysely<DB>): Promise<string> {
  if (config.tokenSecret) return config.tokenSecret;
  await db
    .insertInto('settings')
    .values({ key: 'token_secret', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'token_secret').executeTakeFirstOrThrow();
  return row.value;
}
