import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/connection.ts';
import { serveBackupSocket } from './socket.ts';

/**
 * While the server listens on an embedded database in a data directory, it answers backup
 * requests (socket.ts); the socket closes with the server, before the database does.
 */
export function attachBackupSocket(http: FastifyInstance, database: Database): void {
  if (!database.embedded?.dataDir) return;
  let stop: (() => Promise<void>) | undefined;
  http.addHook('onListen', async () => {
    stop = await serveBackupSocket(database, http.log);
  });
  http.addHook('onClose', async () => {
    await stop?.();
  });
}
