import { sql, type ExpressionBuilder, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import { expireDueFreights, type FreightRow } from '../freights/lifecycle.ts';
import { admitsSql, hadBidSql, roleOf, type Role } from '../freights/policy.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { offsetOf, type Paging } from './paging.ts';
import { presentShipment, type Shipment } from './present.ts';

type EB = ExpressionBuilder<DB, 'freights'>;

const MARKET = ['open', 'pending'];
const FINISHED = ['archived', 'closed', 'revoked', 'expired'];

/**
 * Membership of the freight lists (decisions.md §4, "Enlist filters"), as the shipments list
 * needs it. Every row still passes through the freights module's roleOf, so a membership
 * rule can never make an invisible freight visible. Null: not a freight list.
 */
function freightFilter(eb: EB, c: number, filterId: number): Expression<SqlBool> | null {
  const own = eb('freights.company_id', '=', c);
  const foreign = eb('freights.company_id', '<>', c);
  const status = (list: string[]) => eb('freights.status', 'in', list);
  const hadBid = hadBidSql(eb, c);
  const anyBid = eb.exists(eb.selectFrom('bids').select(sql`1`.as('one')).whereRef('bids.freight_id', '=', 'freights.id').where('bids.status', '<>', 'revoked'));
  const ffr = eb('freights.type', '=', 'FFR');
  const notFfr = eb('freights.type', '<>', 'FFR');
  const addressed = eb.or([eb('freights.winner_id', '=', c), sql<SqlBool>`${c} = any(freights.whitelist)`]);
  switch (filterId) {
    case 8: return eb.and([foreign, status(MARKET), admitsSql(eb, c), eb.not(hadBid)]);
    case 7: return eb.and([foreign, status(MARKET), hadBid]);
    case 6: return eb.and([foreign, status(['taken', 'closed', 'archived']), eb('freights.winner_id', 'is not', null), eb('freights.winner_id', '<>', c), hadBid]);
    case 2: return eb.and([eb('freights.winner_id', '=', c), status(['taken'])]);
    case 9: return eb.and([foreign, status(FINISHED), eb.or([hadBid, eb('freights.winner_id', '=', c)])]);
    case 20: return eb.and([own, notFfr, status(['draft'])]);
    case 10: return eb.and([own, notFfr, status(MARKET)]);
    case 17: return eb.and([own, notFfr, status(MARKET), anyBid]);
    case 18: return eb.and([own, notFfr, status(MARKET), eb.not(anyBid)]);
    case 12: return eb.and([own, notFfr, status(['taken'])]);
    case 19: return eb.and([own, notFfr, status(FINISHED)]);
    case 200: return eb.and([own, ffr, status(['draft', ...MARKET])]);
    case 201: return eb.and([own, ffr, status(['taken'])]);
    case 209: return eb.and([own, ffr, status(FINISHED)]);
    case 210: return eb.and([foreign, ffr, addressed, status(['draft', ...MARKET])]);
    case 211: return eb.and([foreign, ffr, addressed, status(['taken'])]);
    case 219: return eb.and([foreign, ffr, addressed, status(FINISHED)]);
    default: return null;
  }
}

export const isFreightFilter = (filterId: number) => filterId === 2 || [6, 7, 8, 9, 10, 12, 17, 18, 19, 20, 200, 201, 209, 210, 211, 219].includes(filterId);

/** A page of a freight list as Shipments, or null for an id that is no freight list. */
export async function freightListShipments(db: Kysely<DB>, clock: Clock, caller: Caller, filterId: number, paging: Paging): Promise<Shipment[] | null> {
  if (!isFreightFilter(filterId)) return null;
  await expireDueFreights(db, clock.now());
  const c = caller.companyId;
  const rows = await db
    .selectFrom('freights')
    .selectAll('freights')
    .select((eb) => hadBidSql(eb, c).as('had_bid'))
    .where((eb) => freightFilter(eb, c, filterId)!)
    .orderBy(`freights.${paging.sort}`, paging.direction)
    .orderBy('freights.id', paging.direction)
    .limit(paging.limit)
    .offset(offsetOf(paging))
    .execute();
  return withRoles(rows, c).map(({ row, role }) => presentShipment(row, role));
}

function withRoles(rows: Array<FreightRow & { had_bid: unknown }>, companyId: number): Array<{ row: FreightRow; role: Role }> {
  const out: Array<{ row: FreightRow; role: Role }> = [];
  for (const { had_bid, ...row } of rows) {
    const role = roleOf(row as FreightRow, companyId, Boolean(had_bid));
    if (role) out.push({ row: row as FreightRow, role });
  }
  return out;
}

/**
 * The Shipments among `ids` the caller may see now (decisions.md §4), by id. Freights that are
 * missing or not visible are absent from the map. One query whatever the number of ids.
 */
export async function visibleShipments(db: Kysely<DB>, clock: Clock, caller: Caller, ids: readonly number[]): Promise<Map<number, Shipment>> {
  const out = new Map<number, Shipment>();
  if (ids.length === 0) return out;
  await expireDueFreights(db, clock.now());
  const rows = await db
    .selectFrom('freights')
    .selectAll('freights')
    .select((eb) => hadBidSql(eb, caller.companyId).as('had_bid'))
    .where('freights.id', 'in', [...new Set(ids)])
    .execute();
  for (const { row, role } of withRoles(rows, caller.companyId)) out.set(row.id, presentShipment(row, role));
  return out;
}
