import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Services } from '../kernel/context.ts';
import { Sweeper } from '../kernel/sweeper.ts';
import { type Clock, secondsSince } from '../kernel/time.ts';
import { emitFreightEvents } from './events.ts';
import { inMarket, isAwardedStatus, isDue } from './in-market.ts';
import { expireLocked } from './lifecycle.ts';
import { type FreightRow, VISIBILITY, type WaterfallRow, type WaterfallState } from './tables.ts';
import type { WaterfallWork } from './waterfall.ts';

/**
 * The waterfall's sweeper (docs/reference.md#one-step): a turn whose `step_until` has passed ends without
 * any request. A pass advances every due waterfall with a few statements per batch, however many
 * are due (issue 42: 10,000 ended turns within a second), in one transaction per batch:
 *
 * 1. claim: the due waterfalls with their freights, `for update … skip locked` — a row another
 *    transaction holds (a booking, a pass, another process's sweep) is left to it, never waited
 *    for, so any number of processes sweep at once and none advances a turn twice;
 * 2. expiry first, as every transition writes it (`expireLocked`: the freights past their
 *    deadline, with `freight.expired`);
 * 3. each waterfall's step decided on the locked rows (`advance`, the rule `catchUpWaterfall`
 *    applies turn by turn, in one computation: every turn whose end has passed gives way to the
 *    next, each starting where the last ended);
 * 4. one statement writes the freights (the next carrier alone on the whitelist at its price, the
 *    market, or the end), one the waterfalls;
 * 5. the events through the outbox, batched (`emitFreightEvents`, each rendered as `emitEvent`
 *    renders it): `freight.offered` to each carrier whose turn started, `freight.published` for
 *    the market (and its saved-search alerts), `freight.expired` for a `stop`.
 */

/** What a due waterfall becomes at `now` (its freight already written expired when due). */
export type Advance =
  /** the freight left the market some other way: the waterfall ends */
  | { kind: 'over'; state: Exclude<WaterfallState, 'running' | 'market'> }
  /** a carrier's turn starts (`step`), until `until` */
  | { kind: 'turn'; step: number; until: Date; carrier: number; price: string }
  /** after the last turn: the whole market at the last price */
  | { kind: 'market'; step: number; price: string }
  /** after the last turn: the end; `carrier`/`price` the last turn's, written when that turn was passed over too */
  | { kind: 'stop'; step: number; carrier: number | null; price: string | null };

/**
 * The step of a running waterfall whose turn ended (`step_until` <= now), on its locked rows: the
 * same result as `catchUpWaterfall`'s loop of turns, computed at once. Turns k = 1, 2, … start at
 * step_until + (k-1)·minutes; the first that has not ended by `now` is the one that runs.
 */
export function advance(freight: Pick<FreightRow, 'status' | 'deadline'>, fall: WaterfallRow, now: Date): Advance {
  if (!inMarket(freight, now)) {
    // Taken: booked. Expired at the deadline that ends the last turn of a `stop` waterfall: stopped.
    const state = isAwardedStatus(freight.status)
      ? 'booked'
      : freight.status === 'expired' && fall.afterwards === 'stop'
        ? 'stopped'
        : 'ended';
    return { kind: 'over', state };
  }
  const until = fall.step_until!.getTime();
  const turn = fall.minutes * 60_000;
  const passed = Math.floor((now.getTime() - until) / turn) + 1;
  const last = fall.carriers.length - 1;
  const step = fall.step + passed;
  if (step <= last) {
    return { kind: 'turn', step, until: new Date(until + passed * turn), carrier: fall.carriers[step]!, price: fall.prices[step]! };
  }
  if (fall.afterwards === 'market') return { kind: 'market', step: last, price: fall.prices[last]! };
  const skipped = fall.step < last;
  return { kind: 'stop', step: last, carrier: skipped ? fall.carriers[last]! : null, price: skipped ? fall.prices[last]! : null };
}

/**
 * How many due waterfalls a transaction of the sweep advances at most: a batch holds its freights'
 * locks until it commits, so a booking of one of them waits for the batch; 1,000 keeps that wait
 * short under load at a small cost in throughput (bench:waterfall).
 */
export const WATERFALL_SWEEP_BATCH = 1_000;

/**
 * One batch: claims up to `batch` due waterfalls (skipping those another transaction holds) and
 * advances them. Answers how many it claimed and how many of those it advanced.
 */
async function advanceBatch(
  trx: Transaction<DB>,
  clock: Clock,
  work: WaterfallWork,
  batch: number,
): Promise<{ claimed: number; moved: number }> {
  const now = clock.now();
  // The claim reads what the step is decided on: the waterfalls, and their freights' status and
  // deadline, as locked (a row changed since the statement began is read as changed).
  const claimed = (
    await sql<
      WaterfallRow & { f_status: FreightRow['status']; f_deadline: Date | null }
    >`select w.*, f.status as f_status, f.deadline as f_deadline
      from freight_waterfalls as w join freights as f on f.id = w.freight_id
      where w.state = 'running' and w.step_until <= ${now}
      order by w.step_until limit ${batch}
      for update of w, f skip locked`.execute(trx)
  ).rows;
  if (!claimed.length) return { claimed: 0, moved: 0 };

  // Past its deadline: written expired first, with its event, as every transition does.
  const expired = new Set(
    await expireLocked(
      trx,
      claimed.filter((w) => isDue({ status: w.f_status, deadline: w.f_deadline }, now)).map((w) => w.freight_id),
      clock,
    ),
  );

  const steps: Array<{ id: number; advance: Advance }> = [];
  for (const fall of claimed) {
    // Still running and due on the locked row.
    if (fall.state !== 'running' || !fall.step_until || fall.step_until > now) continue;
    const freight = { status: expired.has(fall.freight_id) ? ('expired' as const) : fall.f_status, deadline: fall.f_deadline };
    steps.push({ id: fall.freight_id, advance: advance(freight, fall, now) });
  }
  if (!steps.length) return { claimed: claimed.length, moved: 0 };

  // The freights: the next carrier alone at its price, the market at the last price, or the end;
  // read back as written (`returning`), so the events below render them without reading them again.
  const written = steps.filter((s) => s.advance.kind !== 'over');
  const rows = new Map<number, FreightRow>();
  if (written.length) {
    const col = <T>(pick: (a: Advance) => T) => written.map((s) => pick(s.advance));
    const returned = await sql<FreightRow>`update freights as f set
        visibility = case when u.kind = 'market' then ${VISIBILITY.everyone}::int else f.visibility end,
        whitelist = case when u.kind = 'market' then '{}'::int[] when u.carrier is not null then array[u.carrier] else f.whitelist end,
        book_now = coalesce(u.price, f.book_now),
        status = case when u.kind = 'stop' then 'expired' else f.status end,
        modified = ${now}
      from unnest(${written.map((s) => s.id)}::int[], ${col((a) => a.kind)}::text[],
        ${col((a) => ('carrier' in a ? a.carrier : null))}::int[], ${col((a) => ('price' in a ? a.price : null))}::numeric[])
        as u(id, kind, carrier, price)
      where f.id = u.id
      returning f.*`.execute(trx);
    for (const r of returned.rows) rows.set(r.id, r);
  }
  // The waterfalls: the running turn, or the state they ended in.
  const state = (a: Advance): WaterfallState =>
    a.kind === 'turn' ? 'running' : a.kind === 'over' ? a.state : a.kind === 'market' ? 'market' : 'stopped';
  await sql`update freight_waterfalls as w set
      step = coalesce(u.step, w.step), step_until = u.until, state = u.state, modified = ${now}
    from unnest(${steps.map((s) => s.id)}::int[], ${steps.map((s) => ('step' in s.advance ? s.advance.step : null))}::int[],
      ${steps.map((s) => (s.advance.kind === 'turn' ? s.advance.until.toISOString() : null))}::timestamptz[],
      ${steps.map((s) => state(s.advance))}::text[]) as u(id, step, until, state)
    where w.freight_id = u.id`.execute(trx);

  // The events, each as emitEvent renders it alone, of the freights as written above.
  const of = <K extends Advance['kind']>(kind: K) =>
    steps.flatMap((s) => (s.advance.kind === kind ? [{ id: s.id, advance: s.advance as Extract<Advance, { kind: K }> }] : []));
  await emitFreightEvents(
    trx,
    clock,
    of('turn').map((s) => ({ type: 'freight.offered' as const, freightId: s.id, companyId: s.advance.carrier, until: s.advance.until })),
    rows,
  );
  const market = of('market').map((s) => s.id);
  await emitFreightEvents(
    trx,
    clock,
    market.map((freightId) => ({ type: 'freight.published' as const, freightId })),
    rows,
  );
  if (market.length) {
    if (work.enteredMarketAll) await work.enteredMarketAll(trx, clock, market);
    else for (const id of market) await work.enteredMarket(trx, clock, id);
  }
  await emitFreightEvents(
    trx,
    clock,
    of('stop').map((s) => ({ type: 'freight.expired' as const, freightId: s.id })),
    rows,
  );
  return { claimed: claimed.length, moved: steps.length };
}

/**
 * How many batches of one pass run at once, each in its own transaction on its own connection:
 * while the database writes one batch, the process plans and renders the next (the claim's `skip
 * locked` gives each its own waterfalls, so no lane waits for another's rows). bench:waterfall,
 * PostgreSQL, 10,000 due turns: one at a time 2.2-2.3 s (the process busy 1.1 s of it, waiting
 * for the database the rest), two at once 1.6-2.0 s, three no better (both cores busy). On the
 * embedded database the batches still take turns on its one connection.
 */
export const WATERFALL_SWEEP_LANES = 2;

/**
 * One sweep (any process, as often as it likes): every running waterfall whose turn has ended is
 * advanced, `batch` per transaction, `WATERFALL_SWEEP_LANES` transactions at once, skipping those
 * another transaction holds (it catches them up itself, or the next sweep does). Answers how many
 * waterfalls moved.
 */
export async function sweepWaterfalls(db: Kysely<DB>, clock: Clock, work: WaterfallWork, batch = WATERFALL_SWEEP_BATCH): Promise<number> {
  // One instant for the whole pass: every statement and event of it reads the same time.
  const at = clock.at(clock.now());
  const lane = async () => {
    let moved = 0;
    for (;;) {
      const did = await db.transaction().execute((trx) => advanceBatch(trx, at, work, batch));
      moved += did.moved;
      // A short batch: nothing due is left that no one else holds.
      if (did.claimed < batch) return moved;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const lanes = await Promise.all(Array.from({ length: WATERFALL_SWEEP_LANES }, lane));
  return lanes.reduce((sum, moved) => sum + moved, 0);
}

/** At most this many due turns are counted for the metrics (a count past it reads as this many). */
const DUE_COUNT_CAP = 100_000;

/**
 * The sweepers' queue as GET /metrics reads it (`queue="waterfalls"`): the turns that have ended and
 * that no sweep has moved yet, and how long the one ended longest ago has waited. Every process
 * sweeps each second, so a lag of more than a few seconds means the sweepers are down or behind:
 * until a sweep moves a turn, lists still show the load to the carrier whose time is up and not to
 * the next (a booking or a pass catches its own freight up, lists do not). Two reads of the
 * partial index freight_waterfalls_due_idx.
 */
export async function waterfallQueueStats(
  db: Kysely<DB>,
  now: Date,
): Promise<{ pending: number; oldestAgeSeconds: number | null; dueLagSeconds: number }> {
  const { rows } = await sql<{ pending: string; due: Date | null }>`
    select (select count(*) from (select 1 from freight_waterfalls where state = 'running' and step_until <= ${now} limit ${DUE_COUNT_CAP}) q) as pending,
           (select min(step_until) from freight_waterfalls where state = 'running' and step_until <= ${now}) as due`.execute(db);
  const row = rows[0]!;
  const waited = secondsSince(row.due, now);
  return { pending: Number(row.pending), oldestAgeSeconds: waited, dueLagSeconds: waited ?? 0 };
}

/** How often a process sweeps waterfalls: a turn ends within this of its `step_until` without any request. */
export const WATERFALL_SWEEP_MS = 1_000;

/** Sweeps waterfalls while the server listens (started on listen, stopped on close, before the database closes). */
export function attachWaterfallSweeper(
  http: FastifyInstance,
  services: Pick<Services, 'db' | 'clock'>,
  work: WaterfallWork,
  intervalMs = WATERFALL_SWEEP_MS,
): { sweep(): Promise<number> } {
  const sweep = () => sweepWaterfalls(services.db, services.clock, work);
  const sweeper = new Sweeper(sweep, intervalMs, (err) => http.log.error({ err }, 'waterfall sweep failed'));
  http.addHook('onListen', async () => sweeper.start());
  http.addHook('onClose', () => sweeper.stop());
  return { sweep };
}
