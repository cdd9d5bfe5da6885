import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { companiesToPick } from '../accounts/index.ts';

/**
 * The companies a page offers to pick by name (the freight form's whitelist, a template's, a
 * milk run's dispatch, a tender's invitations, a vehicle offer's): one statement over freights
 * and bids that the pages of several modules read. The freight pages' own reads are the HTTP
 * face's (freights-http/pages/page-data.ts), over the read model.
 */

type Db = Kysely<DB>;

/**
 * Companies to pick by name: those the caller's company has dealt with (bidders on its
 * freights, owners of freights it bid on, companies named in its whitelists) first, then others
 * by name, at most `limit`.
 */
export async function partnerCompanies(db: Db, company: number, limit = 200): Promise<Array<{ id: number; name: string }>> {
  return companiesToPick(
    db,
    company,
    (c) => sql`(exists (select 1 from bids b join freights f on f.id = b.freight_id where f.company_id = ${company} and b.company_id = ${c})
       or exists (select 1 from bids b join freights f on f.id = b.freight_id where b.company_id = ${company} and f.company_id = ${c})
       or exists (select 1 from freights f where f.company_id = ${company} and ${c} = any(f.whitelist)))`,
    limit,
  );
}
