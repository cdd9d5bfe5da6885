import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, Services } from '../kernel/context.ts';
import { readString } from '../kernel/params.ts';
import { readPaging } from '../kernel/paging.ts';
import {
  Iris,
  MAX_PIECES,
  presentError,
  presentEvent,
  presentEvents,
  presentNoEvents,
  presentPiece,
  presentShipment,
  presentShipmentList,
  presentWaybill,
} from './present.ts';
import { shipmentOfParty, shipmentsOfParty } from '../milkrun/store.ts';
import { shipmentEvents, shipmentTotals } from '../files/status-events.ts';

const LD = 'application/ld+json';
const OBJECT = /^(shipment|waybill)-(\d{1,9})$|^piece-(\d{1,9})-(\d{1,4})$/;

/**
 * IATA ONE Record, read-only (docs/decisions.md, ONE Record): a company's air shipments as
 * logistics objects in JSON-LD. Authenticated by the API token (`Authorization: TokenPass …`,
 * or `Bearer …` as ONE Record clients send it); an object the company may not see is 404, as a
 * missing one. Served outside the `.json` envelope: ONE Record has its own media type and errors.
 */
export function registerOneRecordRoutes(app: FastifyInstance, services: Services): void {
  const get = (path: string, handle: (ctx: LdContext) => Promise<unknown>) =>
    app.get(path, async (req, reply) => {
      const caller = await callerOf(services, req);
      if (!caller) {
        reply.header('www-authenticate', 'TokenPass, Bearer');
        return send(reply, 401, presentError(401, 'Not authenticated', 'missing or invalid API token'));
      }
      const ctx: LdContext = {
        services,
        caller,
        iris: new Iris(`${req.protocol}://${req.host}`),
        params: req.params as Record<string, string>,
        query: (req.query ?? {}) as Record<string, unknown>,
        url: req.url,
      };
      const body = await handle(ctx);
      if (body === null)
        return send(
          reply,
          404,
          presentError(
            404,
            'Logistics Object not found',
            "no such object, or not one of your company's",
            `${ctx.iris.base}${req.url.split('?')[0]}`,
          ),
        );
      return send(reply, 200, body);
    });

  get('/onerecord/shipments', async (ctx) => {
    const paging = readPaging(ctx.query);
    const rows = await shipmentsOfParty(ctx.services.db, ctx.caller.companyId, paging);
    return presentShipmentList(
      ctx.iris,
      rows.map((r) => r.id),
      paging.page,
    );
  });

  get('/onerecord/logistics-objects/:object', async (ctx) => {
    const found = await objectOf(ctx);
    if (!found) return null;
    const { row, kind, piece } = found;
    if (kind === 'waybill') return presentWaybill(ctx.iris, row);
    const totals = await shipmentTotals(ctx.services.db, row);
    if (kind === 'piece') return piece! <= Math.min(totals.pieces ?? 0, MAX_PIECES) ? presentPiece(ctx.iris, row, piece!) : null;
    return presentShipment(ctx.iris, row, totals, await shipmentEvents(ctx.services.db, row));
  });

  get('/onerecord/logistics-objects/:object/logistics-events', async (ctx) => {
    const found = await objectOf(ctx);
    if (!found) return null;
    if (found.kind !== 'shipment') return presentNoEvents(`${ctx.iris.base}${ctx.url.split('?')[0]}`);
    const events = await shipmentEvents(ctx.services.db, found.row);
    return presentEvents(ctx.iris, found.row, await shipmentTotals(ctx.services.db, found.row), events);
  });

  get('/onerecord/logistics-objects/:object/logistics-events/:event', async (ctx) => {
    const found = await objectOf(ctx);
    const eventId = /^\d{1,9}$/.test(ctx.params.event ?? '') ? Number(ctx.params.event) : null;
    if (found?.kind !== 'shipment' || eventId === null) return null;
    const event = (await shipmentEvents(ctx.services.db, found.row)).find((e) => e.id === eventId);
    return event ? presentEvent(ctx.iris, found.row, await shipmentTotals(ctx.services.db, found.row), event) : null;
  });

  // Anything else under /onerecord: ONE Record's own 404 and 405 (the API here is read-only).
  app.all('/onerecord/*', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(reply, 405, presentError(405, 'Method not allowed', 'this ONE Record server is read-only (GET)'));
    return send(reply, 404, presentError(404, 'Not found', 'no such ONE Record endpoint'));
  });
}

interface LdContext {
  services: Services;
  caller: Caller;
  iris: Iris;
  params: Record<string, string>;
  query: Record<string, unknown>;
  url: string;
}

async function objectOf(ctx: LdContext) {
  const m = OBJECT.exec(ctx.params.object ?? '');
  if (!m) return null;
  const kind = (m[1] ?? 'piece') as 'shipment' | 'waybill' | 'piece';
  const id = Number(m[2] ?? m[3]);
  const row = await shipmentOfParty(ctx.services.db, ctx.caller.companyId, id);
  if (!row) return null;
  const piece = m[4] === undefined ? undefined : Number(m[4]);
  if (piece !== undefined && piece < 1) return null;
  return { row, kind, piece };
}

function send(reply: FastifyReply, code: number, body: unknown) {
  return reply.code(code).type(LD).header('cache-control', 'no-store').send(JSON.stringify(body));
}

async function callerOf(services: Services, req: FastifyRequest): Promise<Caller | null> {
  const header = req.headers.authorization;
  const m = typeof header === 'string' ? /^(?:TokenPass|Bearer)\s+(\S+)\s*$/i.exec(header) : null;
  const token = m?.[1] ?? readString((req.query as Record<string, unknown> | undefined)?.auth_token);
  return token ? services.auth.byToken(token) : null;
}
