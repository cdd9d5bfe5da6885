import type { ColumnType, Generated } from 'kysely';

/**
 * Links without an account (docs/reference.md#tracking tracking link, §19 consignee's signing link): a
 * secret address that opens one page of one freight for one purpose and nothing else.
 * This file imports nothing of the module's behaviour, so db/schema.ts can join it.
 */

/** What a link opens: the driver's tracking page (§18) or the consignee's signing page (§19). */
export type LinkPurpose = 'tracking' | 'cmr';

export interface FreightLinksTable {
  id: Generated<number>;
  freight_id: number;
  purpose: LinkPurpose;
  /** SHA-256 (hex) of the token: the token itself is shown once, in the answer that issued it */
  token_hash: string;
  /** the company and user that issued it (the freight's winner) */
  company_id: number;
  user_id: number | null;
  created: Date;
  /** the link stops opening at this time even if nothing ended it */
  expires: Date;
  /** set when the link was revoked or its purpose ended (the freight delivered); null while it opens */
  ended: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface LinkTables {
  freight_links: FreightLinksTable;
}
