import { sql, type Kysely } from 'kysely';

/**
 * "In the market" as one column (freights/in-market.ts): `market_until`, kept by PostgreSQL, is
 * the deadline of a freight whose stored status is open or pending (`infinity` without one) and
 * null for every other status. In the market at `now` is then `market_until >= now`, past its
 * deadline `market_until < now`: one range over one column, whose statistics the planner reads
 * as they are. Written as two conditions (`status in ('open', 'pending')` and `deadline >=
 * now`), the planner multiplied two selectivities of the same rows (6 % of the freights are in
 * the market, and 7 % of all deadlines lie ahead: it expected 0.4 %, 4,500 of 1,000,000 where
 * 62,000 were) and read the market by the wrong index: 120-210 ms per search at a million
 * freights. The market's partial indexes are rebuilt on `market_until is not null` (which every
 * `market_until >= now` implies) and carry it instead of the deadline, one more holds the market
 * by `market_until` (in the market and due as ranges of it), and one by place (country and
 * postal key, covering what the market list tests and sorts by): a country or postal search of
 * the market reads it alone, the radius search's postal way reads its ranges from it
 * (freights/search.ts marketPostalRows). Adding the column rewrites the table once (about 20 s per million freights).
 */
const COVERED = 'id, created, company_id, market_until, visibility, whitelist';
const key = (side: string) => `(upper(regexp_replace(${side}_code, '[^0-9A-Za-z]', '', 'g')) collate "C")`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table freights add column market_until timestamptz generated always as
    (case when status in ('open', 'pending') then coalesce(deadline, 'infinity'::timestamptz) end) stored`.execute(db);
  const rebuild = async (name: string, definition: string) => {
    await sql.raw(`drop index if exists ${name}`).execute(db);
    await sql.raw(`create index ${name} on freights ${definition}`).execute(db);
  };
  await rebuild('freights_market_idx', '(status, created desc, id desc) where market_until is not null');
  await rebuild('freights_market_created_idx', '(created desc, id desc) where market_until is not null');
  await rebuild('freights_company_market_idx', '(company_id, created desc, id desc) where market_until is not null');
  // The market by its deadline: in order for the lists sorted by it, as a range for in the market and due.
  await rebuild(
    'freights_market_deadline_idx',
    '(deadline, id) include (company_id, visibility, whitelist, market_until) where market_until is not null',
  );
  await rebuild(
    'freights_market_until_idx',
    '(market_until, id) include (company_id, visibility, whitelist) where market_until is not null',
  );
  for (const side of ['from', 'to'] as const) {
    await rebuild(
      `freights_market_${side}_point_idx`,
      `using gist (point(${side}_longitude, ${side}_latitude)) include (${COVERED}) where market_until is not null and ${side}_latitude is not null`,
    );
    await rebuild(
      `freights_market_${side}_airport_idx`,
      `(${key(side)}) include (${side}_code, ${COVERED}) where market_until is not null and ${side}_latitude is null`,
    );
    // The market by place (country, postal key), covering what the market list tests and sorts by:
    // a country or prefix search reads the index alone, the radius search's postal way its ranges.
    await rebuild(
      `freights_market_${side}_place_idx`,
      `(upper(${side}_country), ${key(side)}) include (id, created, weight, class, company_id, market_until, visibility, whitelist, ${side}_latitude) where market_until is not null`,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const MARKET = 'id, created, company_id, deadline, visibility, whitelist';
  const rebuild = async (name: string, definition: string) => {
    await sql.raw(`drop index if exists ${name}`).execute(db);
    await sql.raw(`create index ${name} on freights ${definition}`).execute(db);
  };
  for (const side of ['from', 'to'] as const) {
    await sql.raw(`drop index if exists freights_market_${side}_place_idx`).execute(db);
    await rebuild(
      `freights_market_${side}_point_idx`,
      `using gist (point(${side}_longitude, ${side}_latitude)) include (${MARKET}) where status in ('open', 'pending') and ${side}_latitude is not null`,
    );
    await rebuild(
      `freights_market_${side}_airport_idx`,
      `(${key(side)}) include (${side}_code, ${MARKET}) where status in ('open', 'pending') and ${side}_latitude is null`,
    );
  }
  await sql`drop index if exists freights_market_until_idx`.execute(db);
  await rebuild(
    'freights_market_deadline_idx',
    `(deadline, id) include (company_id, visibility, whitelist) where status in ('open', 'pending')`,
  );
  await rebuild('freights_company_market_idx', `(company_id, created desc, id desc) where status in ('open', 'pending')`);
  await rebuild('freights_market_created_idx', `(created desc, id desc) where status in ('open', 'pending')`);
  await rebuild('freights_market_idx', `(status, created desc, id desc) where status in ('open', 'pending')`);
  await sql`alter table freights drop column market_until`.execute(db);
}
