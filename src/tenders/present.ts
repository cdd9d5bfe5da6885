import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import type { BidRow, ContractRow, LaneRow, TenderRow } from './tables.ts';

/** Pure presenters (docs/reference.md#tenders): a row and the parts read for it in, the API's shape out. */

/** A bid as the owner reads it, from the deadline on. */
export interface LaneBid {
  company: number;
  company_name: string;
  price: number;
  capacity: number;
}
export interface OwnBid {
  price: number;
  capacity: number;
}

export interface LaneView {
  id: number;
  position: number;
  from: string;
  to: string;
  loads: number;
  weight: number | null;
  body: string | null;
  note: string | null;
  bid?: OwnBid | null;
  bids?: LaneBid[];
  /** the owner's evaluation page (never an answer's JSON): how many bids the lane has when `bids` holds only the cheapest */
  bids_count?: number;
}

/** A tender as the caller may see it: the owner's lanes carry `bids` (what bidsFor read: none before the deadline), a bidder's its own `bid`. */
export function presentTender(
  ctx: { clock: Clock; caller: Caller },
  t: TenderRow,
  lanes: LaneRow[],
  bids: BidRow[],
  names: Map<number, string>,
  counts?: Map<number, number>,
) {
  const owner = t.company_id === ctx.caller.companyId;
  const byLane = new Map<number, BidRow[]>();
  for (const b of bids) {
    const list = byLane.get(b.lane_id);
    if (list) list.push(b);
    else byLane.set(b.lane_id, [b]);
  }
  return {
    ...tenderHead(ctx.clock, t, names),
    ...(owner ? { invited: t.invited } : {}),
    created: ctx.clock.format(t.created) ?? '',
    published: ctx.clock.format(t.published),
    lanes: lanes.map((l): LaneView => {
      const mine = byLane.get(l.id) ?? [];
      return {
        id: l.id,
        position: l.position,
        from: l.from_pattern,
        to: l.to_pattern,
        loads: l.loads,
        weight: l.weight === null ? null : Number(l.weight),
        body: l.body,
        note: l.note,
        ...(owner
          ? {
              bids: mine
                .map((b) => ({
                  company: b.company_id,
                  company_name: names.get(b.company_id) ?? '',
                  price: Number(b.price),
                  capacity: b.capacity,
                }))
                .sort((a, b) => a.price - b.price || a.company - b.company),
              ...(counts ? { bids_count: counts.get(l.id) ?? 0 } : {}),
            }
          : { bid: mine[0] ? { price: Number(mine[0].price), capacity: mine[0].capacity } : null }),
      };
    }),
  };
}
export type TenderView = ReturnType<typeof presentTender>;

/** What a tender's view and its row in a list both begin with. */
function tenderHead(clock: Clock, t: TenderRow, names: Map<number, string>) {
  return {
    id: t.id,
    name: t.name,
    company: { id: t.company_id, name: names.get(t.company_id) ?? '' },
    status: t.status,
    currency: t.currency,
    valid_from: t.valid_from,
    valid_to: t.valid_to,
    deadline: clock.format(t.deadline) ?? '',
  };
}

export function presentTenderRow(clock: Clock, t: TenderRow & { lanes_count: number }, names: Map<number, string>) {
  return { ...tenderHead(clock, t, names), lanes_count: t.lanes_count };
}
export type TenderRowView = ReturnType<typeof presentTenderRow>;

export function presentContract(c: ContractRow, names: Map<number, string>) {
  return {
    id: c.id,
    tender: c.tender_id,
    lane: c.lane_id,
    from: c.from_pattern,
    to: c.to_pattern,
    shipper: { id: c.shipper_id, name: names.get(c.shipper_id) ?? '' },
    carrier: { id: c.carrier_id, name: names.get(c.carrier_id) ?? '' },
    rank: c.rank,
    price: Number(c.price),
    currency: c.currency,
    loads: c.loads,
    valid_from: c.valid_from,
    valid_to: c.valid_to,
  };
}
export type ContractView = ReturnType<typeof presentContract>;
