import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';
import { SESSION_OPTIONS } from './connection.ts';
import { nameRepeatedStatements, registerProtocolPool } from './prepared.ts';

/**
 * Reads on PostgreSQL streaming replicas (DATABASE_READ_URL, docs/scaling.md): the endpoints that
 * declare `reads: 'replica'` (lists, searches, counts, the freight view, vehicle offers, lane
 * prices) read from a replica; everything else, and every write, goes to the primary.
 *
 * Read-your-writes: after a company's write request the primary's WAL position is kept as the
 * company's fence (`read_fences`, on the primary, so every server process sees it); a read of that
 * company goes to a replica only once the replica is known to have replayed past the fence,
 * else to the primary. A replica's replay position is sampled every SAMPLE_MS; a position read
 * earlier is never ahead of the truth, so a stale sample only sends a read to the primary.
 *
 * A replica is skipped while it is down (its sample failed) or lagging: it has not replayed
 * what the primary had written `maxLagMs` ago. Nothing here is needed by another process: each
 * keeps its own samples, and the fences are in the database.
 */

export const SAMPLE_MS = 250;

export type ReplicaState = 'starting' | 'ok' | 'lagging' | 'down';

export interface ReplicaStatus {
  /** host:port/database of the replica (never its password) */
  name: string;
  state: ReplicaState;
  /** bytes of WAL the replica is behind the primary's last sampled position; null when unknown */
  lag_bytes: number | null;
  /** reads sent to it by this process */
  reads: number;
}

interface Replica {
  name: string;
  db: Kysely<DB>;
  state: ReplicaState;
  replayed: bigint | null;
  reads: number;
}

/** `16/B374D848` as a number of bytes. */
export function parseLsn(text: string): bigint {
  const [hi, lo] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

function nameOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'replica';
  }
}

/** Connection failures and the standby's refusal to write: the read is done again on the primary. */
export function isReplicaFailure(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  if (code === '25006') return true; // read_only_sql_transaction: something in the request writes
  if (code && /^(08|57P)/.test(code)) return true; // connection exception, operator intervention (shutdown)
  const message = err instanceof Error ? err.message : '';
  return /ECONNREFUSED|ECONNRESET|Connection terminated|timeout exceeded when trying to connect|connect ETIMEDOUT/.test(message);
}

export class ReadReplicas {
  private readonly replicas: Replica[];
  /** the primary's WAL positions, oldest first, with when they were read */
  private samples: Array<{ at: number; lsn: bigint }> = [];
  private timer: NodeJS.Timeout | undefined;
  private sampling = false;
  private next = 0;

  constructor(
    private readonly primary: Kysely<DB>,
    urls: readonly string[],
    private readonly maxLagMs: number,
    private readonly onError: (err: unknown, replica: string) => void = () => {},
  ) {
    this.replicas = urls.map((url) => {
      const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 2_000, options: SESSION_OPTIONS });
      // A replica that goes away must not crash the process: the next sample marks it down.
      pool.on('error', () => {});
      // …nor one whose connection drops while a query is in flight (that query fails and is answered again).
      pool.on('connect', (client) => client.on('error', () => {}));
      const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
      registerProtocolPool(db, pool);
      nameRepeatedStatements(pool);
      return {
        name: nameOf(url),
        db,
        state: 'starting',
        replayed: null,
        reads: 0,
      };
    });
  }

  /** Samples at once, then every SAMPLE_MS (the timer does not keep the process alive). */
  async start(): Promise<void> {
    await this.sample();
    this.timer = setInterval(() => void this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((r) => r.db.destroy()));
  }

  /** One round: the primary's position, then each replica's replayed position and state. */
  async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const now = Date.now();
      try {
        const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(this.primary);
        this.samples.push({ at: now, lsn: parseLsn(rows[0]!.lsn) });
      } catch (err) {
        this.onError(err, 'primary');
      }
      // Keep what the lag rule needs: the newest sample at least maxLagMs old, and everything after it.
      let old = -1;
      for (let i = 0; i < this.samples.length && this.samples[i]!.at <= now - this.maxLagMs; i++) old = i;
      if (old > 0) this.samples = this.samples.slice(old);
      const bound = this.samples[0] && this.samples[0].at <= now - this.maxLagMs ? this.samples[0].lsn : undefined;
      await Promise.all(
        this.replicas.map(async (r) => {
          try {
            const { rows } = await withTimeout(
              sql<{ lsn: string | null }>`select (case when pg_is_in_recovery() then pg_last_wal_replay_lsn()
                  else pg_current_wal_lsn() end)::text as lsn`.execute(r.db),
              2_000,
            );
            r.replayed = rows[0]?.lsn ? parseLsn(rows[0].lsn) : null;
            r.state = r.replayed === null || (bound !== undefined && r.replayed < bound) ? 'lagging' : 'ok';
          } catch (err) {
            if (r.state !== 'down') this.onError(err, r.name);
            r.state = 'down';
          }
        }),
      );
    } finally {
      this.sampling = false;
    }
  }

  /**
   * The database a read of `companyId` goes to: a healthy replica that has replayed past the
   * company's fence (in turn), else the primary.
   */
  async dbFor(companyId: number): Promise<Kysely<DB>> {
    const healthy = this.replicas.filter((r) => r.state === 'ok');
    if (!healthy.length) return this.primary;
    const { rows } = await sql<{ lsn: string }>`select lsn::text as lsn from read_fences where company_id = ${companyId}`.execute(
      this.primary,
    );
    const fence = rows[0] ? parseLsn(rows[0].lsn) : 0n;
    const fit = healthy.filter((r) => r.replayed !== null && r.replayed >= fence);
    if (!fit.length) return this.primary;
    const chosen = fit[this.next++ % fit.length]!;
    chosen.reads++;
    return chosen.db;
  }

  /** After a write request of the company: its reads wait for the primary's present position. */
  async wrote(companyId: number): Promise<void> {
    await sql`insert into read_fences (company_id, lsn, at) values (${companyId}, pg_current_wal_lsn(), now())
      on conflict (company_id) do update set lsn = greatest(read_fences.lsn, excluded.lsn), at = excluded.at`.execute(this.primary);
  }

  /** A replica that failed a read is skipped until the next sample finds it well. */
  failed(db: Kysely<DB>): void {
    const r = this.replicas.find((x) => x.db === db);
    if (r) r.state = 'down';
  }

  status(): ReplicaStatus[] {
    const head = this.samples.at(-1)?.lsn;
    return this.replicas.map((r) => ({
      name: r.name,
      state: r.state,
      lag_bytes: head !== undefined && r.replayed !== null ? Math.max(0, Number(head - r.replayed)) : null,
      reads: r.reads,
    }));
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('replica sample timed out')), ms);
    }),
  ]);
}
