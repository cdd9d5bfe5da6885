import type { FastifyInstance } from 'fastify';
import { formatOf } from '../kernel/format.ts';
import { ok } from '../kernel/outcome.ts';
import { publicEndpoint, type Endpoint } from '../kernel/route.tsx';
import {
  buildOpenApiDocument,
  type DocumentOptions,
  type MediaRoute,
  type MediaRouteDoc,
  type OpenApiDocument,
  type RecordedExample,
} from './document.ts';
import recordedEvents from './event-examples.json' with { type: 'json' };
import recorded from './examples.json' with { type: 'json' };
import { referencePage } from './views.tsx';

/** The interface version docs/reference.md#the-api carries (Versioning 1); our additions keep it compatible. */
export const API_VERSION = '1.0.0';

/** One recorded request and answer per operation (`npm run examples:generate`; tests/support/api-examples.ts). */
const examples = recorded as unknown as Readonly<Record<string, RecordedExample>>;
/** One delivered event per event type, from the same run. */
const eventExamples = recordedEvents as Readonly<Record<string, unknown>>;

/**
 * GET /openapi.json (the document itself, not in the envelope) and GET /docs (its readable
 * reference, a page of this server). Built once, from the endpoints registered at start and the
 * routes that describe themselves in their route config (`openapi`, a MediaRouteDoc: ONE Record),
 * read as they are registered: those of plugins, which Fastify loads when the server starts; and
 * the events the webhooks deliver (`events`, every module's EventDoc, from app.ts).
 */
export function openApiRoutes(
  http: FastifyInstance,
  endpoints: () => readonly Endpoint[],
  options: Pick<DocumentOptions, 'events' | 'errorCodes'> = {},
): { docs: Endpoint } {
  const mediaRoutes: MediaRoute[] = [];
  http.addHook('onRoute', (route) => {
    const described = (route.config as { openapi?: MediaRouteDoc } | undefined)?.openapi;
    if (!described) return;
    // HEAD is Fastify's own twin of each GET.
    for (const method of [route.method].flat()) if (method !== 'HEAD') mediaRoutes.push({ ...described, method, path: route.url });
  });
  let document: OpenApiDocument | undefined;
  const get = () =>
    (document ??= buildOpenApiDocument(endpoints(), { version: API_VERSION, ...options, examples, eventExamples }, mediaRoutes));
  http.get('/openapi', async (req, reply) => {
    if (formatOf(req.raw) !== 'json') return reply.redirect('/docs');
    return reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(JSON.stringify(get()));
  });
  const docs = publicEndpoint({
    method: 'GET',
    path: '/docs',
    json: false,
    handle: async () => ok({}),
    page: (_outcome, ctx) => referencePage(get(), ctx.t),
  });
  return { docs };
}
