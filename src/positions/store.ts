import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, Db } from '../db/schema.ts';
import { executeShape } from '../db/prepared.ts';
import { TRACKED_COLUMNS, trackedFreights, trackedOf, type TrackedFreight } from './tracked.ts';
import type { Clock } from '../kernel/time.ts';
import { isRecord } from '../kernel/params.ts';
import { deleteEndedLinks, revokeLinks } from '../links/index.ts';
import { etaFrom, foldMilestones, type Milestones } from './eta.ts';
import { freightLate, milestoneReached } from './events.ts';
import { MILESTONE_TYPES, type MilestoneType, type PositionSource, type TrackingRow } from './tables.ts';
import { Sweeper } from '../kernel/sweeper.ts';

/**
 * Tracking by permission (docs/reference.md#tracking): taking positions (validated whole, written with the
 * milestones and the ETA they make, in one transaction), reading them for the two parties (the
 * owner's reads logged for the winner), and the sweeper (lateness without a request, delivery
 * noted and the driver's links ended, positions deleted 30 days after delivery).
 */

/** docs/reference.md#tracking: 1–1,000 positions a call. */
export const MAX_POSITIONS = 1000;
/** docs/reference.md#tracking: an `at` more than this far ahead of the exchange's clock refuses the request. */
export const FUTURE_MS = 5 * 60_000;
/** GET answers at most the last this many positions. */
export const POSITIONS_SHOWN = 500;
/** docs/reference.md#tracking: positions (and milestones, the read log) are deleted this long after delivery. */
export const KEPT_AFTER_DELIVERY_DAYS = 30;
/** A user's reads within this long of its last logged read are one read (a page updating itself is one reader). */
export const READ_COALESCE_MS = 5 * 60_000;
/** The winner's answer shows at most this many reads, newest first. */
export const READS_SHOWN = 100;
const MAX_SPEED = 300;

export interface PositionInput {
  latitude: number;
  longitude: number;
  at: Date;
  speed: number | null;
}

export type PositionProblem =
  | 'positions.count'
  | 'positions.item_invalid'
  | 'positions.latitude_invalid'
  | 'positions.longitude_invalid'
  | 'positions.at_invalid'
  | 'positions.speed_invalid';

export type PositionsRead =
  | { ok: true; positions: PositionInput[] }
  | { ok: false; problem: PositionProblem; item?: number; field?: string };

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A number as JSON or form text gives it; anything else undefined. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.length <= 32 && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/** A position's time: `YYYY-MM-DD HH:MM[:SS]` in APP_TIMEZONE (docs/reference.md#the-api), or ISO 8601 with its zone (what telematics systems send). */
export function readTime(value: unknown, clock: Clock): Date | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  const local = clock.parse(value);
  if (local) return local;
  if (!ISO_WITH_ZONE.test(value.trim())) return null;
  const d = new Date(value.trim());
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1900 ? null : d;
}

/**
 * The request's positions, all or none (docs/reference.md#tracking): the count is checked before anything
 * else (§9), then every item; the first bad item refuses the request, named by its index.
 */
export function readPositions(value: unknown, clock: Clock): PositionsRead {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_POSITIONS) {
    // Form bracket keys (`positions[0][latitude]`) arrive as an object keyed by index.
    if (!isRecord(value)) return { ok: false, problem: 'positions.count' };
    let count = 0;
    for (const _ in value) if (++count > MAX_POSITIONS) return { ok: false, problem: 'positions.count' };
    if (count < 1) return { ok: false, problem: 'positions.count' };
    return readPositions(Object.values(value), clock);
  }
  const latest = clock.now().getTime() + FUTURE_MS;
  const positions: PositionInput[] = [];
  for (const [item, raw] of value.entries()) {
    if (!isRecord(raw)) return { ok: false, problem: 'positions.item_invalid', item };
    const latitude = numberOf(raw.latitude);
    if (latitude === undefined || latitude < -90 || latitude > 90)
      return { ok: false, problem: 'positions.latitude_invalid', item, field: 'latitude' };
    const longitude = numberOf(raw.longitude);
    if (longitude === undefined || longitude < -180 || longitude > 180)
      return { ok: false, problem: 'positions.longitude_invalid', item, field: 'longitude' };
    const at = readTime(raw.at, clock);
    if (!at || at.getTime() > latest) return { ok: false, problem: 'positions.at_invalid', item, field: 'at' };
    let speed: number | null = null;
    if (raw.speed !== undefined && raw.speed !== null && raw.speed !== '') {
      const s = numberOf(raw.speed);
      if (s === undefined || s < 0 || s > MAX_SPEED) return { ok: false, problem: 'positions.speed_invalid', item, field: 'speed' };
      speed = Math.round(s * 10) / 10;
    }
    positions.push({ latitude, longitude, at, speed });
  }
  return { ok: true, positions };
}

/** The freight as tracking reads it, or undefined for an unknown id. */
export async function trackedFreight(db: Db, id: number): Promise<TrackedFreight | undefined> {
  return (await trackedFreights(db, [id]))[0];
}

/** The freight's tracking row as read before a batch, with its version (xmin): the batch is written only while the row is still that version. */
export type SeenTracking = TrackingRow & { version: string };

/** The columns of freight_tracking (TrackingRow), read beside the freight by freightToTrack. */
const TRACKING_COLUMNS = [
  'freight_id',
  'arrived_pickup',
  'departed_pickup',
  'arrived_delivery',
  'last_at',
  'last_latitude',
  'last_longitude',
  'eta_at',
  'km_left',
  'late',
  'delivered',
  'created',
] as const satisfies ReadonlyArray<keyof TrackingRow>;

/** The tracking row's columns as `t_<column>` beside another table's (trackingOfRow reads them back). */
const TRACKING_SELECT = sql.raw(TRACKING_COLUMNS.map((c) => `t.${c} as t_${c}`).join(', '));

/** The tracking row of a row read with TRACKING_SELECT, or undefined when the freight has none (a left join's nulls). */
function trackingOfRow(row: Record<string, unknown>): TrackingRow | undefined {
  if (row.t_freight_id === null) return undefined;
  const tracking: Record<string, unknown> = {};
  for (const c of TRACKING_COLUMNS) tracking[c] = row[`t_${c}`];
  return tracking as unknown as TrackingRow;
}

/**
 * What taking positions starts from, in one statement: the freight as tracking reads it and its
 * tracking row as it is now with the row's version (none before the freight's first position or
 * link), or undefined for an unknown id.
 */
export async function freightToTrack(db: Db, id: number): Promise<{ freight: TrackedFreight; seen: SeenTracking | undefined } | undefined> {
  // Prepared by its text (db/prepared.ts): every position sent runs it (~83 a second for 5,000 trucks).
  const rows = await executeShape<Record<string, unknown>>(
    db,
    sql`select ${sql.raw(TRACKED_COLUMNS.map((c) => `f.${c}`).join(', '))}, t.xmin::text as t_version, ${TRACKING_SELECT}
      from freights f left join freight_tracking t on t.freight_id = f.id
      where f.id = ${id}::int`.compile(db),
  );
  const row = rows[0];
  if (!row) return undefined;
  const tracking = trackingOfRow(row);
  return {
    freight: trackedOf(row as unknown as Parameters<typeof trackedOf>[0]),
    seen: tracking && { ...tracking, version: row.t_version as string },
  };
}

export type Role = 'owner' | 'winner';

/** The caller's part in a freight's tracking: its owner or winner (both, for a freight won by its own company: winner), else null. */
export function roleIn(freight: TrackedFreight, companyId: number): Role | null {
  if (freight.winner === companyId) return 'winner';
  if (freight.owner === companyId) return 'owner';
  return null;
}

/** The freight's tracking row, created on first use; locked for the rest of the transaction (one statement when it exists). */
async function lockTracking(trx: Transaction<DB>, freightId: number, now: Date): Promise<TrackingRow> {
  const locked = () => trx.selectFrom('freight_tracking').selectAll().where('freight_id', '=', freightId).forUpdate().executeTakeFirst();
  const row = await locked();
  if (row) return row;
  await ensureTracking(trx, freightId, now);
  return (await locked())!;
}

/** Makes sure a freight has its tracking row (a driver's link issued before any position: the sweeper ends it at delivery). */
export async function ensureTracking(db: Db, freightId: number, now: Date): Promise<void> {
  await db
    .insertInto('freight_tracking')
    .values({ freight_id: freightId, created: now })
    .onConflict((oc) => oc.column('freight_id').doNothing())
    .execute();
}

export interface Taken {
  stored: number;
  /** the milestones these positions reached */
  milestones: Array<{ type: MilestoneType; at: Date }>;
  /** the freight's tracking as these positions left it */
  tracking: TrackingRow;
}

/** What a batch of positions makes of a freight's tracking: the columns to set, the milestones reached, lateness to tell. */
interface Advance {
  set: Partial<Pick<TrackingRow, MilestoneType | 'last_at' | 'last_latitude' | 'last_longitude' | 'eta_at' | 'km_left' | 'late'>>;
  reached: Array<{ type: MilestoneType; at: Date }>;
  late: { at: Date; kmLeft: number } | null;
}

/** The milestones, the ETA and lateness after these positions (pure: eta.ts on the positions and the tracking before them). */
function advance(tracking: TrackingRow, freight: TrackedFreight, positions: readonly PositionInput[], now: Date): Advance {
  const sorted = [...positions].sort((a, b) => a.at.getTime() - b.at.getTime());
  const before: Milestones = {
    arrived_pickup: tracking.arrived_pickup,
    departed_pickup: tracking.departed_pickup,
    arrived_delivery: tracking.arrived_delivery,
  };
  const after = foldMilestones(before, sorted, freight.from, freight.to);
  const reached = MILESTONE_TYPES.flatMap((type) => (!before[type] && after[type] ? [{ type, at: after[type]! }] : []));
  const newest = sorted[sorted.length - 1]!;
  const moved = !tracking.last_at || newest.at >= tracking.last_at;
  const last = moved ? newest : null;
  const eta = last ? etaFrom(last, freight.to) : null;
  const late = !tracking.late && !after.arrived_delivery && freight.windowEnd !== null && eta !== null && eta.at > freight.windowEnd;
  return {
    set: {
      ...after,
      ...(last
        ? {
            last_at: last.at,
            last_latitude: last.latitude,
            last_longitude: last.longitude,
            eta_at: eta?.at ?? null,
            km_left: eta ? eta.kmLeft.toFixed(1) : null,
          }
        : {}),
      ...(late ? { late: now } : {}),
    },
    reached,
    late: late && eta ? { at: eta.at, kmLeft: eta.kmLeft } : null,
  };
}

/**
 * The positions and the tracking they make, in one statement: the positions as column arrays
 * (unnest), the tracking row updated only while it is the version `version` (its xmin) when
 * given, and the positions written only when the row was. Answers whether it was.
 */
async function writePositions(
  db: Db,
  freightId: number,
  positions: readonly PositionInput[],
  source: PositionSource,
  now: Date,
  set: Advance['set'],
  version?: string,
): Promise<boolean> {
  const update = db
    .updateTable('freight_tracking')
    .set(set)
    .where('freight_id', '=', freightId)
    .$if(version !== undefined, (q) => q.where(sql<boolean>`xmin = ${version}::text::xid`))
    .returning('freight_id');
  // Prepared by its text (db/prepared.ts; a few shapes: which columns `set` has): every position sent
  // runs it. The numbers travel as texts (String(n), what `pg` sends for a number too), a missing
  // speed as '', so that every argument is one a prepared statement takes (db/prepared.ts literal).
  const [row] = await executeShape<{ stored: number }>(
    db,
    sql`
    with tracked as (${update}),
    stored as (
      insert into freight_positions (freight_id, at, latitude, longitude, speed, source, received)
      select tracked.freight_id, p.at, p.latitude, p.longitude, nullif(p.speed, '')::real, ${source}::text, ${now}::timestamptz
      from tracked cross join unnest(${positions.map((p) => p.at.toISOString())}::timestamptz[], ${positions.map((p) => String(p.latitude))}::float8[],
                                     ${positions.map((p) => String(p.longitude))}::float8[], ${positions.map((p) => (p.speed === null ? '' : String(p.speed)))}::text[])
        as p(at, latitude, longitude, speed)
      returning 1)
    select (select count(*) from tracked)::int as stored`.compile(db),
  );
  return row!.stored > 0;
}

/**
 * Writes the positions of an underway freight (the caller checked who may send them) with the
 * milestones and the ETA they make, and the events of both. Most batches make no event: the
 * positions and the new state are written in one statement on the condition that the tracking
 * row is still the version `seen` (read with the freight by freightToTrack: one round trip and one
 * commit after it). A batch that makes an event, the freight's first, and one that meets a
 * concurrent batch are written in one transaction with the row locked, with their events.
 */
export async function takePositions(
  db: Kysely<DB>,
  clock: Clock,
  freight: TrackedFreight,
  seen: SeenTracking | undefined,
  positions: readonly PositionInput[],
  source: PositionSource,
): Promise<Taken> {
  const at = clock.at(clock.now());
  const now = at.now();
  const row = seen;
  if (row) {
    const { version, ...tracking } = row;
    const next = advance(tracking, freight, positions, now);
    if (!next.reached.length && !next.late && (await writePositions(db, freight.id, positions, source, now, next.set, version)))
      return { stored: positions.length, milestones: [], tracking: { ...tracking, ...next.set } };
  }
  return db.transaction().execute(async (trx) => {
    const tracking = await lockTracking(trx, freight.id, now);
    const next = advance(tracking, freight, positions, now);
    await writePositions(trx, freight.id, positions, source, now, next.set);
    for (const m of next.reached) await milestoneReached(trx, at, freight, m);
    if (next.late) await freightLate(trx, at, freight, next.late);
    return { stored: positions.length, milestones: next.reached, tracking: { ...tracking, ...next.set } };
  });
}

/** A stored position as the parties read it. */
export interface PositionPoint {
  at: Date;
  latitude: number;
  longitude: number;
  speed: number | null;
  source: PositionSource;
}

export interface TrackingView {
  positions: PositionPoint[];
  tracking: TrackingRow | undefined;
}

/** The five numbers a position is aggregated to below: ms since the epoch, latitude, longitude, speed (or null), source (1: link, 0: api). */
const TUPLE = 5;

/** Who of the owner's company reads a freight's positions, and when (the read log's row). */
export interface Reader {
  companyId: number;
  userId: number;
  name: string;
}

/**
 * The last POSITIONS_SHOWN positions (oldest first, lastPositions) and the tracking state of a
 * freight, in one statement. With `reader` (a user of the owner's company), the read is logged by
 * the same statement (logReadInsert, below).
 */
export async function readTracking(db: Db, freightId: number, reader?: { who: Reader; now: Date }): Promise<TrackingView> {
  const logged = reader ? sql`with logged as (${logReadInsert(freightId, reader.who, reader.now)} returning 1) ` : sql``;
  const { rows } = await sql<TrackingRow & { positions: string | null }>`${logged}
    select t.*, ${lastPositions(freightId)} as positions
    from (select ${freightId}::int as id) as f left join freight_tracking t on t.freight_id = f.id`.execute(db);
  const { positions, ...tracking } = rows[0]!;
  return { positions: positionsOf(positions), tracking: tracking.freight_id === null ? undefined : tracking };
}

/**
 * A party's read of a freight's tracking (GET /freights/positions) in one statement: the freight
 * as tracking reads it (whose caller's part roleIn tells), its tracking state and last positions
 * as readTracking reads them, and the read logged when `reader` is of the owner's company and not
 * the winner (the owner's read; logReadInsert). Undefined for an unknown id.
 */
export async function readTrackingOf(
  db: Db,
  freightId: number,
  reader: { who: Reader; now: Date },
): Promise<{ freight: TrackedFreight; view: TrackingView } | undefined> {
  const company = reader.who.companyId;
  const { rows } = await sql<Record<string, unknown> & { positions: string | null }>`
    with f as (select ${sql.raw(TRACKED_COLUMNS.join(', '))} from freights where id = ${freightId}::int),
    logged as (${logReadInsert(freightId, reader.who, reader.now)}
      and exists (select 1 from f where company_id = ${company}::int and winner_id is distinct from ${company}::int) returning 1)
    select f.*, ${TRACKING_SELECT}, ${lastPositions(freightId)} as positions
    from f left join freight_tracking t on t.freight_id = f.id`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    freight: trackedOf(row as unknown as Parameters<typeof trackedOf>[0]),
    view: { positions: positionsOf(row.positions), tracking: trackingOfRow(row) },
  };
}

/**
 * The last POSITIONS_SHOWN positions of a freight as one text value: the numbers of every position
 * newest first (the index on (freight_id, at, id) read backwards: no sort) joined by commas, which
 * positionsOf reads as one JSON array and turns around: no per-row JSON value and no sort in the
 * aggregate, one value for the driver to read instead of 500 rows. Times as milliseconds since
 * the epoch (truncated, as the driver reads a timestamp); a double or a real is written as
 * PostgreSQL writes it as text (the shortest form that reads back exactly), as JSON writes it, so
 * the numbers are the ones a row would give.
 */
function lastPositions(freightId: number) {
  return sql`(
    select string_agg(floor(extract(epoch from p.at) * 1000)::text || ',' || p.latitude || ',' || p.longitude || ','
                      || coalesce(p.speed::text, 'null') || case p.source when 'link' then ',1' else ',0' end, ',')
    from (select at, latitude, longitude, speed, source from freight_positions
          where freight_id = ${freightId}::int order by at desc, id desc limit ${POSITIONS_SHOWN}::int) as p)`;
}

/** The positions of lastPositions' text, oldest first. */
function positionsOf(text: string | null): PositionPoint[] {
  const numbers: Array<number | null> = text ? JSON.parse(`[${text}]`) : [];
  const positions: PositionPoint[] = new Array(numbers.length / TUPLE);
  for (let i = numbers.length - TUPLE, k = 0; i >= 0; i -= TUPLE, k++)
    positions[k] = {
      at: new Date(numbers[i]!),
      latitude: numbers[i + 1]!,
      longitude: numbers[i + 2]!,
      speed: numbers[i + 3] as number | null,
      source: numbers[i + 4] ? 'link' : 'api',
    };
  return positions;
}

/**
 * The read log's insert: a read of a freight's positions by a user of its owner's company (the
 * winner sees who and when); a row unless the user has one within READ_COALESCE_MS before `now`.
 */
function logReadInsert(freightId: number, reader: Reader, now: Date) {
  const since = new Date(now.getTime() - READ_COALESCE_MS);
  return sql`insert into freight_position_reads (freight_id, company_id, user_id, user_name, at)
    select ${freightId}::int, ${reader.companyId}::int, ${reader.userId}::int, ${reader.name}::text, ${now}::timestamptz
    where not exists (select 1 from freight_position_reads
      where freight_id = ${freightId}::int and user_id = ${reader.userId}::int and at > ${since}::timestamptz)`;
}

/** The owner's reads of a freight's positions, newest first (the winner's `data.reads`). */
export async function readsOf(db: Db, freightId: number) {
  return db
    .selectFrom('freight_position_reads')
    .select(['user_id', 'user_name', 'at'])
    .where('freight_id', '=', freightId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(READS_SHOWN)
    .execute();
}

const SWEEP_BATCH = 500;

export interface Swept {
  late: number;
  delivered: number;
  deleted: number;
}

/**
 * One sweep, safe on any number of processes at once (each step a conditional write, so each
 * thing is done once): lateness told for undelivered freights whose ETA, or the clock itself when
 * the truck has not arrived, passed the end of the delivery window; delivery noted (its time is
 * where retention counts from) and the freight's driver links ended; everything of freights
 * delivered more than KEPT_AFTER_DELIVERY_DAYS ago deleted; ended links deleted (links module).
 */
export async function sweepTracking(db: Kysely<DB>, clock: Clock): Promise<Swept> {
  const at = clock.at(clock.now());
  const now = at.now();
  const swept: Swept = { late: 0, delivered: 0, deleted: 0 };
  let after = 0;
  for (;;) {
    const open = await db
      .selectFrom('freight_tracking')
      .select(['freight_id', 'eta_at', 'km_left', 'late', 'arrived_delivery'])
      .where('delivered', 'is', null)
      .where('freight_id', '>', after)
      .orderBy('freight_id')
      .limit(SWEEP_BATCH)
      .execute();
    if (!open.length) break;
    after = open[open.length - 1]!.freight_id;
    const freights = new Map(
      (
        await trackedFreights(
          db,
          open.map((r) => r.freight_id),
        )
      ).map((f) => [f.id, f]),
    );
    for (const row of open) {
      const freight = freights.get(row.freight_id);
      if (!freight) continue;
      if (freight.delivered) {
        const noted = await db.transaction().execute(async (trx) => {
          const done = await trx
            .updateTable('freight_tracking')
            .set({ delivered: now })
            .where('freight_id', '=', freight.id)
            .where('delivered', 'is', null)
            .executeTakeFirst();
          if (!Number(done.numUpdatedRows)) return false;
          await revokeLinks(trx, freight.id, now, 'tracking');
          return true;
        });
        if (noted) swept.delivered++;
        continue;
      }
      if (!freight.underway || row.late || row.arrived_delivery || !row.eta_at || !freight.windowEnd) continue;
      const expected = new Date(Math.max(row.eta_at.getTime(), now.getTime()));
      if (expected <= freight.windowEnd) continue;
      const told = await db.transaction().execute(async (trx) => {
        const done = await trx
          .updateTable('freight_tracking')
          .set({ late: now })
          .where('freight_id', '=', freight.id)
          .where('late', 'is', null)
          .where('arrived_delivery', 'is', null)
          .executeTakeFirst();
        if (!Number(done.numUpdatedRows)) return false;
        await freightLate(trx, at, freight, { at: expected, kmLeft: row.km_left === null ? null : Number(row.km_left) });
        return true;
      });
      if (told) swept.late++;
    }
    if (open.length < SWEEP_BATCH) break;
  }
  swept.deleted = await deleteExpired(db, now);
  await deleteEndedLinks(db, now);
  return swept;
}

/** Deletes the positions, reads and tracking of freights delivered more than KEPT_AFTER_DELIVERY_DAYS ago; answers how many freights. */
async function deleteExpired(db: Kysely<DB>, now: Date): Promise<number> {
  const before = new Date(now.getTime() - KEPT_AFTER_DELIVERY_DAYS * 86_400_000);
  return db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('freight_tracking').where('delivered', '<', before).returning('freight_id').execute();
    const ids = gone.map((r) => r.freight_id);
    if (!ids.length) return 0;
    await trx.deleteFrom('freight_positions').where('freight_id', 'in', ids).execute();
    await trx.deleteFrom('freight_position_reads').where('freight_id', 'in', ids).execute();
    return ids.length;
  });
}

/**
 * Sweeps while the server listens (app.ts): every SWEEP_INTERVAL_MS, on every process (the sweep
 * is safe to run at once on several), stopped when the server closes.
 */
export class TrackingSweeper extends Sweeper {
  constructor(db: Kysely<DB>, clock: Clock, options: { intervalMs?: number; onError?: (err: unknown) => void } = {}) {
    super(() => sweepTracking(db, clock), options.intervalMs ?? SWEEP_INTERVAL_MS, options.onError);
  }
}

/** How often lateness, delivery and retention are swept. */
export const SWEEP_INTERVAL_MS = 60_000;
