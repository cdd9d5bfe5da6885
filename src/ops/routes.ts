import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Services } from '../kernel/context.ts';

const PUBLIC_DIR = new URL('../../public/', import.meta.url);
const ASSETS: Record<string, string> = { 'app.css': 'text/css; charset=utf-8', 'app.js': 'text/javascript; charset=utf-8' };

/** What other modules add to /healthz by name (the mail outbox's state), passed in by app.ts. */
export type HealthParts = Record<string, () => Promise<unknown>>;

/** Health check for load balancers and the static assets of the pages (all served locally). */
export function registerOpsRoutes(app: FastifyInstance, services: Services, parts: HealthParts = {}): void {
  app.get('/healthz', async (_req, reply) => {
    try {
      await sql`select 1`.execute(services.db);
      const replicas = services.reads?.status();
      const more = Object.fromEntries(await Promise.all(Object.entries(parts).map(async ([name, read]) => [name, await read()])));
      return reply.send({
        status: 'ok',
        database: services.dbKind,
        env: services.config.appEnv,
        ...(replicas ? { replicas } : {}),
        ...more,
      });
    } catch {
      return reply.code(503).send({ status: 'error', database: 'unreachable' });
    }
  });

  const files = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readFileSync(new URL(name, PUBLIC_DIR)) }]));
  app.get('/assets/:name', async (req, reply) => {
    const file = files.get((req.params as { name: string }).name);
    if (!file) return reply.callNotFound();
    return reply.type(file.type).header('cache-control', 'public, max-age=3600').send(file.body);
  });
}
