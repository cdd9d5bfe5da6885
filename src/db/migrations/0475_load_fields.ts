import { sql, type Kysely } from 'kysely';

/**
 * Loads described the way trucks are (issue 47, item 3; docs/choices.md, "Loads described as
 * trucks are"): a freight's body, loading metres, ADR class, temperature range (reefer loads) and
 * pallet exchange, all optional; a vehicle offer's ADR capability (0 by default: an offer that
 * says nothing carries no dangerous goods). Every existing row reads as before: null, and 0.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table freights
    add column body text,
    add column loading_meters numeric(4, 2),
    add column adr_class text,
    add column temperature_min numeric(4, 1),
    add column temperature_max numeric(4, 1),
    add column pallet_exchange smallint`.execute(db);
  await sql`alter table vehicle_offers add column adr smallint not null default 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table vehicle_offers drop column adr`.execute(db);
  await sql`alter table freights
    drop column body, drop column loading_meters, drop column adr_class,
    drop column temperature_min, drop column temperature_max, drop column pallet_exchange`.execute(db);
}
