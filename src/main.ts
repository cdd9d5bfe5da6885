import type { Config } from './config/config.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/connection.ts';

/** How long a stop waits for unfinished requests before cutting their connections. */
const GRACE_MS = 5_000;

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
    // Fastify stops accepting and closes idle keep-alive connections at once. A request still
    // arriving or stalled gets GRACE_MS to finish; then its connection is cut, so the stop
    // always ends with the database closed (and the data directory released), exit code 0.
    const cut = setTimeout(() => {
      http.log.warn({ graceMs: GRACE_MS }, 'closing connections that did not finish in time');
      http.server.closeAllConnections();
    }, GRACE_MS);
    const force = setTimeout(() => {
      http.log.error('shutdown did not finish, exiting');
      process.exit(1);
    }, GRACE_MS + 20_000);
    force.unref();
    try {
      await http.close();
    } finally {
      clearTimeout(cut);
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
