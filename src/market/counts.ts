import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * The counts of a company's lists, kept per database snapshot: the engine of every list count
 * (freights' GET /freights/counts today, vehicle offers next). The owner of the rows writes the
 * one statement that counts them (freights/lists/counts.ts) and names what it counted by; this
 * keeps the answers.
 *
 * `pg_current_snapshot()` (xmin:xmax:in-progress transactions) names exactly which transactions a
 * statement sees: two statements with the same snapshot read the same rows, so counts read in one
 * hold for the other. Any committed write anywhere in the database moves the snapshot on, so
 * nothing is ever served from before a write the request could see: this is exact, not a
 * time-bounded staleness. Time is the one other input: an entry holds from the `now` it was
 * counted at until the first market deadline after it (later, or earlier clocks, count anew).
 * Per database handle, because snapshots of two databases of one server can be equal. Another
 * process keeps its own entries and needs none of these.
 */

/** What the counting statement answered: the counts by list, the snapshot it read in, and the first deadline from its `now` on. */
export interface Counted {
  counts: Record<string, number>;
  snapshot: string;
  /** the first market deadline from `now` on (null: none): until then no row changes its effective status */
  until: Date | null;
}

interface Entry {
  counts: Record<string, number>;
  /** the `now` they were counted at, and the first market deadline from then on (null: none) */
  from: Date;
  until: Date | null;
}

/** Whether counts taken at `entry.from` hold at `now`: no market deadline passed in between. */
function holds(entry: Entry, now: Date): boolean {
  const t = now.getTime();
  return t >= entry.from.getTime() && (entry.until === null || t <= entry.until.getTime());
}

/** Entries per database handle; the oldest go first (a new snapshot makes older ones useless anyway). */
const MAX_ENTRIES = 1000;

/** Counts by (database snapshot, key), and the counts being read now by key. */
class CountsCache {
  private readonly entries = new Map<string, Entry>();
  readonly inFlight = new Map<string, { snapshot: string; entry: Promise<Entry> }>();

  get(key: string, now: Date): Entry | undefined {
    const entry = this.entries.get(key);
    return entry && holds(entry, now) ? entry : undefined;
  }

  set(key: string, entry: Entry): void {
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }
}

const caches = new WeakMap<object, CountsCache>();
function cacheOf(db: Kysely<DB>): CountsCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new CountsCache();
    caches.set(db, cache);
  }
  return cache;
}

/**
 * The counts `key` names (a company and its search) at `now`: from the cache when they were read
 * in the snapshot this request would read in and no deadline passed since, else by `count` (the
 * owner's one statement). Requests for the same counts at once (several tabs, several users of a
 * company) share one statement when nothing was committed between them and no deadline passed
 * meanwhile.
 */
export async function countsAt(db: Kysely<DB>, key: string, now: Date, count: () => Promise<Counted>): Promise<Record<string, number>> {
  const cache = cacheOf(db);
  // One cheap round trip: the snapshot this request would read in.
  const snapshot = (await sql<{ s: string }>`select pg_current_snapshot()::text as s`.execute(db)).rows[0]!.s;
  const hit = cache.get(`${snapshot}|${key}`, now);
  if (hit) return hit.counts;
  const pending = cache.inFlight.get(key);
  if (pending?.snapshot === snapshot) {
    const shared = await pending.entry;
    if (holds(shared, now)) return shared.counts;
  }
  const entry = (async (): Promise<Entry> => {
    const counted = await count();
    const kept: Entry = { counts: counted.counts, from: now, until: counted.until };
    cache.set(`${counted.snapshot}|${key}`, kept);
    return kept;
  })();
  cache.inFlight.set(key, { snapshot, entry });
  try {
    return (await entry).counts;
  } finally {
    if (cache.inFlight.get(key)?.entry === entry) cache.inFlight.delete(key);
  }
}
