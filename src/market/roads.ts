import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Kysely } from 'kysely';
import type { Point } from '../places/index.ts';

/**
 * Road distances from an operator's routing server (ROUTING_URL: an OSRM server, its HTTP route
 * API `/route/v1/driving/lon,lat;lon,lat`; docs/choices.md, "Road distances"). Where none is set,
 * or while a pair is unknown, or when the server fails, the pages show the estimate (great circle
 * × places/geo.ts ROAD_FACTOR).
 *
 * - Never in a request's way: a page asks `knownKm`, which answers from memory at once; a pair it
 *   does not know is queued and fetched in the background, and the next page shows it.
 * - Cached per place pair in the database (`road_distances`, migration 0405), so every process
 *   and every restart shares what was fetched: a process loads the table at start (at most
 *   MEMORY_MAX pairs) and asks the table before the server for a pair it does not hold.
 * - Bounded: `concurrency` requests at a time (ROUTING_CONCURRENCY), each at most `timeoutMs`
 *   (ROUTING_TIMEOUT_MS); at most QUEUE_MAX pairs wait (more are dropped and asked again by a later
 *   page); a pair the server failed on is not asked again for RETRY_MS.
 *
 * One router per process (app.ts starts it with ROUTING_URL and stops it on close): the pages'
 * rendering reads it without a database handle.
 */

export interface RoutingOptions {
  /** the OSRM server's base URL, without `/route/…` */
  url: string;
  /** the longest a request to it may take (whole answer) */
  timeoutMs: number;
  /** requests to it at a time */
  concurrency: number;
  /** failures are told here (the server's log); never thrown */
  warn?: (message: string) => void;
}

/** Pairs held in memory; beyond, the oldest are forgotten (they stay in the table). */
const MEMORY_MAX = 200_000;
/** Pairs waiting to be fetched; beyond, new ones are dropped (a later page asks again). */
const QUEUE_MAX = 1_000;
/** A pair the server failed on (or had no route for) is not asked again before this. */
const RETRY_MS = 10 * 60_000;

interface Pair {
  from: Point;
  to: Point;
  key: string;
  parts: [string, string, string, string];
}

/**
 * A coordinate rounded to 4 decimals (about 10 m), as PostgreSQL's `round(numeric, 4)` rounds its
 * decimal text (half away from zero): the same in TypeScript and in SQL (roadKmSql), also for
 * coordinates stored as numeric(9, 6).
 */
export function round4(value: unknown): string | null {
  const text =
    typeof value === 'number'
      ? Number.isFinite(value)
        ? Math.abs(value) < 1e-4
          ? value.toFixed(10)
          : String(value)
        : ''
      : typeof value === 'string'
        ? value.trim()
        : '';
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) return null;
  const [, sign, whole, fraction = ''] = m;
  const digits = `${whole}${`${fraction}00000`.slice(0, 5)}`;
  let n = BigInt(digits.slice(0, -1));
  if (Number(digits.at(-1)) >= 5) n += 1n;
  const s = n.toString().padStart(5, '0');
  return `${sign && n !== 0n ? '-' : ''}${s.slice(0, -4)}.${s.slice(-4)}`;
}

function pairOf(from: Point, to: Point): Pair | null {
  const parts = [from.latitude, from.longitude, to.latitude, to.longitude].map(round4);
  if (parts.some((p) => p === null)) return null;
  return { from, to, key: parts.join(','), parts: parts as Pair['parts'] };
}

export class RoadRouter {
  private readonly memory = new Map<string, number>();
  private readonly failedAt = new Map<string, number>();
  private readonly waiting = new Map<string, Pair>();
  private readonly running = new Set<string>();
  private readonly idleWaiters: (() => void)[] = [];
  private stopped = false;
  private readonly controller = new AbortController();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: RoutingOptions,
  ) {}

  /** Loads what the table holds (at start; a process sharing the database may have fetched it). */
  async load(): Promise<void> {
    const rows = await this.db.selectFrom('road_distances').selectAll().orderBy('fetched', 'desc').limit(MEMORY_MAX).execute();
    for (const r of rows.reverse())
      this.remember([r.from_latitude, r.from_longitude, r.to_latitude, r.to_longitude].map(round4).join(','), r.km);
  }

  /** The road km between two points when known, else undefined (and the pair is fetched in the background). */
  knownKm(from: Point, to: Point): number | undefined {
    const pair = pairOf(from, to);
    if (!pair) return undefined;
    const km = this.memory.get(pair.key);
    if (km !== undefined) return km;
    this.enqueue(pair);
    return undefined;
  }

  /** Resolves when nothing waits and nothing runs (tests). */
  idle(): Promise<void> {
    if (!this.waiting.size && !this.running.size) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops fetching: what runs is aborted, what waits is dropped. */
  stop(): void {
    this.stopped = true;
    this.waiting.clear();
    this.controller.abort();
  }

  private remember(key: string, km: number) {
    this.memory.delete(key);
    this.memory.set(key, km);
    if (this.memory.size > MEMORY_MAX) this.memory.delete(this.memory.keys().next().value!);
  }

  private enqueue(pair: Pair) {
    if (this.stopped || this.waiting.has(pair.key) || this.running.has(pair.key) || this.waiting.size >= QUEUE_MAX) return;
    const failed = this.failedAt.get(pair.key);
    if (failed !== undefined && Date.now() - failed < RETRY_MS) return;
    this.failedAt.delete(pair.key);
    this.waiting.set(pair.key, pair);
    this.pump();
  }

  private pump() {
    while (!this.stopped && this.running.size < this.options.concurrency && this.waiting.size) {
      const [key, pair] = this.waiting.entries().next().value!;
      this.waiting.delete(key);
      this.running.add(key);
      void this.fetchPair(pair).finally(() => {
        this.running.delete(key);
        this.pump();
        if (!this.waiting.size && !this.running.size) for (const done of this.idleWaiters.splice(0)) done();
      });
    }
  }

  private async fetchPair(pair: Pair): Promise<void> {
    try {
      const [fLat, fLon, tLat, tLon] = pair.parts;
      const stored = await this.db
        .selectFrom('road_distances')
        .select('km')
        .where('from_latitude', '=', fLat)
        .where('from_longitude', '=', fLon)
        .where('to_latitude', '=', tLat)
        .where('to_longitude', '=', tLon)
        .executeTakeFirst();
      if (stored) {
        this.remember(pair.key, stored.km);
        return;
      }
      const km = await this.ask(pair);
      if (km === null || this.stopped) {
        this.failedAt.set(pair.key, Date.now());
        return;
      }
      await this.db
        .insertInto('road_distances')
        .values({ from_latitude: fLat, from_longitude: fLon, to_latitude: tLat, to_longitude: tLon, km, fetched: new Date() })
        .onConflict((oc) =>
          oc.columns(['from_latitude', 'from_longitude', 'to_latitude', 'to_longitude']).doUpdateSet({ km, fetched: new Date() }),
        )
        .execute();
      this.remember(pair.key, km);
    } catch (err) {
      this.failedAt.set(pair.key, Date.now());
      if (!this.stopped) this.options.warn?.(`road distance ${pair.key}: ${(err as Error).message}`);
    }
  }

  /** OSRM's route between the two points in km, or null when it has none. */
  private async ask(pair: Pair): Promise<number | null> {
    const [fLat, fLon, tLat, tLon] = pair.parts;
    const url = `${this.options.url.replace(/\/+$/, '')}/route/v1/driving/${fLon},${fLat};${tLon},${tLat}?overview=false&alternatives=false&steps=false`;
    const signal = AbortSignal.any([this.controller.signal, AbortSignal.timeout(this.options.timeoutMs)]);
    const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
    const body = (await res.json().catch(() => null)) as { code?: unknown; routes?: { distance?: unknown }[] } | null;
    if (!res.ok || body?.code !== 'Ok') {
      this.options.warn?.(`road distance ${pair.key}: ${res.status} ${String(body?.code ?? '')}`);
      return null;
    }
    const metres = body.routes?.[0]?.distance;
    return typeof metres === 'number' && Number.isFinite(metres) && metres >= 0 ? metres / 1000 : null;
  }
}

let current: RoadRouter | undefined;

/** Starts the process's router (app.ts, with ROUTING_URL): loads the table, then answers. */
export async function startRoadRouter(db: Kysely<DB>, options: RoutingOptions): Promise<RoadRouter> {
  current?.stop();
  const router = new RoadRouter(db, options);
  await router.load();
  current = router;
  return router;
}

/** Stops it (app.ts, on close); the pages go back to the estimate. */
export function stopRoadRouter(router: RoadRouter): void {
  router.stop();
  if (current === router) current = undefined;
}

/** The road km between two points from the routing server when known (fetching it else), or undefined. */
export function routedKm(from: Point, to: Point): number | undefined {
  return current?.knownKm(from, to);
}

/** Resolves when the process's router has nothing waiting or running (tests). */
export const routingIdle = (): Promise<void> => current?.idle() ?? Promise.resolve();

/** Whether a routing server is set (the lists' sort then reads the table). */
export const routingOn = (): boolean => current !== undefined;

/**
 * SQL: the routed km between two points given as numeric columns (the freights'), null when the
 * table does not hold the pair; the key rounded as round4 rounds it.
 */
export function roadKmSql(
  from: { latitude: string; longitude: string },
  to: { latitude: string; longitude: string },
): RawBuilder<number | null> {
  const r = (c: string) => sql`round((${sql.ref(c)})::numeric, 4)`;
  return sql<
    number | null
  >`(select rd.km from road_distances as rd where rd.from_latitude = ${r(from.latitude)} and rd.from_longitude = ${r(from.longitude)} and rd.to_latitude = ${r(to.latitude)} and rd.to_longitude = ${r(to.longitude)})`;
}
