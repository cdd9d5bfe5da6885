import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/schema.ts';
import { translator } from '../kernel/i18n.ts';
import type { Clock } from '../kernel/time.ts';
import type { BidEventType, FreightEventType } from '../events/index.ts';
import { announce, announceAll, type PlannedEvent as Planned } from '../webhooks/index.ts';
import { presentBid } from './bids.ts';
import { BIDS_SHOWN_STATUSES, presentFreight, type PieceRow } from './fields.ts';
import { audienceOf, roleOf, type Role } from './policy.ts';
import { inMarket } from './in-market.ts';
import { companyRefs, companyRef, type CompanyRef } from '../accounts/index.ts';
import { loadPieces } from './pieces.ts';
import { type FreightRow, type BidRow, VISIBILITY } from './tables.ts';

/**
 * The events of a freight's life (docs/reference.md#events), written to the webhooks module's outbox
 * (webhooks/outbox.ts announce). `emitEvent` is called inside the transaction of the change it
 * announces, so the event exists exactly when the change committed. It renders the event for
 * each company entitled to it, as that company sees the freight through the API at this moment
 * (fields.ts presentFreight with the company's role, bids.ts presentBid). Every event is written
 * (the live board streams and replays it, docs/reference.md#live-board); the outbox queues deliveries only for
 * subscribed webhooks. A freight published to the whole market is also one market event, rendered
 * as the market sees it, for every company that may see it there (src/live decides who when it
 * reads the event: no row per company).
 */

export type EmitInput =
  /** `by`: the company that made the change when it is not the owner (the winner reporting delivery). */
  | { type: FreightEventType; freightId: number; by?: number }
  /** `by`: the company that made the change when it is not the bidder (the owner confirming). */
  | { type: BidEventType; freightId: number; bidId: number; by?: number }
  /**
   * Saved searches or vehicle offers matched the freight (the saved-searches and vehicles modules
   * call this), all of one freight at once: the freight is read and presented once for them.
   */
  | { type: 'freight.matched'; freightId: number; matches: ReadonlyArray<FreightMatch> }
  /** A waterfall's turn started for `companyId` (waterfall.ts; docs/reference.md#one-step), until `until`. */
  | { type: 'freight.offered'; freightId: number; companyId: number; until: Date }
  /** The freight's owner invited `companyId`, the company of a vehicle offer (the vehicles module calls this; docs/reference.md#vehicles). */
  | { type: 'freight.invited'; freightId: number; companyId: number; vehicle: Record<string, unknown> };

/** One match of a freight: the company of the saved search (`search`) or of the fitting vehicle offer (`vehicle`). */
export interface FreightMatch {
  companyId: number;
  search?: Record<string, unknown>;
  vehicle?: Record<string, unknown>;
}

/** Display fields (f_*, placeholders) of event payloads are in English; logic uses raw fields. */
const ENG = translator('eng');

/** Writes the event for every entitled company (and the market); answers how many events were written. */
export async function emitEvent(db: Db, clock: Clock, input: EmitInput): Promise<number> {
  return emitFreightEvents(db, clock, [input]);
}

/** A freight or bid event (every kind but `shipment.status`). */
export type FreightEmit = EmitInput;

/**
 * The same type of event for many freights at once (a sweep: expiry, a waterfall's turns), in the
 * caller's transaction: each planned and rendered exactly as `emitEvent` would for it alone, the
 * freights, their bids, pieces and owners read once for all of them, the events written by the
 * outbox's batched statements. `written`: the freights as the caller's statement just wrote them
 * (its `returning`, in this transaction: what a read would find), not read again. Answers how many
 * events were written.
 */
export async function emitFreightEvents(
  db: Db,
  clock: Clock,
  inputs: readonly FreightEmit[],
  written?: ReadonlyMap<number, FreightRow>,
): Promise<number> {
  const type = inputs[0]?.type;
  if (!type) return 0;
  if (inputs.some((i) => i.type !== type)) throw new Error('emitFreightEvents: one type at a time');
  return announce(db, clock, type, await planFreightEvents(db, clock, inputs, written));
}

/**
 * Events of one change, of any types, in the order given (an award's way's own events, then
 * `freight.awarded`): each planned and rendered exactly as `emitEvent` would at this point of the
 * transaction (nothing is written between them but the events), the freights, bids, pieces and
 * owners read once, the events written together (webhooks/outbox.ts announceAll). `written` as for
 * `emitFreightEvents`. Answers how many events were written.
 */
export async function emitEvents(
  db: Db,
  clock: Clock,
  inputs: readonly FreightEmit[],
  written?: ReadonlyMap<number, FreightRow>,
): Promise<number> {
  if (!inputs.length) return 0;
  const loaded = await loadForEvents(
    db,
    inputs.map((i) => i.freightId),
    written,
  );
  return announceAll(
    db,
    clock,
    inputs.map((input) => ({ type: input.type, events: planLoaded(clock, [input], loaded) })),
  );
}

/** The freights (unless given as written), their bids (by freight, as the freight page orders them), pieces and owners, read once for a batch of events. */
async function loadForEvents(db: Db, ids: readonly number[], written?: ReadonlyMap<number, FreightRow>) {
  const wanted = [...new Set(ids)];
  const rows = written
    ? wanted.flatMap((id) => written.get(id) ?? [])
    : ((await db.selectFrom('freights').selectAll().where(sql<SqlBool>`id = any(${wanted}::int[])`).execute()) as FreightRow[]);
  if (written && rows.length !== wanted.length) throw new Error('emitFreightEvents: a freight not among those written');
  const bidRows = await db
    .selectFrom('bids')
    .selectAll()
    .where(sql<SqlBool>`freight_id = any(${wanted}::int[])`)
    .orderBy('created')
    .orderBy('id')
    .execute();
  const bids = new Map<number, BidRow[]>();
  for (const b of bidRows) {
    const list = bids.get(b.freight_id) ?? [];
    list.push(b);
    bids.set(b.freight_id, list);
  }
  const found = rows.map((r) => r.id);
  // Loaded once, on the first rendering.
  let shared: Promise<{ pieces: Map<number, PieceRow[]>; refs: Map<number, CompanyRef> }> | undefined;
  const load = () =>
    (shared ??= Promise.all([loadPieces(db, found), companyRefs(db, unique(rows.map((r) => r.company_id)))]).then(([pieces, refs]) => ({
      pieces,
      refs,
    })));
  return { rows: new Map(rows.map((r) => [r.id, r])), bids, load };
}

async function planFreightEvents(
  db: Db,
  clock: Clock,
  inputs: readonly FreightEmit[],
  written?: ReadonlyMap<number, FreightRow>,
): Promise<Planned[]> {
  const loaded = await loadForEvents(
    db,
    inputs.map((i) => i.freightId),
    written,
  );
  return planLoaded(clock, inputs, loaded);
}

function planLoaded(clock: Clock, inputs: readonly FreightEmit[], loaded: Awaited<ReturnType<typeof loadForEvents>>): Planned[] {
  const planned: Planned[] = [];
  for (const input of inputs) {
    const row = loaded.rows.get(input.freightId);
    if (!row) continue;
    const shared = async () => {
      const { pieces, refs } = await loaded.load();
      return { pieces: pieces.get(row.id) ?? [], company: refs.get(row.company_id) ?? companyRef(row.company_id, '', false) };
    };
    planned.push(...planFreightEvent(clock, input, row, loaded.bids.get(row.id) ?? [], shared));
  }
  return planned;
}

const unique = (ids: Array<number | null | undefined>): number[] => [...new Set(ids.filter((c): c is number => typeof c === 'number'))];

/**
 * Who gets a freight or bid event, and as whom (docs/reference.md#events and #freights):
 * - every type: the owner; the winner once there is one;
 * - published/updated/revoked/expired/awarded: also the companies in the whitelist of a
 *   freight addressed to them (visibility -2) and every company with a non-revoked bid, each
 *   only while its role admits it (a former bidder sees the freight masked; a whitelisted
 *   company that never bid loses sight of it once it left the market);
 * - delivery_status: owner and winner only;
 * - bid.*: the owner and the bidder (its own bid only);
 * - booking.requested: the requester, and the provider once it may see the request;
 * - freight.matched: the searcher's company (or the company of the fitting vehicle offer);
 * - freight.invited: the invited company (of a vehicle offer), once the whitelist admits it;
 * - published, to every company: also the market (one event, as the market sees the freight, for
 *   each company that may see it there besides those above).
 */
function planFreightEvent(
  clock: Clock,
  input: FreightEmit,
  row: FreightRow,
  bids: readonly BidRow[],
  load: () => Promise<{ pieces: PieceRow[]; company: CompanyRef }>,
): Planned[] {
  const live = bids.filter((b) => b.status !== 'revoked');
  let bid: BidRow | undefined;
  let candidates: number[];
  switch (input.type) {
    case 'freight.delivery_status':
      candidates = unique([row.company_id, row.winner_id]);
      break;
    case 'freight.matched':
      candidates = unique(input.matches.map((m) => m.companyId));
      break;
    case 'freight.invited':
    case 'freight.offered':
      candidates = [input.companyId];
      break;
    case 'booking.requested':
      candidates = unique([row.company_id, row.winner_id, ...(row.whitelist ?? [])]);
      break;
    case 'bid.created':
    case 'bid.updated':
    case 'bid.confirmed':
    case 'bid.revoked':
      bid = bids.find((b) => b.id === input.bidId);
      if (!bid) return [];
      candidates = unique([row.company_id, bid.company_id]);
      break;
    case 'bid.countered':
      // docs/reference.md#one-step: to the bidder (the owner countered: it knows).
      bid = bids.find((b) => b.id === input.bidId);
      if (!bid) return [];
      candidates = [bid.company_id];
      break;
    default:
      candidates = unique([
        row.company_id,
        row.winner_id,
        ...(row.visibility === VISIBILITY.whitelist ? (row.whitelist ?? []) : []),
        ...live.map((b) => b.company_id),
      ]);
  }

  // As GET /freights/view shows it to that company: `_bids` only while open/pending/taken, all
  // for the owner, the company's own otherwise.
  const view = async (companyId: number, role: Role) => {
    const { pieces, company } = await load();
    const visibleBids = BIDS_SHOWN_STATUSES.includes(row.status)
      ? bids.filter((b) => role === 'owner' || b.company_id === companyId).map((b) => presentBid(b, clock))
      : undefined;
    return presentFreight(row, role, { clock, t: ENG }, { pieces, bids: visibleBids, company });
  };

  // Whose doing the event is (webhooks/outbox.ts: a recipient that blocked one of them gets nothing,
  // docs/reference.md#trust): a bid's event its bidder's, or the confirming side's; an award both sides';
  // anything else about the freight its owner's (also what the exchange does on the owner's
  // behalf: expiry, matches), or the company that reported it (delivery by the winner).
  const by = 'by' in input && input.by !== undefined ? input.by : undefined;
  const from: number[] = bid
    ? [by ?? bid.company_id]
    : input.type === 'freight.awarded'
      ? unique([row.company_id, row.winner_id])
      : [by ?? row.company_id];

  const planned: Planned[] = [];
  for (const companyId of candidates) {
    const role = roleOf(
      row,
      companyId,
      live.some((b) => b.company_id === companyId),
    );
    if (bid) {
      // The owner sees every bid, the bidder its own; the freight as each may see it.
      const theBid = bid;
      planned.push({
        companyId,
        freightId: row.id,
        from,
        data: async () => ({ bid: presentBid(theBid, clock), route: role ? await view(companyId, role) : null }),
      });
      continue;
    }
    if (!role) continue;
    if (input.type === 'freight.matched') {
      // One event per match; a fitting vehicle offer (docs/reference.md#vehicles) says `vehicle` instead of `search`.
      for (const m of input.matches.filter((x) => x.companyId === companyId)) {
        const said = m.vehicle ? { vehicle: m.vehicle } : { search: m.search ?? null };
        planned.push({ companyId, freightId: row.id, from, data: async () => ({ route: await view(companyId, role), ...said }) });
      }
    } else if (input.type === 'freight.offered') {
      const until = clock.format(input.until);
      planned.push({ companyId, freightId: row.id, from, data: async () => ({ route: await view(companyId, role), step_until: until }) });
    } else if (input.type === 'freight.invited') {
      const vehicle = input.vehicle;
      planned.push({ companyId, freightId: row.id, from, data: async () => ({ route: await view(companyId, role), vehicle }) });
    } else {
      planned.push({ companyId, freightId: row.id, from, data: async () => ({ route: await view(companyId, role) }) });
    }
  }
  // A freight entering the whole market: one event for every company that may see it there, as
  // the market sees it (policy.ts role `market`: no addresses, no refs, no bids but one's own, of
  // which it has none yet); the recipients above have theirs.
  if (input.type === 'freight.published' && audienceOf(row).everyone && inMarket(row, clock.now())) {
    planned.push({
      companyId: null,
      freightId: row.id,
      from,
      except: candidates,
      data: async () => {
        const { pieces, company } = await load();
        const noBids = BIDS_SHOWN_STATUSES.includes(row.status) ? [] : undefined;
        return { route: presentFreight(row, 'market', { clock, t: ENG }, { pieces, bids: noBids, company }) };
      },
    });
  }
  return planned;
}

/** `freight.expired` for freights an expiry just wrote (call it in the expiry's transaction, with its clock). */
export async function emitExpired(db: Db, clock: Clock, freightIds: readonly number[]): Promise<void> {
  await emitFreightEvents(
    db,
    clock,
    freightIds.map((freightId) => ({ type: 'freight.expired', freightId })),
  );
}
