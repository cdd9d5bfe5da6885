import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, Services } from '../kernel/context.ts';
import type { EndpointDoc } from '../kernel/doc.ts';
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
import { ERROR_SCHEMA, ONE_RECORD_DOCS } from './schema.ts';
import { shipmentOfParty, shipmentsOfParty } from '../milkrun/index.ts';
import { shipmentEvents, shipmentTotals } from '../files/index.ts';
import { requestToken } from '../kernel/route.tsx';

const LD = 'application/ld+json';
const OBJECT = /^(shipment|waybill)-(\d{1,9})$|^piece-(\d{1,9})-(\d{1,4})$/;

/** A ONE Record endpoint: a GET under /onerecord answering a document, or null for 404. */
interface LdRoute {
  path: string;
  doc: EndpointDoc;
  answer(ctx: LdContext): Promise<unknown>;
}

const ROUTES: LdRoute[] = [
  {
    path: '/shipments',
    doc: ONE_RECORD_DOCS.shipments,
    async answer(ctx) {
      const paging = readPaging(ctx.query);
      const rows = await shipmentsOfParty(ctx.services.db, ctx.caller.companyId, paging);
      return presentShipmentList(
        ctx.iris,
        rows.map((r) => r.id),
        paging.page,
      );
    },
  },
  {
    path: '/logistics-objects/:object',
    doc: ONE_RECORD_DOCS.object,
    async answer(ctx) {
      const found = await objectOf(ctx);
      if (!found) return null;
      const { row, kind, piece } = found;
      if (kind === 'waybill') return presentWaybill(ctx.iris, row);
      const totals = await shipmentTotals(ctx.services.db, row);
      if (kind === 'piece') return piece! <= Math.min(totals.pieces ?? 0, MAX_PIECES) ? presentPiece(ctx.iris, row, piece!) : null;
      return presentShipment(ctx.iris, row, totals, await shipmentEvents(ctx.services.db, row));
    },
  },
  {
    path: '/logistics-objects/:object/logistics-events',
    doc: ONE_RECORD_DOCS.events,
    async answer(ctx) {
      const found = await objectOf(ctx);
      if (!found) return null;
      if (found.kind !== 'shipment') return presentNoEvents(`${ctx.iris.base}${ctx.url.split('?')[0]}`);
      const events = await shipmentEvents(ctx.services.db, found.row);
      return presentEvents(ctx.iris, found.row, await shipmentTotals(ctx.services.db, found.row), events);
    },
  },
  {
    path: '/logistics-objects/:object/logistics-events/:event',
    doc: ONE_RECORD_DOCS.event,
    async answer(ctx) {
      const found = await objectOf(ctx);
      const eventId = /^\d{1,9}$/.test(ctx.params.event ?? '') ? Number(ctx.params.event) : null;
      if (found?.kind !== 'shipment' || eventId === null) return null;
      const event = (await shipmentEvents(ctx.services.db, found.row)).find((e) => e.id === eventId);
      return event ? presentEvent(ctx.iris, found.row, await shipmentTotals(ctx.services.db, found.row), event) : null;
    },
  },
];

/**
 * IATA ONE Record, read-only (docs/choices.md, ONE Record): a company's air shipments as
 * logistics objects in JSON-LD. Authenticated by the API token (`Authorization: TokenPass …`,
 * or `Bearer …` as ONE Record clients send it); an object the company may not see is 404, as a
 * missing one. Served outside the `.json` envelope: ONE Record has its own media type and errors.
 *
 * The routes live in a Fastify context of their own under /onerecord, whose error and not-found
 * handlers answer every failure there (an unreadable or too large body, an unknown path, another
 * method) as ONE Record's error, as does the kernel for a URL the router cannot read (app.ts
 * passes `sendFailure` for the prefix); the rest of the app keeps the kernel's answers. Each route
 * carries its API description in its route config (`openapi`), read by src/openapi.
 */
/** Where ONE Record is served; app.ts also has the kernel answer unreadable URLs under it with `sendFailure`. */
export const ONE_RECORD_PREFIX = '/onerecord';

export function registerOneRecordRoutes(app: FastifyInstance, services: Services): void {
  app.register(
    async (scope) => {
      scope.setErrorHandler((error: FastifyError, req, reply) => {
        const code = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
        if (code === 500) req.log.error({ err: error }, 'unhandled error');
        return sendFailure(reply, code, code === 500 ? 'internal error' : error.message);
      });
      // Any other path or method: ONE Record's 404, or 405 (the API here is read-only). The wildcard
      // route too, so that a path with an over-long parameter is a 404 here, not the router's 414.
      scope.setNotFoundHandler(notFound);
      scope.all('/*', notFound);
      for (const route of ROUTES) {
        // Its API description as src/openapi reads it (a MediaRouteDoc there): every answer JSON-LD, failures api:Error.
        const openapi = { auth: 'user', doc: route.doc, mediaType: LD, error: ERROR_SCHEMA };
        scope.get(route.path, { config: { openapi } }, (req, reply) => answer(services, route, req, reply));
      }
    },
    { prefix: ONE_RECORD_PREFIX },
  );
}

function notFound(req: FastifyRequest, reply: FastifyReply) {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(
      reply.header('allow', 'GET, HEAD'),
      405,
      presentError(405, 'Method not allowed', 'this ONE Record server is read-only (GET)'),
    );
  return send(reply, 404, presentError(404, 'Not found', 'no such ONE Record endpoint'));
}

async function answer(services: Services, route: LdRoute, req: FastifyRequest, reply: FastifyReply) {
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
  const body = await route.answer(ctx);
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

/** A request that failed before an endpoint could answer it, titled by its status. */
export const sendFailure = (reply: FastifyReply, code: number, message: string) =>
  send(reply, code, presentError(code, STATUS_CODES[code] ?? 'Error', message));

/** ONE Record clients send `Bearer`; the exchange's `TokenPass` works too (kernel/route.tsx requestToken). */
const ONE_RECORD_SCHEMES = { schemes: ['TokenPass', 'Bearer'], anyCase: true } as const;

async function callerOf(services: Services, req: FastifyRequest): Promise<Caller | null> {
  const token = requestToken(req, (req.query as Record<string, unknown> | undefined)?.auth_token, ONE_RECORD_SCHEMES);
  return token ? services.auth.byToken(token) : null;
}
