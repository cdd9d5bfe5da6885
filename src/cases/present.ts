import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { type Shipment, visibleShipments } from '../shipments/index.ts';
import { linksOf, type CaseLinkRow, type CaseRow } from './store.ts';

/** What cases are presented with beside their rows: their links, and each link's Shipment as the caller may see it. */
export interface CaseParts {
  links: Map<number, CaseLinkRow[]>;
  shipments: Map<number, Shipment>;
}

/** Reads the parts of `cases` (two statements whatever their number). */
export async function readCaseParts(db: Kysely<DB>, clock: Clock, caller: Caller, cases: readonly CaseRow[]): Promise<CaseParts> {
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
  return { links, shipments };
}

/**
 * docs/reference.md#the-api "Case" with `_links` ("Case link"). A link's `object` is the Shipment as the caller
 * may see it now: masked for a former bidder, null once the freight is no longer visible.
 */
export function presentCases(cases: readonly CaseRow[], parts: CaseParts, clock: Clock) {
  return cases.map((c) => ({
    id: c.id,
    name: c.name,
    author_user_id: c.user_id,
    author_company_id: c.company_id,
    created: clock.formatShort(c.created),
    modified: clock.formatShort(c.modified),
    _links: (parts.links.get(c.id) ?? []).map((l) => ({
      id: l.id,
      author_user_id: l.user_id,
      author_company_id: l.company_id,
      created: clock.formatShort(l.created),
      modified: clock.formatShort(l.modified),
      object: parts.shipments.get(l.freight_id) ?? null,
    })),
  }));
}

/** A case as docs/reference.md#the-api presents it, with its links. */
export type CaseView = ReturnType<typeof presentCases>[number];
/** One link of a case ("Case link"). */
export type CaseLinkView = CaseView['_links'][number];

/** Cases read for the caller and presented (index, add, view). */
export async function caseViews(db: Kysely<DB>, clock: Clock, caller: Caller, cases: CaseRow[]): Promise<CaseView[]> {
  return presentCases(cases, await readCaseParts(db, clock, caller, cases), clock);
}
