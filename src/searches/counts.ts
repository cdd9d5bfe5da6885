import { sql, type Kysely } from 'kysely';
import { executeShape } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import { countsOfRow, freightCountsQuery, LIST } from '../freights/index.ts';
import { notOnTourSql, plannedOrdersCountSql, toursCountSql } from '../tms/store.ts';
import { isEmptySearch, searchToParams, type LoadSearch } from '../market/index.ts';

/**
 * GET /freights/counts: how many freights each list holds for the caller's company, narrowed by
 * the same search as the lists (so the tabs can show the counts of the current search).
 *
 * One statement. The lists fall into three families, each counted over one set of rows with
 * `count(*) filter (where <the list's membership>)`, the membership being the lists' own
 * (freights/lists/membership.ts), so a count cannot disagree with its list:
 * - the company's own freights (drafts, open tenders with and without bids, awarded, archive,
 *   outgoing booking requests);
 * - the freights it bid on or won (its bids, lost, won, archive, incoming booking requests
 *   taken and ended): its live bids and won freights, each freight read once by primary key;
 * - the market: index-only over `freights_market_counts_idx` (migration 0012), no table reads.
 * Incoming booking requests and the TMS's lists are small indexed counts of their own (which
 * list is counted how: freights/lists/registry.ts).
 *
 * Counts change only when freights, bids or tours change, or when a deadline passes. They are
 * kept in memory per database snapshot (see countsCache): another server process never needs
 * them, and an answer is never older than the database state the request itself would read.
 */
export async function countLists(db: Kysely<DB>, companyId: number, now: Date, search: LoadSearch): Promise<Record<string, number>> {
  const cache = cacheOf(db);
  const key = `${companyId}|${isEmptySearch(search) ? '' : JSON.stringify(searchToParams(search))}`;
  // One cheap round trip: the snapshot this request would read in.
  const snapshot = (await sql<{ s: string }>`select pg_current_snapshot()::text as s`.execute(db)).rows[0]!.s;
  const hit = cache.get(`${snapshot}|${key}`, now);
  if (hit) return hit.counts;
  // Requests for the same counts at once (several tabs, several users of a company) share one
  // statement when nothing was committed between them and no deadline passed meanwhile.
  const pending = cache.inFlight.get(key);
  if (pending?.snapshot === snapshot) {
    const shared = await pending.entry;
    if (holds(shared, now)) return shared.counts;
  }
  const entry = (async (): Promise<Entry> => {
    // Prepared by its text (one text per search shape): planning it cost half its run (12 of 25 ms).
    const [row] = await executeShape<Record<string, unknown>>(db, countsQuery(db, companyId, now, search).compile());
    if (!row) throw new Error('the counts statement answered no row');
    const counted: Entry = { counts: countsOfRow(row), from: now, until: row.until === null ? null : new Date(row.until as Date) };
    cache.set(`${String(row.snapshot)}|${key}`, counted);
    return counted;
  })();
  cache.inFlight.set(key, { snapshot, entry });
  try {
    return (await entry).counts;
  } finally {
    if (cache.inFlight.get(key)?.entry === entry) cache.inFlight.delete(key);
  }
}

/** The statement of countLists (the benchmark explains it): the freight lists' with the TMS lists' pieces. */
export function countsQuery(db: Kysely<DB>, companyId: number, now: Date, search: LoadSearch) {
  return freightCountsQuery(db, companyId, now, search, {
    notPlanned: notOnTourSql,
    counts: (c) => ({ [LIST.tmsPlanned]: plannedOrdersCountSql(c), [LIST.tmsTours]: toursCountSql(c) }),
  });
}

// ---------------------------------------------------------------------------------------------
// The counts cache

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

/**
 * Counts by (database snapshot, company, search). `pg_current_snapshot()` (xmin:xmax:in-progress
 * transactions) names exactly which transactions a statement sees: two statements with the same
 * snapshot read the same rows, so counts read in one hold for the other. Any committed write
 * anywhere in the database moves the snapshot on, so nothing is ever served from before a write
 * the request could see: this is exact, not a time-bounded staleness. Time is the one other input:
 * an entry holds from the `now` it was counted at until the first market deadline after it (later,
 * or earlier clocks, count anew). Per database handle, because snapshots of two databases of one
 * server can be equal. Another process keeps its own entries and needs none of these.
 */
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
