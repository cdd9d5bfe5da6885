import type { Db } from '../db/schema.ts';
import { emitEvent } from '../freights/index.ts';
import { marketCandidate, searchesMatching } from './matching.ts';
import type { Clock } from '../kernel/time.ts';
import { presentSearch } from './present.ts';
import { alertingSearches, insertNotifications, mergeMatchNotifications, type SavedSearchRow } from './store.ts';
import { readLoadSearch } from '../market/index.ts';

/** Searches evaluated per statement (one boolean column each). */
const BATCH = 100;

/**
 * A freight has just entered the market (published, or created open by `winner_direct`): every
 * alerting saved search of another company that may see it and that it matches gives its user a
 * notification and its company a `freight.matched` event (docs/reference.md#load-search, #events). Run by the alerts
 * module's queue after the change committed, in the transaction that removes its job. "Matches" is the
 * lists' own SQL (src/freights/search.ts), evaluated on this one row for each search at once.
 * Answers the number of notifications written.
 */
export async function alertSavedSearches(trx: Db, clock: Clock, freightId: number): Promise<number> {
  // A market freight of another company: the searcher's role is `market`, nothing is masked but refs.
  const now = clock.now();
  const freight = await marketCandidate(trx, freightId, now);
  if (!freight) return 0;
  const searches = await alertingSearches(trx, freight);
  if (!searches.length) return 0;
  const matched: SavedSearchRow[] = [];
  for (let i = 0; i < searches.length; i += BATCH) {
    const batch = searches.slice(i, i + BATCH);
    const matches = await searchesMatching(
      trx,
      freightId,
      batch.map((s) => ({ search: () => readLoadSearch(s.params ?? {}, clock.zone), company: s.company_id })),
      now,
    );
    if (!matches) return 0;
    batch.forEach((s, k) => {
      if (matches[k]) matched.push(s);
    });
  }
  // One notification per user (its first matching search); the events follow the notifications written.
  const firstPerUser = new Map<number, SavedSearchRow>();
  for (const s of matched) if (!firstPerUser.has(s.user_id)) firstPerUser.set(s.user_id, s);
  const written = await insertNotifications(
    trx,
    [...firstPerUser.values()].map((s) => ({ userId: s.user_id, searchId: s.id, searchName: s.name, freightId, created: now })),
  );
  // A user whose vehicle offer fits the freight too hears of the load once (one alert, every reason).
  await mergeMatchNotifications(trx, freightId);
  // One event per notification written, the freight read and presented once for all of them.
  if (written.length) {
    const matches = written.map((n) => {
      const search = firstPerUser.get(n.user_id)!;
      return { companyId: search.company_id, search: presentSearch(search, clock) };
    });
    await emitEvent(trx, clock, { type: 'freight.matched', freightId, matches });
  }
  return written.length;
}
