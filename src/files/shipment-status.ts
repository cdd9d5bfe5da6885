import { sql, type SqlBool } from 'kysely';
import { namesOfCompanies as companyNames } from '../accounts/index.ts';
import type { Db } from '../db/schema.ts';
import { eventsByAwb, type StatusEvent } from '../events/index.ts';
import { BIDS, fromFreights, partiesOf, partyToAwbSql, type AwbFreight } from '../freights/index.ts';
import type { Clock } from '../kernel/time.ts';
import { announce, type PlannedEvent as Planned } from '../webhooks/index.ts';

/**
 * `shipment.status`: the status events a company pushed (status-events.ts), told to it and to the
 * other parties of the freights carrying their AWBs (docs/reference.md#events), read over the
 * freights' read model with the freights' rule of who is a party to an AWB (freights/policy.ts).
 */

/** An AWB as freights are matched by it: its digits (so `020-1234 5675` is `02012345675`). */
export const awbDigits = (awb: string) => awb.replace(/\D/g, '');

/**
 * The freights carrying any of the AWBs (compared by their digits, freights_awb_digits_idx) that
 * make their companies parties to it (freights/policy.ts partyToAwbSql), with when each was awarded (its
 * accepted bid), the first awarded first: the rule of public tracking (src/tracking/policy.ts)
 * and of `shipment.status` events (below); at most `limit` when given.
 *
 * One probe of the AWB index per AWB asked (a lateral join over the list, fenced by `offset 0`),
 * so its time grows with the AWBs asked, never with the exchange: asked as one `in (…)` filter,
 * the planner walked every awarded freight by `freights_winner_idx` instead (a third of the
 * table; about 50–80 ms per 1,000 AWBs at 100,000 freights); as an unfenced lateral join, it
 * pulled the subquery up and read the whole AWB index into a hash join for every batch of the
 * push (25,000 rows, 52 ms for 125 AWBs at 100,000 freights; 0.3 ms fenced; docs/choices.md,
 * Reliability).
 */
export async function freightsOfAwbParties(db: Db, awbs: readonly string[], limit?: number): Promise<AwbFreight[]> {
  if (!awbs.length) return [];
  return (await awbPartiesQuery(db, awbs, limit).execute()) as AwbFreight[];
}

/** The statement of freightsOfAwbParties (its plan is tested: tests/aircargo/awb-parties.test.ts). */
export function awbPartiesQuery(db: Db, awbs: readonly string[], limit?: number) {
  const digits = [...new Set(awbs.map(awbDigits))];
  const awarded = sql<Date | null>`(select max(b.modified) from ${BIDS} b where b.freight_id = freights.id and b.status = 'accepted')`;
  return db
    .selectFrom(sql<{ d: string }>`unnest(${digits}::text[])`.as('d'))
    .innerJoinLateral(
      fromFreights(db)
        .select(['id', 'company_id', 'winner_id', 'transport_company_id', 'awb', awarded.as('awarded')])
        .where('awb', 'is not', null)
        .where(sql<SqlBool>`regexp_replace(freights.awb, '\\D', '', 'g') = d.d`)
        .where(partyToAwbSql)
        // A fence: the subquery stays a probe per AWB (a nested loop over the list); pulled up
        // into a plain join, the planner read the whole AWB index into a hash join instead.
        .modifyEnd(sql`offset 0`)
        .as('f'),
      (join) => join.onTrue(),
    )
    .select(['f.id', 'f.company_id', 'f.winner_id', 'f.transport_company_id', 'f.awb', 'f.awarded'])
    .orderBy('f.awarded', (ob) => ob.asc().nullsLast())
    .orderBy('f.id')
    .$if(limit !== undefined, (q) => q.limit(limit!));
}

/**
 * Status events go to the company that pushed them (every field) and, through each freight
 * carrying the AWB to which that company itself is a party (owner, winner, transport company of
 * a freight awarded between two companies: freights/policy.ts partyToAwbSql), to that freight's other
 * parties, with its freight id and the sender. Never through a freight the sender is no party
 * to: a company that names someone's AWB on a tender of its own, won by an honest carrier, speaks
 * to that carrier only, not to the shipment's real parties. One event per AWB and recipient.
 */
async function planShipmentStatus(db: Db, clock: Clock, input: { companyId: number; events: readonly StatusEvent[] }): Promise<Planned[]> {
  const byAwb = eventsByAwb(input.events);
  if (!byAwb.size) return [];
  // Freights carrying the AWBs that make their companies parties, as public tracking reads them.
  const freights = await freightsOfAwbParties(db, [...byAwb.keys()]);
  const tracking = (e: StatusEvent) => ({ code: e.code, time: clock.format(e.time), location: e.location, flight_number: e.flight_number });
  const full = (e: StatusEvent) => ({
    ...tracking(e),
    pieces: e.pieces,
    weight: e.weight === null ? null : Number(e.weight),
    special_handling_codes: e.special_handling_codes,
    warehouse_location: e.warehouse_location,
  });
  const planned: Planned[] = [];
  let sender: { id: number; name: string | null } | undefined;
  // The freights by their AWB's digits (one look-up per AWB of the file, not a pass over all of them).
  const byDigits = new Map<string, typeof freights>();
  for (const f of freights) {
    if (f.awb === null) continue;
    const key = awbDigits(f.awb);
    byDigits.set(key, [...(byDigits.get(key) ?? []), f]);
  }
  for (const [awb, lines] of byAwb) {
    planned.push({ companyId: input.companyId, freightId: null, from: [input.companyId], data: () => ({ awb, events: lines.map(full) }) });
    // Only the freights the sender is a party to carry its word (docs/choices.md, Tracking);
    // anyone else's events reach nobody but their pusher.
    const own = (byDigits.get(awbDigits(awb)) ?? []).filter((f) => partiesOf(f).includes(input.companyId));
    const parties = new Map<number, number[]>();
    for (const f of own) {
      for (const c of partiesOf(f)) if (c !== input.companyId) parties.set(c, [...(parties.get(c) ?? []), f.id]);
    }
    if (!parties.size) continue;
    // Who sent the statuses, named in what the other parties receive: a party's word, not the exchange's (read once).
    sender ??= { id: input.companyId, name: (await companyNames(db, [input.companyId])).get(input.companyId) ?? null };
    for (const [companyId, routes] of parties) {
      planned.push({
        companyId,
        freightId: routes[0] ?? null,
        from: [input.companyId],
        data: () => ({ awb, events: lines.map(tracking), routes, sender }),
      });
    }
  }
  return planned;
}

/** `shipment.status` for status events just stored by `companyId` (in the same transaction). */
export async function emitShipmentStatus(db: Db, clock: Clock, companyId: number, events: readonly StatusEvent[]): Promise<void> {
  if (!events.length) return;
  await announce(db, clock, 'shipment.status', await planShipmentStatus(db, clock, { companyId, events }));
}
