import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB } from '../db/schema.ts';
import { emitShipmentStatus } from '../events/emit.ts';
import type { StatusEvent } from '../milkrun/store.ts';
import type { FilesTable } from './tables.ts';

export type FileRow = Selectable<FilesTable>;
export type NewFile = Insertable<FilesTable>;

const EVENT_BATCH = 1000;

export function insertFile(db: Kysely<DB>, file: NewFile): Promise<FileRow> {
  return db.insertInto('files').values(file).returningAll().executeTakeFirstOrThrow();
}

/** Status events of a file, for tracking (GET /freights/track reads awb_events) and audit. */
export async function insertAwbEvents(db: Kysely<DB>, companyId: number, fileId: number, events: readonly StatusEvent[], now: Date): Promise<void> {
  for (let i = 0; i < events.length; i += EVENT_BATCH) {
    await db
      .insertInto('awb_events')
      .values(
        events.slice(i, i + EVENT_BATCH).map((e) => ({
          awb: e.awb,
          code: e.code,
          event_time: e.time,
          location: e.location,
          flight_number: e.flight_number,
          pieces: e.pieces,
          weight: e.weight,
          special_handling_codes: e.special_handling_codes,
          warehouse_location: e.warehouse_location,
          company_id: companyId,
          file_id: fileId,
          created: now,
        })),
      )
      .execute();
  }
  await emitShipmentStatus(db, now, companyId, events);
}
