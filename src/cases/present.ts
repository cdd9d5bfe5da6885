import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { visibleShipments } from '../shipments/store.ts';
import { linksOf, type CaseRow } from './store.ts';

/** A case as api.md presents it, with its links. */
export type CaseView = Awaited<ReturnType<typeof presentCases>>[number];
/** One link of a case ("Case link"). */
export type CaseLinkView = CaseView['_links'][number];

/**
 * api.md "Case" with `_links` ("Case link"). A link's `object` is the Shipment as the caller
 * may see it now: masked for a former bidder, null once the freight is no longer visible.
 */
export async function presentCases(db: Kysely<DB>, clock: Clock, caller: Caller, cases: CaseRow[]) {
  const links = await linksOf(
    db,
    cases.map((c) => c.id),
  );
  const shipments = await visibleShipments(
    db,
    clock,
    caller,
    [...links.values()].flat().map((l) => l.freight_id),
  );
  return cases.map((c) => ({
    id: c.id,
    name: c.name,
    author_user_id: c.user_id,
    author_company_id: c.company_id,
    created: clock.formatShort(c.created),
    modified: clock.formatShort(c.modified),
    _links: (links.get(c.id) ?? []).map((l) => ({
      id: l.id,
      author_user_id: l.user_id,
      author_company_id: l.company_id,
      created: clock.formatShort(l.created),
      modified: clock.formatShort(l.modified),
      object: shipments.get(l.freight_id) ?? null,
    })),
  }));
}

/** One case (add, view): presentCases answers one case for each row it is given. */
export async function presentCase(db: Kysely<DB>, clock: Clock, caller: Caller, row: CaseRow): Promise<CaseView> {
  const [found] = await presentCases(db, clock, caller, [row]);
  return found!;
}
