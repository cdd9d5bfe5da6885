import { sql, type Kysely } from 'kysely';

/**
 * Vehicle offers (docs/reference.md#vehicles, src/vehicles): free capacity of a carrier, matched against
 * road freights both ways. The origin is stored resolved to a point (an airport's, a postal
 * code's centre, or the coordinates sent), so matching is distance arithmetic on columns.
 *
 * Indexes, and the statements they serve (src/vehicles/store.ts):
 * - vehicle_offers_market_point_idx: fitting offers of a freight (GET /freights/vehicles/{id}) and
 *   the alert when a freight is published: `status = 'open' and from_latitude between … and
 *   from_longitude between …` (a box of the largest radius, 500 km, around the freight's origin),
 *   then the exact great circle within each offer's own radius; it carries what the statement tests.
 * - The availability window is compared on its two columns (`available_to >= start and
 *   available_from < end`), tested on the rows the place indexes found: a window index (GiST over
 *   tstzrange) was measured and dropped, the planner chose it over the point index for open-ended
 *   windows and read nine tenths of the offers (bench/vehicles.ts).
 * - vehicle_offers_to_idx (GIN): `to_patterns && '{DE,DE-6,DE-60,…}'` (the patterns a freight's
 *   destination answers to), or `to_patterns = '{}'` (anywhere).
 * - vehicle_offers_company_idx: the caller's own offers (GET /vehicles/mine), newest first.
 * - vehicle_offers_market_created_idx: the offers list's default order (created desc) over open offers.
 * - vehicle_offers_from_place_idx: the offers list's `from=DE` / `from=DE-6` (`upper(from_country) =
 *   'DE'`, then the postal prefix), newest first; its expression also gives the planner statistics
 *   of the country, without which it guessed one row and read every offer (bench/vehicles.ts).
 *
 * Notifications gain the offer that matched (`vehicle_id`): one per user, freight, offer and type; the
 * saved searches' notifications (vehicle_id null) keep their rule of one per user and freight.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vehicle_offers')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('from_code', 'text')
    .addColumn('from_country', 'text')
    .addColumn('from_latitude', 'float8', (c) => c.notNull())
    .addColumn('from_longitude', 'float8', (c) => c.notNull())
    .addColumn('from_radius', 'integer', (c) => c.notNull())
    .addColumn('to_patterns', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('available_from', 'timestamptz', (c) => c.notNull())
    .addColumn('available_to', 'timestamptz', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('capacity', sql`numeric(12, 3)`, (c) => c.notNull())
    .addColumn('loading_meters', sql`numeric(5, 2)`)
    .addColumn('price_per_km', sql`numeric(10, 2)`)
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('whitelist', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'::integer[]`))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('modified', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('vehicle_offers_status_check', sql`status in ('open', 'withdrawn', 'expired')`)
    .addCheckConstraint('vehicle_offers_window_check', sql`available_to > available_from`)
    .execute();
  await sql`create index vehicle_offers_company_idx on vehicle_offers (company_id, id desc)`.execute(db);
  await sql`create index vehicle_offers_market_point_idx on vehicle_offers (from_latitude, from_longitude) include (id, company_id, from_radius, available_from, available_to, capacity, whitelist) where status = 'open'`.execute(
    db,
  );
  await sql`create index vehicle_offers_market_created_idx on vehicle_offers (created desc, id desc) where status = 'open'`.execute(db);
  await sql`create index vehicle_offers_from_place_idx on vehicle_offers (upper(from_country), created desc, id desc)`.execute(db);
  await sql`create index vehicle_offers_to_idx on vehicle_offers using gin (to_patterns) where status = 'open'`.execute(db);

  await sql`alter table notifications add column vehicle_id integer references vehicle_offers(id) on delete cascade`.execute(db);
  await sql`drop index notifications_user_freight_idx`.execute(db);
  await sql`create unique index notifications_user_freight_idx on notifications (user_id, freight_id) where vehicle_id is null`.execute(db);
  await sql`create unique index notifications_user_freight_vehicle_idx on notifications (user_id, freight_id, vehicle_id, type) where vehicle_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index notifications_user_freight_vehicle_idx`.execute(db);
  await sql`delete from notifications where vehicle_id is not null`.execute(db);
  await sql`drop index notifications_user_freight_idx`.execute(db);
  await sql`create unique index notifications_user_freight_idx on notifications (user_id, freight_id)`.execute(db);
  await sql`alter table notifications drop column vehicle_id`.execute(db);
  await db.schema.dropTable('vehicle_offers').execute();
}
