import type { Decimal } from '../db/columns.ts';
import type { ColumnType, Generated } from 'kysely';

/** A pushed file's state: importing (its events hidden until done), processed, ignored (no known action) or failed. */
export type FileStatus = 'importing' | 'processed' | 'ignored' | 'failed';

export interface FilesTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  name: string;
  action: string | null;
  /** base64 | plain */
  encoding: string;
  /** decoded bytes */
  size: number;
  sha256: string;
  /** the decoded content (bytea) of files stored before file_parts; null since (see FilePartsTable) */
  content: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  records: Generated<number>;
  status: FileStatus;
  message: string | null;
  /** action rates: the imported rate sheet */
  sheet_id: number | null;
  created: Date;
}

/** A file's decoded content in parts of PART_BYTES (src/files/store.ts), in order of `part`. */
export interface FilePartsTable {
  file_id: number;
  part: number;
  bytes: Uint8Array;
}

/** Status events as pushed (status CSV, FSU, XFSU): one row per event, with the pushing company and file. */
export interface AwbEventsTable {
  id: Generated<number>;
  awb: string;
  code: string;
  event_time: Date | null;
  location: string | null;
  flight_number: string | null;
  pieces: number | null;
  weight: Decimal | null;
  special_handling_codes: string | null;
  warehouse_location: string | null;
  company_id: number | null;
  file_id: number | null;
  created: Date;
}

export interface FileTables {
  files: FilesTable;
  file_parts: FilePartsTable;
  awb_events: AwbEventsTable;
}
