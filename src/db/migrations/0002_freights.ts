import { sql, type Kysely } from 'kysely';

/** Freights (API: `route`), their piece lines, bids, templates, flights and AWB status events. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('freights')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('class', 'text', (c) => c.notNull().defaultTo('rfs'))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('AHR'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('category', 'text')
    // API `from` / `to`: the bare postal code or IATA code (prefix removed).
    .addColumn('from_code', 'text')
    .addColumn('from_country', 'text')
    .addColumn('from_addr', 'text')
    .addColumn('from_latitude', 'numeric(9, 6)')
    .addColumn('from_longitude', 'numeric(9, 6)')
    .addColumn('to_code', 'text')
    .addColumn('to_country', 'text')
    .addColumn('to_addr', 'text')
    .addColumn('to_latitude', 'numeric(9, 6)')
    .addColumn('to_longitude', 'numeric(9, 6)')
    // Weights in kg, exact to the gram.
    .addColumn('weight', 'numeric(14, 3)')
    .addColumn('weight_actual', 'numeric(14, 3)')
    .addColumn('weight_volume', 'numeric(14, 3)')
    .addColumn('direction', 'text')
    .addColumn('etd', 'timestamptz')
    .addColumn('etd_end', 'timestamptz')
    .addColumn('eta', 'timestamptz')
    .addColumn('eta_end', 'timestamptz')
    .addColumn('deadline', 'timestamptz')
    .addColumn('dangerous', 'text')
    .addColumn('dangerous_goods', 'text')
    .addColumn('secured', 'smallint')
    .addColumn('stackable', 'smallint')
    .addColumn('dutiable', 'smallint')
    .addColumn('awb', 'text')
    // Money exact to the cent.
    .addColumn('price', 'numeric(14, 2)')
    .addColumn('visibility', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('whitelist', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'::integer[]`))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('winner_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('transport_company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('delivery_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parent_id', 'integer')
    // `json`, not `jsonb`: refs are returned exactly as sent (key order, duplicates, spacing of numbers).
    .addColumn('refs', 'json', (c) => c.notNull().defaultTo(sql`'{}'::json`))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('modified', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index freights_company_status_idx on freights (company_id, status, created desc, id desc)`.execute(db);
  await sql`create index freights_market_idx on freights (status, created desc, id desc) where status in ('open', 'pending')`.execute(db);
  await sql`create index freights_winner_idx on freights (winner_id, status) where winner_id is not null`.execute(db);
  await sql`create index freights_deadline_idx on freights (deadline) where status in ('open', 'pending')`.execute(db);
  await sql`create index freights_whitelist_idx on freights using gin (whitelist)`.execute(db);

  await db.schema
    .createTable('freight_pieces')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('pieces', 'integer')
    .addColumn('depth', 'numeric(10, 2)')
    .addColumn('width', 'numeric(10, 2)')
    .addColumn('height', 'numeric(10, 2)')
    .addColumn('weight', 'numeric(14, 3)')
    .addColumn('stackable', 'smallint')
    .addColumn('weight_per_piece', 'smallint')
    .addColumn('refs', 'json')
    .execute();
  await db.schema.createIndex('freight_pieces_freight_idx').on('freight_pieces').columns(['freight_id', 'position']).execute();

  await db.schema
    .createTable('bids')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('display_company_id', 'integer')
    .addColumn('amount', 'numeric(14, 2)')
    .addColumn('currency_code', 'text')
    .addColumn('rate_base', 'numeric(14, 2)')
    .addColumn('rate_fsc', 'numeric(14, 2)')
    .addColumn('rate_ssc', 'numeric(14, 2)')
    .addColumn('note', 'text')
    // open | pending | accepted | revoked (docs/reference.md#freights)
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    // buying | selling
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('buying'))
    // The two sides of the confirmation: the freight's owner and the bidder's company.
    .addColumn('owner_confirmed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('bidder_confirmed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deadline', 'timestamptz')
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('modified', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bids_freight_idx').on('bids').columns(['freight_id', 'status']).execute();
  await db.schema.createIndex('bids_company_idx').on('bids').columns(['company_id', 'freight_id']).execute();
  // At most one accepted bid per freight, whatever the timing (docs/reference.md#freights).
  await sql`create unique index bids_one_accepted_idx on bids (freight_id) where status = 'accepted'`.execute(db);

  await db.schema
    .createTable('templates')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    // The freight fields as sent, replayed through the freight field table on use.
    .addColumn('fields', 'json', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('templates_company_idx').on('templates').column('company_id').execute();

  await db.schema
    .createTable('flights')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('from_code', 'text', (c) => c.notNull())
    .addColumn('to_code', 'text', (c) => c.notNull())
    .addColumn('etd', 'timestamptz')
    .addColumn('eta', 'timestamptz')
    .addColumn('flight_number', 'text')
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();

  // Air cargo status events (file push action `status`), feeding tracking and milk-run.
  await db.schema
    .createTable('awb_events')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('awb', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('event_time', 'timestamptz')
    .addColumn('location', 'text')
    .addColumn('flight_number', 'text')
    .addColumn('pieces', 'integer')
    .addColumn('weight', 'numeric(14, 3)')
    .addColumn('special_handling_codes', 'text')
    .addColumn('warehouse_location', 'text')
    .addColumn('company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('file_id', 'integer')
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('awb_events_awb_idx').on('awb_events').columns(['awb', 'event_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['awb_events', 'flights', 'templates', 'bids', 'freight_pieces', 'freights']) await db.schema.dropTable(t).execute();
}
