import type { ColumnType, Generated } from 'kysely';

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
  /** the decoded content (bytea) */
  content: ColumnType<Uint8Array, Uint8Array, Uint8Array>;
  records: Generated<number>;
  /** processed | ignored */
  status: string;
  message: string | null;
  /** action rates: the imported rate sheet */
  sheet_id: number | null;
  created: Date;
}

export interface FileTables {
  files: FilesTable;
}
