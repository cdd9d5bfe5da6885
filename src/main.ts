import type { Config } from './config.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/connection.ts';

/** Start: config -> database -> app -> listen; stops gracefully on SIGTERM/SIGINT. */
export async function serve(config: Config): Promise<void> {
  const database = await openDatabase(config);
  const { http } = await buildApp({
    config,
    database,
    logger: { level: config.logLevel, base: { env: config.appEnv } },
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    http.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Fastify stops accepting, lets in-flight requests finish, then closes; the database after.
    const force = setTimeout(() => {
      http.log.error('shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await http.close();
    } finally {
      await database.close();
    }
    http.log.info('stopped');
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  try {
    await http.listen({ port: config.port, host: config.host });
  } catch (err) {
    await database.close();
    throw err;
  }
  http.log.info({ database: database.kind, timezone: config.timezone }, 'freight exchange ready');
}
