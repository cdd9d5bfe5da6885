import { sql, type Kysely } from 'kysely';

/**
 * The notifications of a vehicle offer by the offer (searches/store.ts freightsToldOfVehicle):
 * withdrawing an offer tells every freight owner that was told of a match with it (docs/reference.md#vehicles,
 * `vehicle.withdrawn`), read from the offer's notifications; without the index, a scan of
 * every notification.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index notifications_vehicle_idx on notifications (vehicle_id, freight_id) where vehicle_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists notifications_vehicle_idx`.execute(db);
}
