import type { AccountTables } from '../accounts/tables.ts';

/**
 * The whole database as Kysely sees it: each module declares its own tables next to its code
 * and this interface joins them.
 */
export interface DB extends AccountTables {}
