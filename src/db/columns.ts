import type { ColumnType } from 'kysely';

/** numeric columns: read as exact decimal strings, written as strings or numbers. */
export type Decimal = ColumnType<string, string | number, string | number>;
