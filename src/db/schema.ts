import type { AccountTables } from '../accounts/tables.ts';
import type { FreightTables } from '../freights/tables.ts';
import type { PricingTables } from '../pricing/tables.ts';

/**
 * The whole database as Kysely sees it: each module declares its own tables next to its code
 * and this interface joins them (one line per module).
 */
export interface DB extends AccountTables, FreightTables, PricingTables {}
