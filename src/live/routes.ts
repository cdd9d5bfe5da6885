import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../kernel/context.ts';
import type { EndpointDoc } from '../kernel/doc.ts';
import { translator } from '../kernel/i18n.ts';
import { rejected } from '../kernel/outcome.ts';
import { refusalEnvelope, renderJson } from '../kernel/render.tsx';
import { callerOfRequest } from '../kernel/route.tsx';
import { HEARTBEAT_MS, type LiveHub, MAX_STREAMS_PER_USER } from './hub.ts';

/** The path of the stream (docs/reference.md#live-board); the pages' script finds it on the page (kernel/html.tsx). */
export const LIVE_PATH = '/events/stream';

/** Seconds a refused client waits before it tries again (429, `Retry-After`). */
const RETRY_AFTER_S = 10;

const STREAM_DOC: EndpointDoc = {
  summary: 'The live board: the company’s events as a Server-Sent Events stream',
  tag: 'events',
  description: [
    'A `text/event-stream` (Server-Sent Events) of the events of decisions.md §8 the caller’s company is entitled to, with the data masked as that company sees it through the API (the same events and bodies a webhook of the company receives, whether or not it has one), plus `freight.published` for every freight entering the market that the company may see there (visibility, whitelist, blocking and deadline honoured when the event is sent; its `data.route` is the freight as the market sees it).',
    'Each event is an `id:` line (the event id, as `webhook-id` and the body’s `id`) and a `data:` line with the event’s JSON body `{"id", "type", "created", "company", "data"}`; there is no `event:` line, so `EventSource.onmessage` receives every type (read `type` from the body). The stream opens with `retry: 3000` and a comment line; a comment line (`: keep-alive`) follows at least every 25 seconds.',
    'Reconnecting with the header `Last-Event-ID` (browsers send it by themselves) first gives what the company missed after that event, oldest first, up to 24 hours back (an id no longer known: the last 24 hours), then the live events, none twice. Events reach streams on every server process (PostgreSQL LISTEN/NOTIFY).',
    `At most ${MAX_STREAMS_PER_USER} streams of one user at a time on one server process; one more answers 429. When the server stops, its streams end; clients reconnect and catch up with \`Last-Event-ID\`. A token or the browser session authenticates (\`auth_token\` works too, for an EventSource that cannot send headers).`,
  ].join('\n\n'),
  data: Type.String({
    description: `Server-Sent Events, one per committed change: \`id: evt_…\`, \`data: {"id":…,"type":…,"created":…,"company":…,"data":{…}}\`, a blank line; \`: keep-alive\` every ${HEARTBEAT_MS / 1000} s.`,
  }),
  answers: {
    429: `The user has ${MAX_STREAMS_PER_USER} streams open on this server already: close one, then try again after \`Retry-After\`.`,
  },
};

/**
 * GET /events/stream (docs/reference.md#live-board): outside the envelope (an answer that never ends), so a
 * route of its own that says what it is in its route config (src/openapi), like a document's
 * download. Authentication as every GET: the API token, else the browser session.
 */
export function registerLiveRoutes(http: FastifyInstance, services: Services, hub: LiveHub): void {
  http.get(
    LIVE_PATH,
    {
      // A HEAD would hold a stream open with no body to send.
      exposeHeadRoute: false,
      config: {
        openapi: {
          auth: 'user',
          doc: STREAM_DOC,
          mediaType: 'text/event-stream',
          error: Type.Ref('ErrorEnvelope'),
          errorType: 'application/json',
          headers: {
            'Last-Event-ID': Type.String({
              description: 'The id of the last event received: the stream first sends what followed it (up to 24 hours back).',
            }),
          },
        },
      },
    },
    async (req, reply) => {
      const caller = await callerOfRequest(services, req);
      if (!caller) return renderJson(reply, rejected(401, 'auth.unauthorized', translator('eng')('error.unauthorized')), null);
      if (!hub.admits(caller.userId)) {
        const t = translator(caller.language);
        reply.header('retry-after', String(RETRY_AFTER_S));
        return renderJson(reply, rejected(429, 'live.too_many_streams', t('live.too_many_streams', { max: MAX_STREAMS_PER_USER })), caller);
      }
      const header = req.headers['last-event-id'];
      const lastEventId = typeof header === 'string' ? header.trim().slice(0, 100) : undefined;
      reply.hijack();
      try {
        await hub.open(caller, reply.raw, reply.getHeaders() as Record<string, string>, lastEventId);
      } catch (err) {
        req.log.error({ err }, 'live: a stream could not start');
        // Before the stream's head: the envelope of every 500 (`internal`), as the description says of this route's failures.
        if (reply.raw.headersSent) reply.raw.end();
        else
          reply.raw
            .writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
            .end(JSON.stringify(refusalEnvelope('internal', 'internal error', caller)));
      }
    },
  );
}

/**
 * The streams end when the server begins to close (preClose, before it waits for its
 * connections): a stop is not held up by clients that never hang up, and each client reconnects
 * to another process with its `Last-Event-ID`. The listening connection closes with them.
 */
export function attachLiveHub(http: FastifyInstance, hub: LiveHub): void {
  http.addHook('preClose', async () => hub.stop());
}
