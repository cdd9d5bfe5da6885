/**
 * Lane tenders and contracts (docs/reference.md#tenders): a shipper tenders its lanes, carriers bid sealed
 * per lane, the shipper awards; the awarded lanes are contracts, and the routing guide (§16's
 * waterfall with `guide` = 1) offers a freight to the carriers of its lane's contracts, primary
 * first, each at its own price. Above freights (the guide reads the owner's freight), the market
 * (the load search's patterns), lanes (the market price beside the bids), trust (ratings) and
 * vehicles (the bodies). The module's public surface.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { loadFreightForCaller, type ReadContext } from '../freights/index.ts';
import type { Caller, Services } from '../kernel/context.ts';
import { Sweeper } from '../kernel/sweeper.ts';
import type { Clock } from '../kernel/time.ts';
import { guideOffers } from './guide.ts';
import { tendersForNotice } from './events.ts';
import { sweepTenders, visibleTenders } from './tenders.ts';

export { TENDER_ERRORS, TENDER_MESSAGES } from './messages.ts';
export { TENDER_EVENT_DOCS } from './schema.ts';
export { evaluationExport, tenderEndpoints } from './routes.tsx';
export { registerTenderExport, TENDER_EXPORT } from './export.ts';
export { guideOffers, pickupDay } from './guide.ts';
export { guideSection } from './guide-section.tsx';

/** The tenders' part of the menu. */
export const TENDERS_SECTION = { prefix: '/tenders', href: '/tenders/index', label: 'nav.tenders' } as const;

/** The routing guide of the caller's freight (passed to the waterfall by app.ts): null when it is not the caller's. */
export async function routingGuide(db: Kysely<DB>, clock: Clock, caller: Caller, freightId: number) {
  const found = await loadFreightForCaller(db, clock, caller, freightId);
  if (!found || found.row.company_id !== caller.companyId) return null;
  return { offers: await guideOffers(db, clock, found.row) };
}

/** The tenders that notifications of invitations name, as the reader may see them now (passed to searches by app.ts). */
export async function tenderNotices(rc: ReadContext, ids: readonly number[]): Promise<Map<number, unknown>> {
  const seen = await visibleTenders(rc.db, rc.clock, rc.caller.companyId, ids);
  return tendersForNotice(rc.db, rc.clock, seen);
}

/** How often a process closes tenders past their deadline (reads compute it anyway). */
export const TENDER_SWEEP_MS = 5_000;

/** Closes tenders at their deadline without a request, on every process (kernel/sweeper.ts): started on listen, stopped on close. */
export function attachTenderSweeper(http: FastifyInstance, services: Pick<Services, 'db' | 'clock'>, intervalMs = TENDER_SWEEP_MS) {
  const sweep = () => sweepTenders(services.db, services.clock);
  const sweeper = new Sweeper(sweep, intervalMs, (err) => http.log.error({ err }, 'tender sweep failed'));
  http.addHook('onListen', async () => sweeper.start());
  http.addHook('onClose', async () => sweeper.stop());
  return { sweep };
}
