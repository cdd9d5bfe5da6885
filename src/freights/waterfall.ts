import type { Kysely, Transaction } from 'kysely';
import { existingCompanies } from '../accounts/index.ts';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { emitEvent } from './events.ts';
import { inMarket, isAwardedStatus } from './in-market.ts';
import { DEFAULT_WINDOW_MS, lockFreight, type EnteredMarket } from './lifecycle.ts';
import { admits } from './policy.ts';
import { type FreightRow, VISIBILITY, type WaterfallRow, type WaterfallState, type WaterfallThen } from './tables.ts';

/**
 * Waterfall offers (docs/reference.md#one-step): a draft freight offered to carriers one after the other,
 * each for `minutes`, before the open market (`then` = `market`) or instead of it (`stop`). The
 * freight is published to the carrier whose turn it is alone (visibility -2, its whitelist that
 * one company, `book_now` its price), so every rule of who sees a freight holds as it is: the
 * previous carrier no longer sees it, the lists and the counts follow the turn.
 *
 * A turn ends when its carrier passes (POST /quotes/decline) or when `step_until` passes. The
 * latter needs no request: any server process's sweeper (waterfall-sweep.ts `sweepWaterfalls`)
 * advances every due waterfall with a few statements per batch, claiming freight and waterfall
 * rows with `skip locked` (those another transaction holds are left to it). A step is decided on
 * the locked rows and written once, so two sweepers, or a sweeper and a booking, never advance
 * one turn twice. Every transition that meets a waterfall (book,
 * decline, the sweeper) first catches it up to its clock (`catchUpWaterfall`), so a turn whose
 * end has passed is over whatever the sweeper did.
 *
 * The carriers are an input with a price each (`offers`): the same price for every carrier here;
 * a routing guide (§17, `guide` = 1) gives each its contract price, primary first.
 */

/** What a waterfall's steps do in modules above (app.ts): the freight entering the whole market (alerts). */
export interface WaterfallWork {
  enteredMarket: EnteredMarket;
  /** The same for many freights at once (the sweeper's batch); without it, `enteredMarket` for each. */
  enteredMarketAll?: (trx: Transaction<DB>, clock: Clock, freightIds: readonly number[]) => Promise<unknown>;
}

/** One carrier's turn: the company and the price it may book at. */
export interface WaterfallOffer {
  company: number;
  price: string;
}

export interface WaterfallInput {
  offers: WaterfallOffer[];
  currency: string;
  minutes: number;
  /** the API's `then` */
  afterwards: WaterfallThen;
  guide: boolean;
}

export const MAX_WATERFALL_CARRIERS = 20;
export const MAX_WATERFALL_MINUTES = 1440;

export type WaterfallRefusal = 'freight.waterfall.not_draft' | 'freight.waterfall.bad_carrier';

export type WaterfallResult =
  | { kind: 'ok'; freight: FreightRow; fall: WaterfallRow }
  | { kind: 'not_found' }
  | { kind: 'refused'; reason: WaterfallRefusal | 'quotes.decline.not_your_turn'; vars?: Record<string, string | number> };

/** The freight's waterfall, locked (after its freight). */
export function lockWaterfall(trx: Transaction<DB>, freightId: number): Promise<WaterfallRow | undefined> {
  return trx.selectFrom('freight_waterfalls').selectAll().where('freight_id', '=', freightId).forUpdate().executeTakeFirst();
}

/** A running waterfall whose freight was just awarded (Book Now, an accepted counter, an automatic award) ends `booked`. */
export async function waterfallWon(trx: Transaction<DB>, freightId: number, now: Date): Promise<void> {
  await trx
    .updateTable('freight_waterfalls')
    .set({ state: 'booked', step_until: null, modified: now })
    .where('freight_id', '=', freightId)
    .where('state', '=', 'running')
    .execute();
}

const addMinutes = (d: Date, minutes: number) => new Date(d.getTime() + minutes * 60_000);

async function writeFall(trx: Transaction<DB>, freightId: number, set: Partial<Omit<WaterfallRow, 'freight_id'>>): Promise<WaterfallRow> {
  return trx.updateTable('freight_waterfalls').set(set).where('freight_id', '=', freightId).returningAll().executeTakeFirstOrThrow();
}

async function writeFreight(trx: Transaction<DB>, freightId: number, set: Record<string, unknown>): Promise<FreightRow> {
  return (await trx
    .updateTable('freights')
    .set(set as never)
    .where('id', '=', freightId)
    .returningAll()
    .executeTakeFirstOrThrow()) as FreightRow;
}

/**
 * The turn after the current one, starting at `start` (the passed turn's end, or now on a pass):
 * the next carrier's, or after the last the market (`then` = `market`: visible to every company,
 * `book_now` the price) or the end (`stop`: the freight expires). Events: `freight.offered` to the
 * carrier whose turn starts (when it has not already passed too), `freight.published` to the
 * market, `freight.expired`.
 */
async function nextTurn(
  trx: Transaction<DB>,
  clock: Clock,
  freight: FreightRow,
  fall: WaterfallRow,
  start: Date,
  work: WaterfallWork,
): Promise<{ freight: FreightRow; fall: WaterfallRow }> {
  const now = clock.now();
  const next = fall.step + 1;
  if (next < fall.carriers.length) {
    const until = addMinutes(start, fall.minutes);
    const carrier = fall.carriers[next]!;
    const moved = await writeFall(trx, freight.id, { step: next, step_until: until, modified: now });
    const offered = await writeFreight(trx, freight.id, { whitelist: [carrier], book_now: fall.prices[next], modified: now });
    if (until > now) await emitEvent(trx, clock, { type: 'freight.offered', freightId: freight.id, companyId: carrier, until });
    return { freight: offered, fall: moved };
  }
  if (fall.afterwards === 'market') {
    const moved = await writeFall(trx, freight.id, { state: 'market', step_until: null, modified: now });
    const open = await writeFreight(trx, freight.id, {
      visibility: VISIBILITY.everyone,
      whitelist: [],
      book_now: fall.prices[fall.prices.length - 1],
      modified: now,
    });
    await emitEvent(trx, clock, { type: 'freight.published', freightId: freight.id });
    await work.enteredMarket(trx, clock, freight.id);
    return { freight: open, fall: moved };
  }
  const moved = await writeFall(trx, freight.id, { state: 'stopped', step_until: null, modified: now });
  const expired = await writeFreight(trx, freight.id, { status: 'expired', modified: now });
  await emitEvent(trx, clock, { type: 'freight.expired', freightId: freight.id });
  return { freight: expired, fall: moved };
}

/**
 * Brings a running waterfall up to the clock, on its locked freight and row: a freight that left
 * the market some other way ends it (`booked` when awarded, else `ended`); every turn whose end
 * has passed gives way to the next, each starting where the last ended. Idempotent: a second
 * call at the same time changes nothing.
 */
export async function catchUpWaterfall(
  trx: Transaction<DB>,
  clock: Clock,
  freight: FreightRow,
  fall: WaterfallRow,
  now: Date,
  work: WaterfallWork,
): Promise<{ freight: FreightRow; fall: WaterfallRow }> {
  let f = freight;
  let w = fall;
  const at = clock.at(now);
  for (let turns = 0; w.state === 'running' && turns <= MAX_WATERFALL_CARRIERS; turns++) {
    if (!inMarket(f, now)) {
      // Taken: booked. Expired at the deadline that ends the last turn of a `stop` waterfall: stopped.
      const state: WaterfallState = isAwardedStatus(f.status)
        ? 'booked'
        : f.status === 'expired' && w.afterwards === 'stop'
          ? 'stopped'
          : 'ended';
      w = await writeFall(trx, f.id, { state, step_until: null, modified: now });
      break;
    }
    if (!w.step_until || w.step_until > now) break;
    ({ freight: f, fall: w } = await nextTurn(trx, at, f, w, w.step_until, work));
  }
  return { freight: f, fall: w };
}

/**
 * POST /freights/waterfall/{id}.json (docs/reference.md#one-step): the owner's draft is published to the
 * first carrier alone, for `minutes`, at the first offer's price. The freight's deadline covers
 * every turn (and a day of market after them with `then` = `market`), or stays when later.
 * Another company: not found (a draft is its owner's alone); not a draft, a carrier that is no
 * company or the owner itself: refused, nothing written.
 */
export async function startWaterfall(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  freightId: number,
  input: WaterfallInput,
  work: WaterfallWork,
): Promise<WaterfallResult> {
  const now = clock.now();
  const at = clock.at(now);
  const carriers = input.offers.map((o) => o.company);
  const known = await existingCompanies(db, carriers);
  const unknown = carriers.find((c) => !known.has(c) || c === caller.companyId);
  return db.transaction().execute(async (trx): Promise<WaterfallResult> => {
    const freight = await lockFreight(trx, freightId, at);
    if (!freight || freight.company_id !== caller.companyId) return { kind: 'not_found' };
    if (freight.status !== 'draft') return { kind: 'refused', reason: 'freight.waterfall.not_draft' };
    if (unknown !== undefined) return { kind: 'refused', reason: 'freight.waterfall.bad_carrier', vars: { id: unknown } };
    const exists = await trx.selectFrom('freight_waterfalls').select('freight_id').where('freight_id', '=', freightId).executeTakeFirst();
    if (exists) return { kind: 'refused', reason: 'freight.waterfall.not_draft' };
    const turnsEnd = addMinutes(now, input.minutes * carriers.length);
    const needed = input.afterwards === 'market' ? new Date(turnsEnd.getTime() + DEFAULT_WINDOW_MS) : turnsEnd;
    const deadline = freight.deadline && freight.deadline > needed ? freight.deadline : needed;
    const first = input.offers[0]!;
    const until = addMinutes(now, input.minutes);
    const published = await writeFreight(trx, freightId, {
      status: 'open',
      visibility: VISIBILITY.whitelist,
      whitelist: [first.company],
      book_now: first.price,
      book_now_currency: input.currency,
      deadline,
      modified: now,
    });
    const fall = await trx
      .insertInto('freight_waterfalls')
      .values({
        freight_id: freightId,
        carriers,
        prices: input.offers.map((o) => o.price),
        currency: input.currency,
        minutes: input.minutes,
        afterwards: input.afterwards,
        guide: input.guide,
        step: 0,
        step_until: until,
        state: 'running',
        created: now,
        modified: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await emitEvent(trx, at, { type: 'freight.published', freightId });
    await emitEvent(trx, at, { type: 'freight.offered', freightId, companyId: first.company, until });
    await work.enteredMarket(trx, at, freightId);
    return { kind: 'ok', freight: published, fall };
  });
}

/**
 * POST /quotes/decline/{freightId}.json (docs/reference.md#one-step): the carrier whose turn it is passes;
 * the next turn starts now. A company that cannot see the freight: not found; one that sees it
 * but whose turn it is not (the market after the waterfall): refused.
 */
export async function declineTurn(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  freightId: number,
  work: WaterfallWork,
): Promise<WaterfallResult> {
  const now = clock.now();
  const at = clock.at(now);
  return db.transaction().execute(async (trx): Promise<WaterfallResult> => {
    const locked = await lockFreight(trx, freightId, at);
    if (!locked) return { kind: 'not_found' };
    const row = await lockWaterfall(trx, freightId);
    const caught = row ? await catchUpWaterfall(trx, at, locked, row, now, work) : undefined;
    const freight = caught?.freight ?? locked;
    const fall = caught?.fall;
    if (fall?.state === 'running' && fall.carriers[fall.step] === caller.companyId) {
      const moved = await nextTurn(trx, at, freight, fall, now, work);
      return { kind: 'ok', freight: moved.freight, fall: moved.fall };
    }
    const sees = freight.company_id === caller.companyId || (inMarket(freight, now) && admits(freight, caller.companyId));
    return sees ? { kind: 'refused', reason: 'quotes.decline.not_your_turn' } : { kind: 'not_found' };
  });
}
