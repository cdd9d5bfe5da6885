import type { Migration } from 'kysely';
import * as accounts from './0001_accounts.ts';
import * as freights from './0002_freights.ts';
import * as pricing from './0030_pricing.ts';
import * as freightLists from './0010_freight_lists.ts';

/** Every migration, by name; names sort in the order they apply. One line per migration. */
export const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_freights': freights,
  '0030_pricing': pricing,
  '0010_freight_lists': freightLists,
};
