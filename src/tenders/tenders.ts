import { sql, type Kysely } from 'kysely';
import { namesOfCompanies } from '../accounts/index.ts';
import type { DB, Db } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { tenderAwarded, tenderPublished } from './events.ts';
import type { AwardItem, BidItem, TenderInput } from './input.ts';
import type { BidRow, ContractRow, LaneRow, TenderRow, TenderStatus } from './tables.ts';

/**
 * Lane tenders (docs/reference.md#tenders): who sees a tender, sealed bids, the award, the contracts. A
 * tender is its owner's; once published it is seen by the companies it invited (every company
 * when it invited none). Its status is read with the clock: an `open` tender past its deadline is
 * `closed` whether or not the sweeper has written it yet (sweepTenders writes it without any
 * request). Bids are sealed in every answer that is built here: a bidder reads its own bid only,
 * the owner reads every bid only from the deadline on.
 */

export type Refusal =
  | 'tenders.not_draft'
  | 'tenders.own_tender'
  | 'tenders.closed'
  | 'tenders.bid_invalid'
  | 'tenders.not_closed'
  | 'tenders.already_awarded'
  | 'tenders.award_invalid';

export type Result<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'not_found' }
  | { kind: 'refused'; reason: Refusal; vars?: Record<string, string | number>; position?: number; field?: string };

/** The status as of `now`: open past its deadline is closed. */
export const statusAt = (t: Pick<TenderRow, 'status' | 'deadline'>, now: Date): TenderStatus =>
  t.status === 'open' && t.deadline <= now ? 'closed' : t.status;

/** Whether the company sees the tender: its owner, or invited (every company when none is named) once published. */
export const sees = (t: Pick<TenderRow, 'company_id' | 'invited' | 'status'>, company: number) =>
  t.company_id === company || (t.status !== 'draft' && (t.invited.length === 0 || t.invited.includes(company)));

const readTender = (db: Db, id: number) =>
  db.selectFrom('tenders').selectAll().where('id', '=', id).executeTakeFirst() as Promise<TenderRow | undefined>;
const lockTender = (db: Db, id: number) =>
  db.selectFrom('tenders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst() as Promise<TenderRow | undefined>;

/** A lane's columns as LaneRow holds them (not its ranked bids: the owner's reads take what they show of them). */
const LANE_COLUMNS = ['id', 'tender_id', 'position', 'from_pattern', 'to_pattern', 'loads', 'weight', 'body', 'note'] as const;

export const lanesOf = (db: Db, tenderId: number) =>
  db.selectFrom('tender_lanes').select(LANE_COLUMNS).where('tender_id', '=', tenderId).orderBy('position').execute() as Promise<LaneRow[]>;

/**
 * A lane's bids ranked as the owner reads them (price, then company), each `company:price:capacity`,
 * of the lane `l` (an empty array without bids): what the close writes into `bids_ranked` and what a
 * read computes while that is null (a tender past its deadline before the sweeper's pass). Read from
 * migration 0520's index in this order. Migration 0560 ranked the tenders closed before it with this.
 */
const RANKED = sql<
  string[]
>`(select coalesce(array_agg(b.company_id || ':' || b.price || ':' || b.capacity order by b.price, b.company_id), '{}')
  from tender_bids as b where b.tender_id = l.tender_id and b.lane_id = l.id)`;

/**
 * The close (the sweeper's pass, or an award that comes before it): the tenders' lanes get their
 * bids ranked, once. The bids are sealed and frozen from the deadline on (placeBids refuses a bid
 * once the tender is closed, and the close waits for the bids in progress: their share lock), so the
 * ranking stays true; a statement after the one that closed the tenders sees every bid committed.
 */
async function rankLanes(trx: Db, tenderIds: readonly number[]): Promise<void> {
  if (!tenderIds.length) return;
  await sql`update tender_lanes as l set bids_ranked = ${RANKED} where l.tender_id = any(${[...tenderIds]}::int[])`.execute(trx);
}

/** POST /tenders/add: the tender and its lanes in one transaction (the input was read whole before). */
export async function createTender(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  input: TenderInput,
): Promise<{ tender: TenderRow; lanes: LaneRow[] }> {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const tender = (await trx
      .insertInto('tenders')
      .values({
        company_id: caller.companyId,
        user_id: caller.userId,
        name: input.name,
        currency: input.currency,
        valid_from: input.validFrom,
        valid_to: input.validTo,
        deadline: input.deadline,
        invited: input.invited,
        status: 'draft',
        created: now,
        modified: now,
        published: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()) as TenderRow;
    const lanes: LaneRow[] = [];
    for (let i = 0; i < input.lanes.length; i += 500) {
      const slice = input.lanes.slice(i, i + 500);
      const rows = await trx
        .insertInto('tender_lanes')
        .values(
          slice.map((l) => ({
            tender_id: tender.id,
            position: l.position,
            from_pattern: l.from,
            to_pattern: l.to,
            loads: l.loads,
            weight: l.weight,
            body: l.body,
            note: l.note,
          })),
        )
        .returningAll()
        .execute();
      lanes.push(...(rows as LaneRow[]));
    }
    lanes.sort((a, b) => a.position - b.position);
    return { tender, lanes };
  });
}

/** POST /tenders/publish: the owner's draft becomes open; event `tender.published` to the invited (every company when none). */
export async function publishTender(db: Kysely<DB>, clock: Clock, caller: Caller, id: number): Promise<Result<TenderRow>> {
  const now = clock.now();
  return db.transaction().execute(async (trx): Promise<Result<TenderRow>> => {
    const t = await lockTender(trx, id);
    if (!t || t.company_id !== caller.companyId) return { kind: 'not_found' };
    if (t.status !== 'draft') return { kind: 'refused', reason: 'tenders.not_draft' };
    if (t.deadline <= now) return { kind: 'refused', reason: 'tenders.closed' };
    const open = (await trx
      .updateTable('tenders')
      .set({ status: 'open', published: now, modified: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()) as TenderRow;
    const lanes = await trx
      .selectFrom('tender_lanes')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('tender_id', '=', id)
      .executeTakeFirstOrThrow();
    await tenderPublished(trx, clock.at(now), open, lanes.n);
    return { kind: 'ok', value: open };
  });
}

/** The tenders of `ids` the company may see, with their statuses as of now (the notifications of invitations). */
export async function visibleTenders(db: Db, clock: Clock, company: number, ids: readonly number[]): Promise<TenderRow[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('tenders')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return (rows as TenderRow[]).filter((t) => sees(t, company)).map((t) => ({ ...t, status: statusAt(t, clock.now()) }));
}

/** A tender the caller may see, with its status as of now; undefined: 404. */
export async function visibleTender(db: Db, clock: Clock, caller: Caller, id: number): Promise<TenderRow | undefined> {
  const t = await readTender(db, id);
  if (!t || !sees(t, caller.companyId)) return undefined;
  return { ...t, status: statusAt(t, clock.now()) };
}

/**
 * A tender's lanes with the bids the caller may read on them: its own as a bidder; every bid as the
 * owner from the deadline on (`limit`: each lane's cheapest `limit` and how many there are,
 * `counts`: the owner's evaluation page); else none. The owner's is one statement: the lanes with
 * the bids ranked at the close (rankLanes; computed alike while the sweeper has not passed), each
 * lane's as one text (50,000 bids read as 1,000 rows; the page's 5,000 cut from the ranking).
 */
export async function lanesWithBids(
  db: Db,
  clock: Clock,
  caller: Caller,
  t: TenderRow,
  limit?: number,
): Promise<{ lanes: LaneRow[]; bids: BidRow[]; counts?: Map<number, number> }> {
  if (t.company_id !== caller.companyId) {
    const [lanes, bids] = await Promise.all([
      lanesOf(db, t.id),
      db
        .selectFrom('tender_bids')
        .select(['lane_id', 'company_id', sql<string>`price::text`.as('price'), 'capacity'])
        .where('tender_id', '=', t.id)
        .where('company_id', '=', caller.companyId)
        .execute() as Promise<BidRow[]>,
    ]);
    return { lanes, bids };
  }
  if (t.deadline > clock.now()) return { lanes: await lanesOf(db, t.id), bids: [] };
  const shown = limit === undefined ? sql`x.ranked` : sql`x.ranked[1:${limit}]`;
  // offset 0: the ranking read once per lane (the stored array, or RANKED while it is null), then counted and cut.
  const rows = await sql<LaneRow & { count: number; bids: string }>`select l.id, l.tender_id, l.position, l.from_pattern, l.to_pattern,
      l.loads, l.weight, l.body, l.note, cardinality(x.ranked) as count, array_to_string(${shown}, ',') as bids
    from tender_lanes as l cross join lateral (select coalesce(l.bids_ranked, ${RANKED}) as ranked offset 0) as x
    where l.tender_id = ${t.id} order by l.position`.execute(db);
  const lanes: LaneRow[] = [];
  const bids: BidRow[] = [];
  const counts = new Map<number, number>();
  for (const { count, bids: text, ...lane } of rows.rows) {
    lanes.push(lane);
    counts.set(lane.id, count);
    if (text)
      for (const part of text.split(',')) {
        const [company, price, capacity] = part.split(':');
        bids.push({ lane_id: lane.id, company_id: Number(company), price: price!, capacity: Number(capacity) });
      }
  }
  return limit === undefined ? { lanes, bids } : { lanes, bids, counts };
}

/** GET /tenders/index: the caller's own tenders, those open to it, and those it bid on; newest first, at most `limit`. */
export async function tendersOf(db: Db, clock: Clock, caller: Caller, limit = 200): Promise<Array<TenderRow & { lanes_count: number }>> {
  const me = caller.companyId;
  const now = clock.now();
  const rows = await db
    .selectFrom('tenders')
    .selectAll()
    .select(sql<number>`(select count(*)::int from tender_lanes where tender_lanes.tender_id = tenders.id)`.as('lanes_count'))
    .where((eb) =>
      eb.or([
        eb('company_id', '=', me),
        eb.and([
          eb('status', '=', 'open'),
          eb('deadline', '>', now),
          eb.or([sql<boolean>`cardinality(invited) = 0`, sql<boolean>`invited @> array[${me}]::int[]`]),
        ]),
        sql<boolean>`exists (select 1 from tender_bids where tender_bids.tender_id = tenders.id and tender_bids.company_id = ${me})`,
      ]),
    )
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...(r as TenderRow & { lanes_count: number }), status: statusAt(r as TenderRow, now) }));
}

/**
 * POST /tenders/bid: an invited company's bids replace its earlier bids on those lanes, while the
 * tender is open and before its deadline; a lane not of the tender refuses the request whole.
 */
export async function placeBids(db: Kysely<DB>, clock: Clock, caller: Caller, id: number, bids: BidItem[]): Promise<Result<TenderRow>> {
  const now = clock.now();
  return db.transaction().execute(async (trx): Promise<Result<TenderRow>> => {
    // A share lock: bids of many companies go on at once; the award and the sweeper wait for them.
    const t = (await trx.selectFrom('tenders').selectAll().where('id', '=', id).forShare().executeTakeFirst()) as TenderRow | undefined;
    if (!t || !sees(t, caller.companyId)) return { kind: 'not_found' };
    if (t.company_id === caller.companyId) return { kind: 'refused', reason: 'tenders.own_tender' };
    if (statusAt(t, now) !== 'open') return { kind: 'refused', reason: 'tenders.closed' };
    const lanes = new Set(
      (
        await trx
          .selectFrom('tender_lanes')
          .select('id')
          .where('tender_id', '=', id)
          .where(
            'id',
            'in',
            bids.map((b) => b.lane),
          )
          .execute()
      ).map((r) => r.id),
    );
    const bad = bids.findIndex((b) => !lanes.has(b.lane));
    if (bad >= 0) return { kind: 'refused', reason: 'tenders.bid_invalid', position: bad + 1, field: 'lane' };
    for (let i = 0; i < bids.length; i += 500) {
      await trx
        .insertInto('tender_bids')
        .values(
          bids.slice(i, i + 500).map((b) => ({
            tender_id: id,
            lane_id: b.lane,
            company_id: caller.companyId,
            user_id: caller.userId,
            price: b.price,
            capacity: b.capacity,
            created: now,
            modified: now,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['lane_id', 'company_id']).doUpdateSet((eb) => ({
            price: eb.ref('excluded.price'),
            capacity: eb.ref('excluded.capacity'),
            user_id: eb.ref('excluded.user_id'),
            modified: eb.ref('excluded.modified'),
          })),
        )
        .execute();
    }
    return { kind: 'ok', value: { ...t, status: 'open' } };
  });
}

/** A contract's columns as ContractRow holds them (the price as exact text): the award's returning and the list read the same. */
const contractColumns = () =>
  [
    'id',
    'tender_id',
    'lane_id',
    'shipper_id',
    'carrier_id',
    'rank',
    sql<string>`price::text`.as('price'),
    'currency',
    'loads',
    'from_pattern',
    'to_pattern',
    'valid_from',
    'valid_to',
    'created',
  ] as const;

/**
 * POST /tenders/award: the owner, once the deadline has passed, awards lanes to companies that bid
 * on them, each at its bid price, with ranks; the contracts are written and the tender is
 * `awarded`. Events `tender.awarded` to each awarded company, `tender.lost` to the other bidders.
 */
export async function awardTender(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  id: number,
  awards: AwardItem[],
): Promise<Result<{ tender: TenderRow; contracts: ContractRow[] }>> {
  const now = clock.now();
  return db.transaction().execute(async (trx): Promise<Result<{ tender: TenderRow; contracts: ContractRow[] }>> => {
    const t = await lockTender(trx, id);
    if (!t || t.company_id !== caller.companyId) return { kind: 'not_found' };
    if (t.status === 'awarded') return { kind: 'refused', reason: 'tenders.already_awarded' };
    if (t.status === 'draft' || t.deadline > now) return { kind: 'refused', reason: 'tenders.not_closed' };
    const laneIds = [...new Set(awards.map((a) => a.lane))];
    const lanes = new Map(
      (
        (await trx
          .selectFrom('tender_lanes')
          .select(LANE_COLUMNS)
          .where('tender_id', '=', id)
          .where('id', 'in', laneIds)
          .execute()) as LaneRow[]
      ).map((l) => [l.id, l]),
    );
    const bids = new Map(
      (
        (await trx
          .selectFrom('tender_bids')
          .select(['lane_id', 'company_id', sql<string>`price::text`.as('price'), 'capacity'])
          .where('tender_id', '=', id)
          .where('lane_id', 'in', laneIds)
          .execute()) as BidRow[]
      ).map((b) => [`${b.lane_id}:${b.company_id}`, b]),
    );
    for (let i = 0; i < awards.length; i++) {
      const a = awards[i]!;
      if (!lanes.has(a.lane)) return { kind: 'refused', reason: 'tenders.award_invalid', position: i + 1, field: 'lane' };
      if (!bids.has(`${a.lane}:${a.company}`))
        return { kind: 'refused', reason: 'tenders.award_invalid', position: i + 1, field: 'company' };
    }
    const contracts: ContractRow[] = [];
    for (let i = 0; i < awards.length; i += 500) {
      const rows = await trx
        .insertInto('contracts')
        .values(
          awards.slice(i, i + 500).map((a) => {
            const lane = lanes.get(a.lane)!;
            const bid = bids.get(`${a.lane}:${a.company}`)!;
            return {
              tender_id: id,
              lane_id: a.lane,
              shipper_id: t.company_id,
              carrier_id: a.company,
              rank: a.rank,
              price: bid.price,
              currency: t.currency,
              loads: lane.loads,
              from_pattern: lane.from_pattern,
              to_pattern: lane.to_pattern,
              valid_from: t.valid_from,
              valid_to: t.valid_to,
              created: now,
            };
          }),
        )
        .returning(contractColumns())
        .execute();
      contracts.push(...(rows as ContractRow[]));
    }
    // Awarded before the sweeper's pass (still `open` in its row): this is its close.
    if (t.status === 'open') await rankLanes(trx, [id]);
    const awarded = (await trx
      .updateTable('tenders')
      .set({ status: 'awarded', modified: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()) as TenderRow;
    const bidders = (await trx.selectFrom('tender_bids').select('company_id').distinct().where('tender_id', '=', id).execute()).map(
      (r) => r.company_id,
    );
    await tenderAwarded(trx, clock.at(now), awarded, contracts, bidders);
    contracts.sort((a, b) => a.lane_id - b.lane_id || a.rank - b.rank);
    return { kind: 'ok', value: { tender: awarded, contracts } };
  });
}

/**
 * GET /contracts/index: every awarded lane the company is a party to, as shipper or carrier; the
 * newest tender first, its lanes in the tender's order, each lane's primary carrier before its
 * backups (as the routing guide goes down them).
 */
export async function contractsOf(db: Db, company: number, limit = 1000): Promise<ContractRow[]> {
  const rows = await db
    .selectFrom('contracts')
    .select([...contractColumns()])
    .where((eb) => eb.or([eb('shipper_id', '=', company), eb('carrier_id', '=', company)]))
    .orderBy('tender_id', 'desc')
    .orderBy('lane_id')
    .orderBy('rank')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows as ContractRow[];
}

/** Company names of the rows' parties, one statement. */
export const partyNames = (db: Db, ids: number[]) => namesOfCompanies(db, ids);

/**
 * The sweep (any process, as often as it likes): open tenders whose deadline has passed are
 * written `closed` with their lanes' bids ranked (rankLanes), in one transaction, so the deadline
 * closes a tender without any request. Reads compute the same status (and ranking) from the
 * clock, so a sweep that comes late changes nothing anyone sees. Answers how many.
 */
export async function sweepTenders(db: Kysely<DB>, clock: Clock): Promise<number> {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const closed = await trx
      .updateTable('tenders')
      .set({ status: 'closed', modified: now })
      .where('status', '=', 'open')
      .where('deadline', '<=', now)
      .returning('id')
      .execute();
    await rankLanes(
      trx,
      closed.map((r) => r.id),
    );
    return closed.length;
  });
}

/** The awarded total a month of a tender: its primary contracts' prices times their loads (the evaluation page after the award). */
export async function awardedTotal(db: Db, tenderId: number): Promise<number> {
  const row = await db
    .selectFrom('contracts')
    .select(sql<string | null>`sum(price * loads)::text`.as('total'))
    .where('tender_id', '=', tenderId)
    .where('rank', '=', 1)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
