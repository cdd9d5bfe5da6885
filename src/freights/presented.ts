import { createHash } from 'node:crypto';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { type CompanyRef, companyRefFromJson, companyRefJsonSql } from '../accounts/index.ts';
import { PreparedStatement, statementBuilder } from '../db/prepared.ts';
import { autovacuumRuns, plannedRows } from '../db/statistics.ts';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import { translator, type Language } from '../kernel/i18n.ts';
import type { Clock } from '../kernel/time.ts';
import { presentBid } from './bids.ts';
import { BIDS_SHOWN_STATUSES, presentFreight, type PieceRow } from './fields.ts';
import { effectiveStatusSql, MARKET_STATUSES } from './in-market.ts';
import { roleOf, type Role } from './policy.ts';
import { BID_JSON_PAIRS, bidFromJson, type BidJson, type CallerFreight, fromViewJson, loadFreightForCaller, viewJsonSql } from './store.ts';
import type { FreightPresentationsTable, FreightRow, FreightStatus } from './tables.ts';
import { presentWaterfall, waterfallJsonSql, type WaterfallJson } from './waterfall-view.ts';

/**
 * The freight's JSON view from its stored presentation (issue 49; docs/choices.md, "The view
 * written once per version"). A freight is presented the same way to every company of an
 * audience: its fields with the piece lines (the owner's unmasked, the market's without
 * addresses and refs) and the display fields in each language. Those are written to
 * freight_presentations once per version of the freight, and a view sends them as they are,
 * with what differs per caller added around them: the bids the caller may see, the company's
 * name and mark (a rename shows at once), the waterfall as the caller's part in it shows it.
 *
 * A stored presentation is used only while the freight row is the version it was written from
 * (`source`: the row's `xmin`), its effective status is the one written (`status`: a deadline
 * passes without a write) and this process presents freights as the writer did (`source`'s
 * format key: a new release or another APP_TIMEZONE writes anew). Otherwise, and for the winner and former bidders, the view is read the
 * long way (store.ts), and a missing or stale presentation is written again after the answer
 * (`FreightPresentations`). So no writer has to remember this table: a freight written anywhere
 * is presented afresh, never stale.
 *
 * The answer's bytes are those of presentRead's (tests/freights/presented: every freight of a
 * seeded exchange, every caller, both languages).
 */

/** The audiences stored: the owner, and every company the market admits (roles `winner`, `bidder` are read the long way). */
type StoredAudience = Extract<Role, 'owner' | 'market'>;
const STORED: readonly StoredAudience[] = ['owner', 'market'];

type ViewArgs = [now: Date, companyId: number, id: number, language: Language, format: string];
let prepared: PreparedStatement<ViewArgs> | undefined;

/**
 * The view's statement from the stored presentation: a row only while the presentation is of the
 * row's version (`xmin`) and its effective status at `now`; with the facts roleOf decides on, the
 * company's reference, the stored texts of the caller's audience and language, the bids the caller
 * may see (the owner all of them, by bids_freight_idx; anyone else its own, by bids_company_idx)
 * and the waterfall where the freight has one. Primary-key reads and one index probe.
 */
function storedViewStatement(): PreparedStatement<ViewArgs> {
  prepared ??= new PreparedStatement<ViewArgs>(
    'fx_freight_view_stored',
    5,
    (now: Date, companyId: number, id: number, language: Language, format: string) => {
      const owner = sql`freights.company_id = ${companyId}`;
      const texts = presentationSql(sql`freights.xmin::text`, companyId, language, format, now);
      const bids = (where: RawBuilder<unknown>) =>
        sql`(select json_agg(json_build_object(${BID_JSON_PAIRS}) order by b.created, b.id)::text from bids as b where ${where})`;
      return statementBuilder<DB>()
        .selectFrom('freights')
        .innerJoin('freight_presentations as p', (join) => join.onRef('p.freight_id', '=', 'freights.id').on(texts.source).on(texts.status))
        .select([
          'freights.company_id',
          'freights.winner_id',
          'freights.visibility',
          'freights.whitelist',
          'p.status',
          sql<string>`${companyRefJsonSql(sql`freights.company_id`)}`.as('company'),
          texts.fields.as('fields'),
          texts.display.as('display'),
          sql<string | null>`case when ${owner} then ${bids(sql`b.freight_id = freights.id`)}
          else ${bids(sql`b.company_id = ${companyId} and b.freight_id = freights.id`)} end`.as('bids'),
          sql<string | null>`case when p.waterfall then ${waterfallJsonSql}::text end`.as('waterfall'),
        ])
        .where('freights.id', '=', id);
    },
  );
  return prepared;
}

/**
 * The freight's JSON view for the caller: `{"route":…}` as text when its stored presentation
 * served, else the freight read as loadFreightForCaller reads it (for presentRead); null when the
 * freight is missing or the caller may not see it. One statement when the presentation serves;
 * otherwise a second reads the freight the long way, and the presentation is handed to
 * `presentations` to be written after the answer.
 */
export async function readViewAnswer(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  language: Language,
  id: number,
  presentations?: FreightPresentations,
): Promise<{ json: string } | { read: CallerFreight } | null> {
  const [row] = await storedViewStatement().execute<StoredRow>(db, clock.now(), caller.companyId, id, language, presentationFormat(clock));
  const longWay = async () => {
    const found = await loadFreightForCaller(db, clock, caller, id);
    return found ? { read: found } : null;
  };
  if (!row) {
    // Missing or stale: written again after the answer, once a caller who may see the freight asked
    // (a company's views of ids it may not see write nothing).
    const found = await longWay();
    if (found) presentations?.stale(id);
    return found;
  }
  const bids = row.bids === null ? [] : (JSON.parse(row.bids) as BidJson[]);
  const hadBid = bids.some((b) => b.company_id === caller.companyId && b.status !== 'revoked');
  const role = roleOf(row as unknown as FreightRow, caller.companyId, hadBid);
  if (!role) return null;
  // The winner and former bidders: read the long way (their presentation is not stored).
  if (!isStoredAudience(role)) return longWay();
  const shown = BIDS_SHOWN_STATUSES.includes(row.status) ? bids.map((b) => presentBid(bidFromJson(b), clock)) : undefined;
  const fall = row.waterfall === null ? null : (JSON.parse(row.waterfall) as WaterfallJson);
  const waterfall = presentWaterfall(fall, role, caller.companyId, clock) ?? undefined;
  return { json: `{"route":${storedText(row, { bids: shown, company: companyRefFromJson(row.company), waterfall })}}` };
}

/**
 * A freight's answer from its stored texts with what differs per caller put in: presentFreight's
 * key order (the fields and pieces, `_bids`, `_company`, `waterfall`, the display fields). A view
 * adds bids and the waterfall where shown; a list's row has neither.
 */
function storedText(
  stored: { fields: string; display: string },
  extras: { bids?: unknown[]; company: CompanyRef; waterfall?: unknown },
): string {
  return (
    stored.fields +
    (extras.bids ? `,"_bids":${JSON.stringify(extras.bids)}` : '') +
    `,"_company":${JSON.stringify(extras.company)}` +
    (extras.waterfall ? `,"waterfall":${JSON.stringify(extras.waterfall)}` : '') +
    `,${stored.display}}`
  );
}

/**
 * SQL for a list page's rows from their stored presentations (freights/lists/read.ts): the join
 * of the page's rows (`freights`, carrying their row's `xmin` as `row_version`) with the
 * presentation of their version and effective status at `now`, and the stored texts of the
 * caller's audience and language where one serves: for the owner, and for anyone else while the
 * freight is in the market and not won by the caller (the roles `owner` and `market` of roleOf,
 * whose `hadBid` a list's membership implies: `serves`). Where it does not, the list reads the row
 * the long way.
 */
export function storedListSql(company: number, language: Language, format: string, now: Date) {
  const serves = sql<SqlBool>`(p.freight_id is not null and (freights.company_id = ${company} or (freights.winner_id is distinct from ${company}
    and p.status in (${sql.join(MARKET_STATUSES.map((s) => sql.lit(s)))}))))`;
  return { ...presentationSql(sql`freights.row_version`, company, language, format, now), serves };
}

/**
 * SQL over `freights` joined to its presentation `p` (the view's statement and the lists' both):
 * the join's conditions that the presentation is fresh (written from the row's `version`, its
 * effective status at `now`, this `format`), and the texts of the caller's audience (the owner's
 * or the market's) in its language.
 */
function presentationSql(version: RawBuilder<unknown>, company: number, language: Language, format: string, now: Date) {
  const owner = sql`freights.company_id = ${company}`;
  const deu = sql`${language} = 'deu'`;
  return {
    source: sql<SqlBool>`p.source = ${version} || ${format}`,
    status: sql<SqlBool>`p.status = ${effectiveStatusSql(now)}`,
    fields: sql<string>`case when ${owner} then p.owner_fields else p.market_fields end`,
    display: sql<string>`case when ${owner} then case when ${deu} then p.owner_deu else p.owner_eng end
      else case when ${deu} then p.market_deu else p.market_eng end end`,
  };
}

/** A list's row from its stored texts (storedListSql), with its company's reference. */
export function storedListRow(stored: { fields: string; display: string }, company: CompanyRef): string {
  return storedText(stored, { company });
}

/** Whether a freight read the long way by this role has a stored presentation to write (the audiences stored). */
export const isStoredAudience = (role: Role): role is StoredAudience => role === 'owner' || role === 'market';

/** A row of the stored view's statement. */
interface StoredRow {
  company_id: number;
  winner_id: number | null;
  visibility: number;
  whitelist: number[] | null;
  status: FreightStatus;
  company: string;
  fields: string;
  display: string;
  bids: string | null;
  waterfall: string | null;
}

/**
 * What the stored texts were written by: the presentation of a sample freight (every field set),
 * hashed, after the row's `xmin` in `source`. A release that presents freights otherwise, other
 * words, or another APP_TIMEZONE gives another key, so no text written before is sent after it:
 * each freight is presented anew at its next view.
 */
const formats = new WeakMap<Clock, string>();
export function presentationFormat(clock: Clock): string {
  let format = formats.get(clock);
  if (format === undefined) {
    const sample = presentationOf(SAMPLE_FREIGHT, SAMPLE_PIECES, true, clock);
    format = `:${createHash('sha256').update(JSON.stringify(sample)).digest('hex').slice(0, 16)}`;
    formats.set(clock, format);
  }
  return format;
}

/** A freight with every field set, on the night a summer time starts (the zone's rules show in its times). */
const SAMPLE_AT = new Date('2026-03-29T00:30:00Z');
const SAMPLE_FREIGHT: FreightRow = {
  id: 1,
  class: 'road',
  type: 'FFR',
  status: 'open',
  category: 'ftl',
  from_code: '60311',
  from_country: 'DE',
  from_addr: 'Hauptstraße 1',
  from_latitude: '50.11',
  from_longitude: '8.68',
  to_code: 'FRA',
  to_country: 'DE',
  to_addr: 'Cargo City Süd',
  to_latitude: '50.03',
  to_longitude: '8.57',
  weight: '1200.5',
  weight_actual: '1100',
  weight_volume: '900',
  direction: 'export',
  etd: SAMPLE_AT,
  etd_end: SAMPLE_AT,
  eta: SAMPLE_AT,
  eta_end: SAMPLE_AT,
  deadline: SAMPLE_AT,
  dangerous: 'yes',
  dangerous_goods: 'UN1203',
  secured: 1,
  stackable: 1,
  dutiable: 1,
  awb: '020-12345675',
  price: '912.50',
  visibility: 0,
  whitelist: [2],
  company_id: 1,
  user_id: 1,
  winner_id: 2,
  transport_company_id: 2,
  delivery_status: 1,
  parent_id: 1,
  refs: { customer: 'C-1', order: 'O-1' },
  share: ['customer'],
  book_now: '912.50',
  book_now_currency: 'EUR',
  auto_award: '800',
  body: 'Text',
  loading_meters: '13.6',
  adr_class: '3',
  temperature_min: '2',
  temperature_max: '8',
  pallet_exchange: 1,
  created: SAMPLE_AT,
  modified: SAMPLE_AT,
};
const SAMPLE_PIECES: PieceRow[] = [
  {
    freight_id: 1,
    position: 0,
    pieces: 2,
    depth: '1.2',
    width: '0.8',
    height: '1.5',
    weight: '300',
    stackable: 1,
    weight_per_piece: 1,
    refs: { mark: 'A' },
  },
];

/** The stored texts of one freight (a row of freight_presentations without its key and source). */
type Presentation = Omit<FreightPresentationsTable, 'freight_id' | 'source' | 'status'> & { status: FreightStatus };

/**
 * A freight's presentation for each stored audience: presentFreight's answer without what a view
 * adds per caller, cut where presentRead adds it (after `_route_pieces`): the part before it
 * (fields and pieces, the same in every language) and the display fields after it, per language.
 */
function presentationOf(row: FreightRow, pieces: PieceRow[], waterfall: boolean, clock: Clock): Presentation {
  const parts = (role: StoredAudience, language: Language) => {
    const whole = presentFreight(row, role, { clock, t: translator(language) }, { pieces });
    const keys = Object.keys(whole);
    const cut = keys.indexOf('_route_pieces') + 1;
    const pick = (list: string[]) => Object.fromEntries(list.map((k) => [k, whole[k]]));
    // `{"id":…,"_route_pieces":[…]` and `"f_from":…,"editable":…`: the braces are the view's.
    return { fields: JSON.stringify(pick(keys.slice(0, cut))).slice(0, -1), display: JSON.stringify(pick(keys.slice(cut))).slice(1, -1) };
  };
  const [owner, market] = STORED.map((role) => ({ eng: parts(role, 'eng'), deu: parts(role, 'deu') }));
  return {
    status: row.status,
    waterfall,
    owner_fields: owner!.eng.fields,
    market_fields: market!.eng.fields,
    owner_eng: owner!.eng.display,
    owner_deu: owner!.deu.display,
    market_eng: market!.eng.display,
    market_deu: market!.deu.display,
  };
}

/**
 * Writes the presentations of these freights as they are now: each freight read with its row's
 * version in one statement (one snapshot), then all written in one. A freight deleted meanwhile
 * is left out. Answers how many were written.
 */
async function writePresentations(db: Kysely<DB>, clock: Clock, ids: readonly number[]): Promise<number> {
  if (!ids.length) return 0;
  const now = clock.now();
  // Company 0 owns nothing and bid on nothing: the view's JSON without bids, which are never stored.
  const read = await db
    .selectFrom('freights')
    .select([sql<string>`freights.xmin::text`.as('source'), viewJsonSql(now, 0).as('view')])
    .where(sql<boolean>`freights.id = any(${[...ids]}::int[])`)
    .execute();
  if (!read.length) return 0;
  const rows = read.map(({ source, view }) => {
    const found = fromViewJson(view);
    return {
      freight_id: found.row.id,
      source: source + presentationFormat(clock),
      ...presentationOf(found.row, found.pieces, found.waterfall !== null, clock),
    };
  });
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
  const written =
    await sql`insert into freight_presentations (freight_id, source, status, waterfall, owner_fields, market_fields, owner_eng, owner_deu, market_eng, market_deu)
    select u.* from unnest(${column('freight_id')}::int[], ${column('source')}::text[], ${column('status')}::text[], ${column('waterfall')}::bool[],
      ${column('owner_fields')}::text[], ${column('market_fields')}::text[], ${column('owner_eng')}::text[], ${column('owner_deu')}::text[],
      ${column('market_eng')}::text[], ${column('market_deu')}::text[])
      as u(freight_id, source, status, waterfall, owner_fields, market_fields, owner_eng, owner_deu, market_eng, market_deu)
    where exists (select 1 from freights where freights.id = u.freight_id)
    on conflict (freight_id) do update set source = excluded.source, status = excluded.status, waterfall = excluded.waterfall, owner_fields = excluded.owner_fields,
      market_fields = excluded.market_fields, owner_eng = excluded.owner_eng, owner_deu = excluded.owner_deu,
      market_eng = excluded.market_eng, market_deu = excluded.market_deu`.execute(db);
  return Number(written.numAffectedRows ?? 0);
}

/** How many freights wait to be presented again at most (beyond, a view's hint is dropped: the next view gives it again). */
const MAX_WAITING = 10_000;
/** The growth (rows written) after which the statistics are refreshed at least (FreightPresentations.refreshStatistics). */
const STATISTICS_STEP = 100;
/** Freights presented per statement pair (a batch holds no lock: it only reads, then upserts). */
const BATCH = 100;

/**
 * Writes again, after the answers, the presentations views found missing or stale: any process,
 * any number at once (each write is of the freight as it then is; a write that lost a race to a
 * newer one is stale at once and written again on the next view). In memory only the ids waiting:
 * a process that stops loses them, and the next view of each names it again.
 */
export class FreightPresentations {
  private readonly waiting = new Set<number>();
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Presentations written since the statistics were last refreshed, and the rows the planner counted then. */
  private written = 0;
  private planned: number | undefined;

  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; log?: { error(obj: object, msg: string): void } }) {}

  /** A view found the freight's presentation missing or stale. */
  stale(id: number): void {
    if (this.stopped || this.waiting.size >= MAX_WAITING) return;
    this.waiting.add(id);
    this.run();
  }

  private run(): void {
    if (this.running) return;
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .catch((err) => this.deps.log?.error({ err }, 'writing freight presentations failed'))
      .finally(() => {
        this.running = null;
        if (this.waiting.size && !this.stopped) this.run();
      });
  }

  private async drain(): Promise<void> {
    while (this.waiting.size && !this.stopped) {
      const ids = [...this.waiting].slice(0, BATCH);
      for (const id of ids) this.waiting.delete(id);
      this.written += await writePresentations(this.deps.db, this.deps.clock, ids);
      await this.refreshStatistics();
      // Other requests' turn between batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /**
   * The table's statistics once it has grown by what the planner last counted (at least
   * STATISTICS_STEP rows), where no autovacuum daemon keeps them (db/statistics.ts): the view's
   * prepared statement keeps the plan it made for the table's size then, and a plan made while it
   * was nearly empty scans it whole (bench:hot: 1 ms a view instead of 0.3). A few ANALYZEs in a
   * process's life, each doubling the size since the last.
   */
  private async refreshStatistics(): Promise<void> {
    const { db } = this.deps;
    this.planned ??= await plannedRows(db, 'freight_presentations');
    if (this.written < Math.max(this.planned, STATISTICS_STEP)) return;
    this.written = 0;
    if (await autovacuumRuns(db)) return;
    await sql`analyze freight_presentations`.execute(db);
    this.planned = await plannedRows(db, 'freight_presentations');
  }

  /** Resolves when nothing is being written (tests read the table after it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops taking hints and waits for the batch under way (closing the server, before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }
}
