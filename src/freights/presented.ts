import { sql, type Kysely } from 'kysely';
import { companyRef } from '../accounts/index.ts';
import { PreparedStatement, statementBuilder } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import { translator, type Language } from '../kernel/i18n.ts';
import type { Clock } from '../kernel/time.ts';
import { presentBid } from './bids.ts';
import { BIDS_SHOWN_STATUSES, presentFreight, type PieceRow } from './fields.ts';
import { effectiveStatusSql, MARKET_STATUSES, storedInSql } from './in-market.ts';
import { roleOf, type Role } from './policy.ts';
import {
  bidFromJson,
  bidsJsonSql,
  type BidJson,
  companyNameSql,
  companyVerifiedSql,
  fromViewJson,
  loadFreightForCaller,
  viewJsonSql,
  type CallerFreight,
} from './store.ts';
import type { FreightRow, FreightStatus } from './tables.ts';
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
 * (`source`: the row's `xmin`) and its effective status is the one written (`status`: a deadline
 * passes without a write). Otherwise, and for the winner and former bidders, the same statement
 * answers the view the long way (store.ts viewJsonSql), and the presentation is written again
 * after the answer (`FreightPresentations`). So no writer has to remember this table: a freight
 * written anywhere is presented afresh, never stale.
 *
 * The answer's bytes are those of presentRead's (tests/freights/presented: every freight of a
 * seeded exchange, every caller, both languages).
 */

/** The audiences stored: the owner, and every company the market admits (roles `winner`, `bidder` are read the long way). */
type StoredAudience = Extract<Role, 'owner' | 'market'>;
const STORED: readonly StoredAudience[] = ['owner', 'market'];

/** What the view's statement answers besides the stored texts when they serve the caller. */
interface StoredMeta {
  company: number;
  winner: number | null;
  status: FreightStatus;
  visibility: number;
  whitelist: number[] | null;
  company_name: string;
  company_verified: boolean;
  bids: { had: boolean; list: BidJson[] };
  waterfall: WaterfallJson | null;
}

type ViewArgs = [now: Date, companyId: number, id: number, language: Language];
let prepared: PreparedStatement<ViewArgs> | undefined;

/**
 * The view's one statement: with a current presentation for the caller's audience, the stored
 * fields and display texts and a small JSON of the rest (`meta`); otherwise the whole view's JSON
 * (`view`, as readFreight's), and `fresh` false when the presentation is missing or stale.
 * CASE evaluates only its chosen branch, so each read pays for one of the two.
 */
function viewStatement(): PreparedStatement<ViewArgs> {
  prepared ??= new PreparedStatement<ViewArgs>(
    'fx_freight_view_stored',
    4,
    (now: Date, companyId: number, id: number, language: Language) => {
      const fresh = sql`(p.source = freights.xmin::text and p.status = ${effectiveStatusSql(now)})`;
      const owner = sql`freights.company_id = ${companyId}`;
      // The stored audiences only: the owner, or a market status and not the winner (roleOf decides the rest).
      const usable = sql`(${fresh} and (${owner} or (${storedInSql(MARKET_STATUSES, 'p')} and freights.winner_id is distinct from ${companyId})))`;
      const deu = sql`${language} = 'deu'`;
      return statementBuilder<DB>()
        .selectFrom('freights')
        .leftJoin('freight_presentations as p', 'p.freight_id', 'freights.id')
        .select([
          sql<boolean>`coalesce(${fresh}, false)`.as('fresh'),
          sql<string | null>`case when ${usable} then json_build_object('company', freights.company_id, 'winner', freights.winner_id,
          'status', p.status, 'visibility', freights.visibility, 'whitelist', freights.whitelist, 'company_name', ${companyNameSql},
          'company_verified', ${companyVerifiedSql}, 'bids', ${bidsJsonSql(companyId)}, 'waterfall', ${waterfallJsonSql})::text end`.as(
            'meta',
          ),
          sql<string | null>`case when ${usable} then case when ${owner} then p.owner_fields else p.market_fields end end`.as('fields'),
          sql<string | null>`case when ${usable} then case when ${owner} then case when ${deu} then p.owner_deu else p.owner_eng end
          else case when ${deu} then p.market_deu else p.market_eng end end end`.as('display'),
          sql<string | null>`case when ${usable} then null else ${viewJsonSql(now, companyId)} end`.as('view'),
        ])
        .where('freights.id', '=', id);
    },
  );
  return prepared;
}

interface ViewRow {
  fresh: boolean;
  meta: string | null;
  fields: string | null;
  display: string | null;
  view: string | null;
}

/**
 * The freight's JSON view for the caller: `{"route":…}` as text when its stored presentation
 * served, else the freight read as loadFreightForCaller reads it (for presentRead); null when the
 * freight is missing or the caller may not see it. One statement; a missing or stale
 * presentation is handed to `presentations` to be written after the answer.
 */
export async function readViewAnswer(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  language: Language,
  id: number,
  presentations?: FreightPresentations,
): Promise<{ json: string } | { read: CallerFreight } | null> {
  const [row] = await viewStatement().execute<ViewRow>(db, clock.now(), caller.companyId, id, language);
  if (!row) return null;
  if (!row.fresh) presentations?.stale(id);
  if (row.meta === null || row.fields === null || row.display === null) {
    const found = fromViewJson(row.view!);
    const role = roleOf(found.row, caller.companyId, found.hadBid);
    return role ? { read: { ...found, role, waterfallView: presentWaterfall(found.waterfall, role, caller.companyId, clock) } } : null;
  }
  const meta = JSON.parse(row.meta) as StoredMeta;
  const facts = {
    company_id: meta.company,
    winner_id: meta.winner,
    status: meta.status,
    visibility: meta.visibility,
    whitelist: meta.whitelist,
  };
  const role = roleOf(facts as FreightRow, caller.companyId, meta.bids.had);
  if (!role) return null;
  // The statement served only the stored audiences; another role here would be a rule changed in one place only.
  if (role !== 'owner' && role !== 'market') {
    const found = await loadFreightForCaller(db, clock, caller, id);
    return found ? { read: found } : null;
  }
  const bids = BIDS_SHOWN_STATUSES.includes(meta.status) ? meta.bids.list.map((b) => presentBid(bidFromJson(b), clock)) : undefined;
  const waterfall = presentWaterfall(meta.waterfall, role, caller.companyId, clock) ?? undefined;
  // presentRead's key order: the fields and pieces, `_bids`, `_company`, `waterfall`, the display fields.
  const json =
    `{"route":${row.fields}` +
    (bids ? `,"_bids":${JSON.stringify(bids)}` : '') +
    `,"_company":${JSON.stringify(companyRef(meta.company, meta.company_name, meta.company_verified))}` +
    (waterfall ? `,"waterfall":${JSON.stringify(waterfall)}` : '') +
    `,${row.display}}}`;
  return { json };
}

/** The stored texts of one freight (a row of freight_presentations without its key and source). */
interface Presentation {
  status: FreightStatus;
  owner_fields: string;
  market_fields: string;
  owner_eng: string;
  owner_deu: string;
  market_eng: string;
  market_deu: string;
}

/**
 * A freight's presentation for each stored audience: presentFreight's answer without what a view
 * adds per caller, cut where presentRead adds it (after `_route_pieces`): the part before it
 * (fields and pieces, the same in every language) and the display fields after it, per language.
 */
export function presentationOf(row: FreightRow, pieces: PieceRow[], clock: Clock): Presentation {
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
export async function writePresentations(db: Kysely<DB>, clock: Clock, ids: readonly number[]): Promise<number> {
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
    return { freight_id: found.row.id, source, ...presentationOf(found.row, found.pieces, clock) };
  });
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
  const written =
    await sql`insert into freight_presentations (freight_id, source, status, owner_fields, market_fields, owner_eng, owner_deu, market_eng, market_deu)
    select u.* from unnest(${column('freight_id')}::int[], ${column('source')}::text[], ${column('status')}::text[],
      ${column('owner_fields')}::text[], ${column('market_fields')}::text[], ${column('owner_eng')}::text[], ${column('owner_deu')}::text[],
      ${column('market_eng')}::text[], ${column('market_deu')}::text[])
      as u(freight_id, source, status, owner_fields, market_fields, owner_eng, owner_deu, market_eng, market_deu)
    where exists (select 1 from freights where freights.id = u.freight_id)
    on conflict (freight_id) do update set source = excluded.source, status = excluded.status, owner_fields = excluded.owner_fields,
      market_fields = excluded.market_fields, owner_eng = excluded.owner_eng, owner_deu = excluded.owner_deu,
      market_eng = excluded.market_eng, market_deu = excluded.market_deu`.execute(db);
  return Number(written.numAffectedRows ?? 0);
}

/** How many freights wait to be presented again at most (beyond, a view's hint is dropped: the next view gives it again). */
const MAX_WAITING = 10_000;
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
      await writePresentations(this.deps.db, this.deps.clock, ids);
      // Other requests' turn between batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
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
