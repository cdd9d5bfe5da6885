import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction, Updateable } from 'kysely';
import { existingCompanies } from '../accounts/index.ts';
import type { DB, Db } from '../db/schema.ts';
import { emitEvent, emitExpired } from './events.ts';
import type { Caller, Services } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { storableDate } from './fields.ts';
import { dueSql, isDue } from './in-market.ts';
import { roleOf } from './policy.ts';
import { type BidRow, type BidsTable, type FreightRow, type FreightsTable, DELIVERY, DELIVERY_STATUSES } from './tables.ts';
import { hasPendingBid, NO_CONFIRMATION } from './bids.ts';
import type { FailureCode } from '../kernel/errors.ts';
import type { MessageKey } from '../kernel/i18n.ts';
import { insertFreight, type NewFreight } from './store.ts';
import type { FreightValues } from './fields.ts';
import { VISIBILITY } from './tables.ts';
import { replacePieces } from './pieces.ts';
import { Sweeper } from '../kernel/sweeper.ts';

/**
 * Every freight transition, in one place (docs/reference.md#freights). The bid state machine (bidding.ts)
 * and the award path (award.ts, every way of winning) decide when a freight goes open -> pending
 * -> taken (or back to open) and call the steps here (`bidConfirmed`, `awardTo`, `bidWithdrawn`)
 * on the row they locked, in their own transaction.
 */

/**
 * Runs a transition in its transaction. A uniqueness violation (the one accepted bid a freight
 * may have), a serialization failure or a deadlock means a concurrent transition won: the whole
 * transaction is rolled back and `lost()` answers (the caller's refusal); anything else is thrown.
 */
export async function inTransition<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>, lost: () => T): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === '23505' || code === '40001' || code === '40P01') return lost();
    throw err;
  }
}

/** States the owner may revoke a freight from. */
export const REVOCABLE_STATUSES = ['draft', 'open', 'pending'] as const;
/** Terminal states a freight can be archived from. */
export const ARCHIVABLE_STATUSES = ['expired', 'revoked', 'closed'] as const;
/**
 * The states edit accepts: draft and open. A pending freight's terms are frozen (docs/reference.md#safety):
 * a side has confirmed a bid on them, so the owner may revoke but not change them.
 */
export const EDITABLE_STATUSES = ['draft', 'open'] as const;

/**
 * Expiry (docs/reference.md#freights: open/pending -> expired once the deadline has passed, visible on the
 * next read at the latest). Reads never wait for it to be written: every read computes the
 * effective status from the deadline and the clock passed in (in-market.ts, the one rule).
 * Writing it down is the sweeper's job (`sweepExpiredFreights`, run by
 * `ExpirySweeper` while the server listens) and every transition's (`persistExpiry` on the locked
 * row), so no request pays a probe. `now` comes from the app clock, never SQL now(), so tests
 * can move time.
 */

/**
 * Writes expiry for the given due freights inside the caller's transaction (the rows are locked
 * by it or by `for update skip locked`); answers the ids written. The one place expiry is
 * persisted: an event announcing it belongs here, in the same transaction.
 */
export async function expireLocked(trx: Transaction<DB>, ids: number[], clock: Clock): Promise<number[]> {
  if (!ids.length) return [];
  const now = clock.now();
  const rows = await trx
    .updateTable('freights')
    .set({ status: 'expired', modified: now })
    .where('id', 'in', ids)
    // Re-checked on the locked rows: only what is still due is written.
    .where(dueSql(now))
    .returning('id')
    .execute();
  const expired = rows.map((r) => r.id);
  await emitExpired(trx, clock, expired);
  return expired;
}

/**
 * A locked row that is due at the clock's time becomes expired in the same transaction; others
 * come back as they are. The clock (APP_TIMEZONE, stopped at the transaction's instant) also
 * writes the expiry event's payload.
 */
export async function persistExpiry(trx: Transaction<DB>, row: FreightRow, clock: Clock): Promise<FreightRow> {
  if (!isDue(row, clock.now())) return row;
  await expireLocked(trx, [row.id], clock);
  return trx.selectFrom('freights').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
}

export const SWEEP_BATCH = 500;

/**
 * One sweep: every due freight is written `expired`, a batch per transaction. `for update skip
 * locked` lets several server processes sweep at once without waiting on each other or on a
 * transition holding a row (that transition persists expiry itself). Answers how many it wrote.
 */
export async function sweepExpiredFreights(db: Kysely<DB>, clock: Clock, batch = SWEEP_BATCH): Promise<number> {
  const at = clock.at(clock.now());
  const now = at.now();
  let total = 0;
  for (;;) {
    const written = await db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('freights')
        .select('id')
        .where(dueSql(now))
        .orderBy('deadline')
        .limit(batch)
        .forUpdate()
        .skipLocked()
        .execute();
      return expireLocked(
        trx,
        due.map((r) => r.id),
        at,
      );
    });
    total += written.length;
    if (written.length < batch) return total;
    // A large backlog (first start after a long stop) yields between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Persists expiry in the background while the server listens (src/app.ts: started on listen,
 * stopped on close, before the database closes). Reads do not depend on it; it keeps the stored
 * status close to the effective one, so the lists' partial indexes stay small.
 */
export class ExpirySweeper extends Sweeper {
  constructor(db: Kysely<DB>, clock: Clock, options: { intervalMs?: number; onError?: (err: unknown) => void } = {}) {
    super(() => sweepExpiredFreights(db, clock), options.intervalMs ?? SWEEP_INTERVAL_MS, options.onError);
  }
}

/** How often the sweeper writes expiry down; reads show it at once regardless. */
export const SWEEP_INTERVAL_MS = 5_000;

/** Starts the sweeper when the server listens and stops it when the server closes. */
export function attachExpirySweeper(http: FastifyInstance, services: Pick<Services, 'db' | 'clock'>, intervalMs?: number): ExpirySweeper {
  const sweeper = new ExpirySweeper(services.db, services.clock, {
    intervalMs,
    onError: (err) => http.log.error({ err }, 'expiry sweep failed'),
  });
  http.addHook('onListen', async () => sweeper.start());
  http.addHook('onClose', async () => sweeper.stop());
  return sweeper;
}

/**
 * A transition's result. `R` is what a refusal can say: a listed failure code (kernel/errors.ts)
 * where it answers `status` = `error`; publish's refusals are 302s with a message only.
 */
export type TransitionResult<R extends MessageKey = FailureCode> =
  | { kind: 'ok'; row: FreightRow }
  /** the caller may not make this transition at all: 404 */
  | { kind: 'not_found' }
  /** allowed caller, but not from this state (or bad input): status error / refused */
  | { kind: 'refused'; reason: R };

/** Why a publish is refused (a 302 back to the freight page with the message). */
export type PublishRefusal =
  | 'freight.publish.not_owner'
  | 'freight.publish.not_draft'
  | 'freight.publish.bad_deadline'
  | 'freight.publish.past_deadline';

/**
 * Runs `decide` on the freight row locked FOR UPDATE in a transaction, expiry written first when
 * due, so concurrent transitions (and the quotes module's award) serialise on the row.
 */
async function onLockedFreight<R extends MessageKey>(
  db: Kysely<DB>,
  clock: Clock,
  id: number,
  decide: (row: FreightRow, trx: Transaction<DB>) => Promise<TransitionResult<R>>,
): Promise<TransitionResult<R>> {
  const at = clock.at(clock.now());
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('freights').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) return { kind: 'not_found' };
    return decide(await persistExpiry(trx, row, at), trx);
  });
}

async function setStatus(
  trx: Transaction<DB>,
  row: FreightRow,
  values: Partial<Record<'status' | 'delivery_status', string | number>>,
  now: Date,
): Promise<{ kind: 'ok'; row: FreightRow }> {
  const updated = await trx
    .updateTable('freights')
    .set({ ...(values as object), modified: now })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { kind: 'ok', row: updated };
}

const includes = <T extends string>(list: readonly T[], value: string): boolean => (list as readonly string[]).includes(value);

/**
 * A whitelist names companies: an id that names none is dropped, wherever a whitelist is written
 * (created, edited, published), so no freight is addressed to a company that does not exist and
 * no event is planned for one. The answers that can say so warn of what was dropped (create.ts,
 * routes.tsx: the sent list against the written one; accounts droppedIdsWarning).
 */
async function knownWhitelist(db: Db, whitelist: unknown): Promise<number[] | undefined> {
  if (!Array.isArray(whitelist)) return undefined;
  const ids = whitelist as number[];
  if (!ids.length) return ids;
  const known = await existingCompanies(db, ids);
  return ids.filter((id) => known.has(id));
}

/**
 * A freight entered the market (published, or created open): what modules above freights do
 * about it in the same transaction (app.ts passes the alerts module's queue: the alert of
 * matching saved searches and vehicle offers is computed after the commit).
 */
export type EnteredMarket = (trx: Transaction<DB>, clock: Clock, freightId: number) => Promise<unknown>;

export type EditResult =
  | { kind: 'ok'; row: FreightRow }
  | { kind: 'not_found' }
  | { kind: 'refused'; reason: 'freight.edit.not_allowed' | 'freight.edit.waterfall_running' };

/**
 * Changes only the sent fields of an own freight in draft/open (a pending freight's terms are
 * frozen, docs/reference.md#safety); `pieces`, when sent,
 * replace the list (docs/reference.md#conventions item 9). `parse` sees the locked stored row (airport resolution
 * depends on its addresses).
 */
export async function editFreight(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  id: number,
  parse: (existing: FreightRow) => NewFreight,
): Promise<EditResult> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx.selectFrom('freights').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!locked || locked.company_id !== caller.companyId) return { kind: 'not_found' } as const;
    // A freight past its deadline is expired (written now), so not editable.
    const row = await persistExpiry(trx, locked, clock);
    if (!(EDITABLE_STATUSES as readonly string[]).includes(row.status))
      return { kind: 'refused', reason: 'freight.edit.not_allowed' } as const;
    const { values, pieces } = parse(row);
    if (values.whitelist !== undefined) values.whitelist = await knownWhitelist(trx, values.whitelist);
    // A running waterfall (docs/reference.md#one-step) owns the audience: each turn sets the whitelist to its
    // carrier, the market or the end the visibility. A change of either is refused until it ends
    // (docs/choices.md, "Editing during a waterfall"); every other field stays editable, and
    // sending them unchanged (a whole form) is no change. Read under the freight's lock, which every
    // writer of a waterfall holds.
    const audience =
      (values.visibility !== undefined && values.visibility !== row.visibility) ||
      (values.whitelist !== undefined && !sameIds(values.whitelist as number[], row.whitelist));
    if (audience && (await waterfallRunning(trx, id))) return { kind: 'refused', reason: 'freight.edit.waterfall_running' } as const;
    const updated = await trx
      .updateTable('freights')
      .set({ ...(values as object), modified: clock.now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (pieces) await replacePieces(trx, id, pieces);
    await emitEvent(trx, clock, { type: 'freight.updated', freightId: id });
    return { kind: 'ok', row: updated } as const;
  });
}

const sameIds = (a: readonly number[] | null, b: readonly number[] | null) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((id, i) => id === (b ?? [])[i]);

/** Whether the freight's waterfall (docs/reference.md#one-step) is running. */
async function waterfallRunning(trx: Transaction<DB>, freightId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('freight_waterfalls')
    .select('state')
    .where('freight_id', '=', freightId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * How a freight comes into being (docs/reference.md#states, the rows from "(none)"); each
 * way sets the status and audience it starts with and announces itself in the same transaction:
 * - `draft`: POST /freights/add, a draft of the caller's company;
 * - `direct`: POST /freights/add with `winner_direct`, open at once for that company alone
 *   (visibility -2, whitelist [it]), with the default bidding window when none is given; it
 *   enters the market (freight.published, and what `enteredMarket` does);
 * - `booking`: POST /freights/request/…, a booking request (FFR, air) addressed to its provider
 *   alone, a draft; a flight's provider is its winner at once (booking.requested);
 * - `ownOrder`: POST /freights/create-from-template, taken with the own company as carrier,
 *   awarded in the same transaction by `awarded` (the award path, award.ts `own_order`: freight.awarded
 *   and the award's steps; the caller passes it, so this file needs no import of the path).
 */
export type Creation =
  | { kind: 'draft' }
  | { kind: 'direct'; provider: number; enteredMarket: EnteredMarket }
  | { kind: 'booking'; provider: number; providerWins: boolean }
  | { kind: 'ownOrder'; awarded: (trx: Transaction<DB>, clock: Clock, freightId: number) => Promise<unknown> };

/** Bidding window when a freight opens without a deadline (docs/reference.md#limits). */
export const DEFAULT_WINDOW_MS = 24 * 3600_000;

/** Creates a freight of the caller's company in one transaction: row, piece lines, starting state and its events. */
export async function createFreight(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  freight: NewFreight,
  creation: Creation,
): Promise<FreightRow> {
  const values: FreightValues = { ...freight.values };
  if (values.whitelist !== undefined) values.whitelist = await knownWhitelist(db, values.whitelist);
  const now = clock.now();
  switch (creation.kind) {
    case 'draft':
      break;
    case 'direct':
      Object.assign(values, { status: 'open', visibility: VISIBILITY.whitelist, whitelist: [creation.provider] });
      // Open without a deadline would never expire: the publish default applies (decided).
      if (!values.deadline) values.deadline = new Date(now.getTime() + DEFAULT_WINDOW_MS);
      break;
    case 'booking':
      Object.assign(values, {
        type: 'FFR',
        class: 'air',
        status: 'draft',
        visibility: VISIBILITY.whitelist,
        whitelist: [creation.provider],
      });
      if (creation.providerWins) values.winner_id = creation.provider;
      break;
    case 'ownOrder':
      Object.assign(values, { status: 'taken', winner_id: caller.companyId, transport_company_id: caller.companyId });
      break;
  }
  return insertFreight(db, caller, now, { values, pieces: freight.pieces }, async (trx, row) => {
    if (creation.kind === 'direct') {
      await emitEvent(trx, clock, { type: 'freight.published', freightId: row.id });
      await creation.enteredMarket(trx, clock, row.id);
    } else if (creation.kind === 'booking') {
      await emitEvent(trx, clock, { type: 'booking.requested', freightId: row.id });
    } else if (creation.kind === 'ownOrder') {
      await creation.awarded(trx, clock, row.id);
    }
  });
}

export interface PublishInput {
  visibility?: number;
  whitelist?: number[];
  /** the raw deadline parameter (absolute or relative), parsed here */
  deadline?: unknown;
}

/**
 * draft -> open (docs/reference.md#the-api: publish). A freight the caller cannot see is a 404; a visible one of
 * another company, or one that is no draft, is refused (both answer 302 at the HTTP level).
 */
export async function publishFreight(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  id: number,
  input: PublishInput,
  enteredMarket: EnteredMarket,
): Promise<TransitionResult<PublishRefusal>> {
  return onLockedFreight<PublishRefusal>(db, clock, id, async (row, trx) => {
    if (row.company_id !== caller.companyId) {
      const bid = await trx
        .selectFrom('bids')
        .select('id')
        .where('freight_id', '=', row.id)
        .where('company_id', '=', caller.companyId)
        .where('status', '<>', 'revoked')
        .limit(1)
        .executeTakeFirst();
      return roleOf(row, caller.companyId, Boolean(bid)) ? { kind: 'refused', reason: 'freight.publish.not_owner' } : { kind: 'not_found' };
    }
    if (row.status !== 'draft') return { kind: 'refused', reason: 'freight.publish.not_draft' };
    const now = clock.now();
    let deadline: Date | null = null;
    if (input.deadline !== undefined && input.deadline !== null && input.deadline !== '') {
      deadline = storableDate(clock.parseDeadline(input.deadline));
      if (!deadline) return { kind: 'refused', reason: 'freight.publish.bad_deadline' };
      if (deadline <= now) return { kind: 'refused', reason: 'freight.publish.past_deadline' };
    } else if (row.deadline && row.deadline > now) {
      deadline = row.deadline;
    } else {
      // docs/reference.md#the-api: now + 24 hours when none is given and none exists (a past one counts as none).
      deadline = new Date(now.getTime() + DEFAULT_WINDOW_MS);
    }
    const values: Record<string, unknown> = { status: 'open', deadline, modified: now };
    if (input.visibility !== undefined) values.visibility = input.visibility;
    const visibility = input.visibility ?? row.visibility;
    // The whitelist is taken only together with visibility -2 (docs/reference.md#the-api).
    if (visibility === VISIBILITY.whitelist && input.visibility === VISIBILITY.whitelist && input.whitelist !== undefined)
      values.whitelist = await knownWhitelist(trx, input.whitelist);
    const updated = await trx.updateTable('freights').set(values).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
    await emitEvent(trx, clock, { type: 'freight.published', freightId: row.id });
    // Other modules' reaction, same transaction (the alert of matching saved searches and
    // vehicle offers, queued to run after the commit).
    await enteredMarket(trx, clock, row.id);
    return { kind: 'ok', row: updated };
  });
}

/** draft/open/pending -> revoked, owner only. Bids keep their status (docs/choices.md). */
export async function revokeFreight(db: Kysely<DB>, clock: Clock, caller: Caller, id: number): Promise<TransitionResult> {
  return onLockedFreight<FailureCode>(db, clock, id, async (row, trx) => {
    if (row.company_id !== caller.companyId) return { kind: 'not_found' };
    if (!includes(REVOCABLE_STATUSES, row.status)) return { kind: 'refused', reason: 'freight.revoke.not_allowed' };
    const revoked = await setStatus(trx, row, { status: 'revoked' }, clock.now());
    await emitEvent(trx, clock, { type: 'freight.revoked', freightId: row.id });
    return revoked;
  });
}

/** expired/revoked/closed -> archived, owner only. */
export async function archiveFreight(db: Kysely<DB>, clock: Clock, caller: Caller, id: number): Promise<TransitionResult> {
  return onLockedFreight<FailureCode>(db, clock, id, async (row, trx) => {
    if (row.company_id !== caller.companyId) return { kind: 'not_found' };
    if (!includes(ARCHIVABLE_STATUSES, row.status)) return { kind: 'refused', reason: 'freight.archive.not_allowed' };
    return setStatus(trx, row, { status: 'archived' }, clock.now());
  });
}

/**
 * What else is written in a delivery step's transaction, from a module above: the deal room's
 * proof of delivery (deals). It runs on the moved row; should it fail, the step rolls back with it.
 */
export type AlongDelivery = (trx: Transaction<DB>, row: FreightRow) => Promise<void>;

/**
 * Delivery progress of a taken freight, by its winner or owner: 0 not started, 1 picked up,
 * 2 in transit, 3 delivered (taken -> closed). The status never goes backwards.
 */
export async function setDeliveryStatus(
  db: Kysely<DB>,
  clock: Clock,
  caller: Pick<Caller, 'companyId'>,
  id: number,
  deliveryStatus: number | undefined,
  along?: AlongDelivery,
): Promise<TransitionResult> {
  return onLockedFreight<FailureCode>(db, clock, id, async (row, trx) => {
    if (row.company_id !== caller.companyId && row.winner_id !== caller.companyId) return { kind: 'not_found' };
    if (row.status !== 'taken') return { kind: 'refused', reason: 'freight.delivery.not_taken' };
    if (deliveryStatus === undefined || !(DELIVERY_STATUSES as readonly number[]).includes(deliveryStatus))
      return { kind: 'refused', reason: 'freight.delivery.bad_value' };
    if (deliveryStatus < row.delivery_status) return { kind: 'refused', reason: 'freight.delivery.backwards' };
    const moved = await setStatus(
      trx,
      row,
      deliveryStatus === DELIVERY.delivered
        ? { delivery_status: DELIVERY.delivered, status: 'closed' }
        : { delivery_status: deliveryStatus },
      clock.now(),
    );
    await along?.(trx, moved.row);
    await emitEvent(trx, clock, { type: 'freight.delivery_status', freightId: row.id, by: caller.companyId });
    return moved;
  });
}

/** The freight locked for the rest of the transaction; one past its deadline at the clock's time is written expired first. */
export async function lockFreight(trx: Transaction<DB>, id: number, clock: Clock): Promise<FreightRow | undefined> {
  const row = await trx.selectFrom('freights').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  return row && persistExpiry(trx, row, clock);
}

/** Writes columns of a locked freight (the steps below). */
function updateFreight(trx: Transaction<DB>, id: number, set: Updateable<FreightsTable>): Promise<FreightRow> {
  return trx.updateTable('freights').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

// The bid state machine's steps of the freight (bidding.ts, and the award path: award.ts). Each
// takes the row the transition locked (lockFreight) in its transaction and answers it as written:
// the award stays race-proof there (the lock, and the unique index of one accepted bid per freight).

/** A first side confirmed a bid: an open freight becomes pending (one already pending stays). */
export async function bidConfirmed(trx: Transaction<DB>, freight: FreightRow, now: Date): Promise<FreightRow> {
  return freight.status === 'open' ? updateFreight(trx, freight.id, { status: 'pending', modified: now }) : freight;
}

/**
 * Both sides confirmed the bid, written as one statement (docs/benchmarks.md, "fewer award
 * statements"): the bid accepted with `accept` (its confirmations), every other pending bid of the
 * freight back to open with its confirmations cleared, the freight taken, its winner and carrier
 * the bidder's company, its price the bid's amount. Should another bid of the freight be accepted
 * already (impossible under the lock), the unique index of one accepted bid per freight fails the
 * statement. Answers the freight as written and the bid as written (the locked row with `accept`:
 * no column of a bid changes on its own).
 */
export async function awardTo(
  trx: Transaction<DB>,
  freight: FreightRow,
  bid: BidRow,
  accept: Updateable<BidsTable> & Pick<BidRow, 'status' | 'modified'>,
  now: Date,
): Promise<{ freight: FreightRow; bid: BidRow }> {
  const taken = await trx
    .with('accepted', (db) => db.updateTable('bids').set(accept).where('id', '=', bid.id).returning('id'))
    .with('reopened', (db) =>
      db
        .updateTable('bids')
        .set({ status: 'open', ...NO_CONFIRMATION, modified: now })
        .where('freight_id', '=', freight.id)
        .where('id', '!=', bid.id)
        .where('status', '=', 'pending')
        .returning('id'),
    )
    .updateTable('freights')
    .set({ status: 'taken', winner_id: bid.company_id, transport_company_id: bid.company_id, price: bid.amount!, modified: now })
    .where('id', '=', freight.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { freight: taken, bid: { ...bid, ...accept } as BidRow };
}

/** A bid was revoked: a pending freight left without a pending bid is open again. */
export async function bidWithdrawn(trx: Transaction<DB>, freight: FreightRow, now: Date): Promise<FreightRow> {
  if (freight.status !== 'pending' || (await hasPendingBid(trx, freight.id))) return freight;
  return updateFreight(trx, freight.id, { status: 'open', modified: now });
}

/** A company invited into a whitelisted freight in the market (src/vehicles: an offer's company) joins its whitelist. */
export async function admitToWhitelist(trx: Transaction<DB>, freight: FreightRow, companyId: number, now: Date): Promise<FreightRow> {
  if (freight.whitelist.includes(companyId)) return freight;
  return updateFreight(trx, freight.id, { whitelist: [...freight.whitelist, companyId], modified: now });
}

/** Locks freights in id order (planning them on a tour); their id, winner and stored status. */
export function lockFreights(
  trx: Transaction<DB>,
  ids: readonly number[],
): Promise<Array<{ id: number; winner_id: number | null; status: string }>> {
  return trx
    .selectFrom('freights')
    .select(['id', 'winner_id', 'status'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forUpdate()
    .execute();
}
