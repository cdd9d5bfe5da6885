import { sql, type Kysely } from 'kysely';
import { isCompany } from '../accounts/index.ts';
import type { DB } from '../db/schema.ts';
import { eventsByAwb, type StatusEvent } from '../events/index.ts';
import type { Caller } from '../kernel/context.ts';
import { offsetOf } from '../kernel/params.ts';
import type { Paging } from '../kernel/paging.ts';
import type { MilkrunRow } from './present.ts';
import { LISTS, decideMove, stateAfterEvent, type Move, type Party } from './states.ts';
import type { FailureCode } from '../kernel/errors.ts';

const earliest = (a: Date | null, b: Date) => (a && a <= b ? a : b);

/**
 * Creates or updates the company's import shipments from status events, inside the caller's
 * transaction (file push). AWBs are locked in sorted order so two concurrent pushes never
 * deadlock; events apply oldest first, so files arriving out of order give the same result:
 * - the first event creates the shipment (waiting);
 * - RCF: ata and flight number of the latest RCF; its location is the airport of arrival;
 * - NFD / AWD: the time of the first such message;
 * - DLV: delivered (state machine, states.ts);
 * - pieces, weight, special handling codes, warehouse location: the latest value sent.
 * Answers the number of shipments touched.
 */
export async function applyStatusEvents(trx: Kysely<DB>, companyId: number, events: readonly StatusEvent[], now: Date): Promise<number> {
  const byAwb = eventsByAwb(events);
  const awbs = [...byAwb.keys()].sort();
  // Three statements per chunk of AWBs (create, lock, update), so a large file stays quick.
  for (let i = 0; i < awbs.length; i += AWB_CHUNK) {
    const chunk = awbs.slice(i, i + AWB_CHUNK);
    await trx
      .insertInto('milkrun_shipments')
      .values(chunk.map((awb) => ({ company_id: companyId, awb, created: now, modified: now })))
      .onConflict((oc) => oc.columns(['company_id', 'awb']).doNothing())
      .execute();
    const rows = await trx
      .selectFrom('milkrun_shipments')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('awb', 'in', chunk)
      .orderBy('awb')
      .forUpdate()
      .execute();
    const updated = rows.map((row) => fold(row, byAwb.get(row.awb)!));
    await sql`
      update milkrun_shipments as m set
        state = v.state, location = v.location, weight = v.weight, pieces = v.pieces,
        special_handling_codes = v.special_handling_codes, warehouse_location = v.warehouse_location,
        flight_number = v.flight_number, ata = v.ata, awd_received = v.awd_received,
        nfd_received = v.nfd_received, delivered = v.delivered, modified = ${now}
      from json_to_recordset(${JSON.stringify(updated)}::json) as v(
        id integer, state text, location text, weight numeric, pieces integer,
        special_handling_codes text, warehouse_location text, flight_number text,
        ata timestamptz, awd_received timestamptz, nfd_received timestamptz, delivered timestamptz)
      where m.id = v.id`.execute(trx);
  }
  return awbs.length;
}

const AWB_CHUNK = 500;

/** One shipment after its events, oldest first (the rules above). */
function fold(row: MilkrunRow, events: StatusEvent[]): MilkrunRow {
  const next = { ...row };
  const sorted = [...events].sort((a, b) => a.time.getTime() - b.time.getTime());
  for (const e of sorted) {
    if (e.code === 'RCF') {
      if (!next.ata || e.time >= next.ata) {
        next.ata = e.time;
        if (e.flight_number) next.flight_number = e.flight_number;
        if (e.location) next.location = e.location;
      }
    } else if (e.code === 'NFD') next.nfd_received = earliest(next.nfd_received, e.time);
    else if (e.code === 'AWD') next.awd_received = earliest(next.awd_received, e.time);
    const state = stateAfterEvent(next.state, e.code);
    if (state) {
      next.state = state;
      next.delivered = e.time;
    }
    if (!next.location && e.location) next.location = e.location;
    if (!next.flight_number && e.flight_number) next.flight_number = e.flight_number;
    if (e.pieces !== null) next.pieces = e.pieces;
    if (e.weight !== null) next.weight = e.weight;
    if (e.special_handling_codes !== null) next.special_handling_codes = e.special_handling_codes;
    if (e.warehouse_location !== null) next.warehouse_location = e.warehouse_location;
  }
  return next;
}

/** A page of a milk-run list (filter ids 70-84), or null when the id is no milk-run list. */
export async function milkrunList(db: Kysely<DB>, caller: Caller, filterId: number, paging: Paging): Promise<MilkrunRow[] | null> {
  const list = LISTS[filterId];
  if (!list) return null;
  return (
    db
      .selectFrom('milkrun_shipments')
      .selectAll()
      .where(list.party === 'owner' ? 'company_id' : 'carrier_id', '=', caller.companyId)
      .where('state', 'in', [...list.states])
      // arrival order: what came in first is handled first; not yet arrived last
      .orderBy(sql`ata asc nulls last`)
      .orderBy('id', 'asc')
      .limit(paging.limit)
      .offset(offsetOf(paging))
      .execute()
  );
}

export type MoveResult =
  | { kind: 'ok'; row: MilkrunRow }
  /** neither owner nor carrier: 404 */
  | { kind: 'not_found' }
  /** a party, but the move is not allowed from this state, or bad input: status error */
  | { kind: 'refused'; reason: FailureCode; vars?: Record<string, string | number> };

/**
 * Applies a move of the state machine (states.ts) on the shipment locked FOR UPDATE, so two
 * concurrent moves serialise and the second sees the first's state.
 */
export async function moveShipment(
  db: Kysely<DB>,
  now: Date,
  caller: Caller,
  id: number,
  move: Move,
  carrierId: number | undefined,
): Promise<MoveResult> {
  return db.transaction().execute(async (trx): Promise<MoveResult> => {
    const row = await trx.selectFrom('milkrun_shipments').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) return { kind: 'not_found' };
    const parties: Party[] = [];
    if (row.company_id === caller.companyId) parties.push('owner');
    if (row.carrier_id !== null && row.carrier_id === caller.companyId) parties.push('carrier');
    if (parties.length === 0) return { kind: 'not_found' };
    const rule = decideMove(move, parties, row.state);
    if (!rule) return { kind: 'refused', reason: 'milkrun.move_not_allowed', vars: { move, state: row.state } };
    const values: Partial<MilkrunRow> = { state: rule.to, modified: now };
    if (rule.to === 'dispatched') {
      if (carrierId === undefined) return { kind: 'refused', reason: 'milkrun.carrier_required' };
      if (!(await isCompany(trx, carrierId))) return { kind: 'refused', reason: 'milkrun.carrier_unknown', vars: { carrier: carrierId } };
      values.carrier_id = carrierId;
    }
    if (rule.to === 'delivered') values.delivered = now;
    const updated = await trx.updateTable('milkrun_shipments').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    return { kind: 'ok', row: updated };
  });
}

/**
 * A company's air shipments are its milk-run import shipments (one per AWB and company, built
 * from the status events it pushed), seen by the same parties as in the milk-run JSON API: the
 * company that pushed (owner) and the trucker it dispatched to (carrier). Anyone else: null (404).
 */
export function shipmentOfParty(db: Kysely<DB>, companyId: number, id: number): Promise<MilkrunRow | undefined> {
  return db
    .selectFrom('milkrun_shipments')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('company_id', '=', companyId), eb('carrier_id', '=', companyId)]))
    .executeTakeFirst();
}

/** A page of the shipments the company sees (owner or carrier), newest first. */
export function shipmentsOfParty(db: Kysely<DB>, companyId: number, paging: Paging): Promise<Array<{ id: number }>> {
  return db
    .selectFrom('milkrun_shipments')
    .select('id')
    .where((eb) => eb.or([eb('company_id', '=', companyId), eb('carrier_id', '=', companyId)]))
    .orderBy('id', 'desc')
    .limit(paging.limit)
    .offset(offsetOf(paging))
    .execute();
}
