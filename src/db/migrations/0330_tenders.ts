import { sql, type Kysely } from 'kysely';

/**
 * Lane tenders and contracts (docs/reference.md#tenders, src/tenders): tenders, their lanes, the carriers'
 * sealed bids per lane (one per company and lane: a new bid replaces it), and the contracts, the
 * awarded lanes with both parties. The routing guide finds the contracts of a freight's lane by
 * the shipper and the two patterns' texts (contracts_guide_idx); the sweeper finds open tenders
 * past their deadline (tenders_open_idx).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table tenders (
      id serial primary key,
      company_id integer not null references companies(id),
      user_id integer,
      name text not null,
      currency text not null,
      valid_from text not null,
      valid_to text not null,
      deadline timestamptz not null,
      invited integer[] not null default '{}',
      status text not null check (status in ('draft', 'open', 'closed', 'awarded')),
      created timestamptz not null,
      modified timestamptz not null,
      published timestamptz
    )`.execute(db);
  await sql`create index tenders_company_idx on tenders (company_id, id)`.execute(db);
  await sql`create index tenders_open_idx on tenders (deadline) where status = 'open'`.execute(db);
  await sql`create index tenders_invited_idx on tenders using gin (invited)`.execute(db);
  await sql`
    create table tender_lanes (
      id serial primary key,
      tender_id integer not null references tenders(id) on delete cascade,
      position integer not null,
      from_pattern text not null,
      to_pattern text not null,
      loads integer not null check (loads >= 1),
      weight numeric(12, 3),
      body text,
      note text
    )`.execute(db);
  await sql`create unique index tender_lanes_position_idx on tender_lanes (tender_id, position)`.execute(db);
  await sql`
    create table tender_bids (
      tender_id integer not null references tenders(id) on delete cascade,
      lane_id integer not null references tender_lanes(id) on delete cascade,
      company_id integer not null references companies(id),
      user_id integer,
      price numeric(14, 2) not null check (price > 0),
      capacity integer not null check (capacity >= 1),
      created timestamptz not null,
      modified timestamptz not null,
      primary key (lane_id, company_id)
    )`.execute(db);
  await sql`create index tender_bids_company_idx on tender_bids (tender_id, company_id)`.execute(db);
  await sql`
    create table contracts (
      id serial primary key,
      tender_id integer not null references tenders(id),
      lane_id integer not null references tender_lanes(id),
      shipper_id integer not null references companies(id),
      carrier_id integer not null references companies(id),
      rank integer not null check (rank >= 1),
      price numeric(14, 2) not null,
      currency text not null,
      loads integer not null,
      from_pattern text not null,
      to_pattern text not null,
      valid_from text not null,
      valid_to text not null,
      created timestamptz not null
    )`.execute(db);
  await sql`create unique index contracts_lane_carrier_idx on contracts (lane_id, carrier_id)`.execute(db);
  await sql`create index contracts_guide_idx on contracts (shipper_id, from_pattern, to_pattern)`.execute(db);
  await sql`create index contracts_carrier_idx on contracts (carrier_id, id)`.execute(db);
  await sql`create index contracts_shipper_idx on contracts (shipper_id, id)`.execute(db);
}
