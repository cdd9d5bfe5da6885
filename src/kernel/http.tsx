import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import helmet from 'helmet';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { askedForJson, formatOf, redactUrl, rewriteUrl, underPrefix } from './format.ts';
import { translator } from './i18n.ts';
import { QS_OPTIONS, parseQueryString, safeReviver } from './params.ts';
import type { ErrorCode } from './errors.ts';
import { notFoundEnvelope, refusalEnvelope, sendJson, sendPage } from './render.tsx';
import type { Layout } from './html.tsx';
import { languageFromHeader, logsAt, notFoundPage } from './route.tsx';
import qs from 'qs';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * How a part of the site that answers in a media type of its own (ONE Record's JSON-LD) answers
 * a request the router refuses before any route runs: an unreadable URL, an over-long path
 * parameter.
 */
export type RefusalAnswer = (reply: FastifyReply, code: number, message: string) => unknown;

export interface HttpOptions {
  logger: FastifyServerOptions['logger'];
  cookieSecret: string;
  /** The menu and the start page every page's frame links to (render.tsx layoutOf). */
  layout: Layout;
  /** Path prefix (`/onerecord`) -> how the router's refusals under it are answered; elsewhere as docs/reference.md#the-api's. */
  refusals?: Readonly<Record<string, RefusalAnswer>>;
  /**
   * Path prefixes of API routes without `.json` whose failures are the JSON envelope (a document's
   * download, the event stream): a refusal, a 404 or a 500 under them answers JSON with its `code`,
   * never a page.
   */
  jsonFailures?: readonly string[];
  /** Fastify's trustProxy (TRUST_PROXY): only then are X-Forwarded-Proto/-For believed. */
  trustProxy?: boolean | number | string;
}

/**
 * The Fastify instance with docs/reference.md#the-api's conventions installed once: `.json` routing, merged
 * query/form/JSON parameters, lenient body parsing, and failures in the contract's shapes.
 */
export async function createHttpServer(options: HttpOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger,
    rewriteUrl: (raw) => rewriteUrl(raw, options.jsonFailures),
    // Long path parameters (tracking references, autocomplete queries) are allowed up to 500 characters.
    routerOptions: { querystringParser: (text: string) => parseQueryString(text), ignoreTrailingSlash: true, maxParamLength: 500 },
    // Malformed URLs and over-long parameters answer in the contract's shape too.
    frameworkErrors: (error, req, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const [status, code] = tooLong ? ([414, 'request.path_too_long'] as const) : ([400, 'request.unreadable'] as const);
      const message = tooLong ? 'a path parameter is too long' : 'the URL could not be read';
      const own = refusalAnswerOf(options.refusals, req.url);
      if (own) return own(reply as unknown as FastifyReply, status, message);
      if (formatOf(req.raw) === 'json') return sendJson(reply, status, refusalEnvelope(code, message, null));
      return (reply as unknown as FastifyReply).code(status).type('text/plain; charset=utf-8').send(message);
    },
    bodyLimit: DEFAULT_BODY_LIMIT,
    // A hop count is valid for Fastify (proxy-addr) though its types list only the other forms.
    trustProxy: (options.trustProxy ?? false) as boolean | string,
    // A client that never finishes its request is cut off instead of holding a connection (and
    // a graceful stop) open; the largest body (a 15 MiB file push) fits in it on a slow line.
    requestTimeout: 120_000,
    // Requests Node refuses before any route sees them (headers over 16 KiB: 431, malformed: 400)
    // answer in the envelope too, as JSON: the format of a request that cannot be read is unknown.
    clientErrorHandler: answerClientError,
    return503OnClosing: true,
    // Fastify's own request lines would log the raw URL (tokens in auth_token): ours below redacts it.
    logController: new LogController({ disableRequestLogging: true }),
  });

  // One access-log line per request, with the User-Agent (docs/reference.md#the-api asks callers to send one)
  // and never the token of an `auth_token` query. No hook at all when the logger writes no info
  // lines (a silent or absent logger: its level is fixed at start), and a callback, not an
  // async function, when it does: no promise per request for it (issue 49).
  if (logsAt(app.log, 'info'))
    app.addHook('onResponse', (req, reply, done) => {
      req.log.info(
        {
          method: req.method,
          url: redactUrl(req.originalUrl),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
          ua: req.headers['user-agent'],
        },
        'request',
      );
      done();
    });

  // Bodies: JSON (an empty one is {}), forms with bracket keys, and anything else read leniently
  // as JSON or form text, since every body field also works as a query parameter.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (!text) return done(null, {});
    try {
      done(null, JSON.parse(text, safeReviver));
    } catch {
      done(badRequest('the JSON body could not be parsed'));
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, qs.parse(body as string, QS_OPTIONS));
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    const text = (body as string).trim();
    if (!text || String(req.headers['content-type'] ?? '').startsWith('multipart/')) return done(null, {});
    if (text.startsWith('{')) {
      try {
        return done(null, JSON.parse(text, safeReviver));
      } catch {
        return done(badRequest('the body could not be parsed'));
      }
    }
    done(null, qs.parse(text, QS_OPTIONS));
  });

  // Pages, CSS, script and JSON answers leave compressed, brotli or gzip as Accept-Encoding
  // prefers (a 50-row list page shrinks about tenfold); an Accept-Encoding that names neither, or
  // cannot be read, gets the plain answer. Small answers (under 1 KiB) are not worth it. Request
  // bodies are read as sent: nothing the exchange receives is compressed, and a Content-Encoding
  // on a request changes nothing. Registered before any route, since it hooks each route.
  await app.register(compress, { encodings: ['br', 'gzip'], globalDecompression: false, threshold: 1024 });
  app.decorate('layout', options.layout);
  // Cookies are parsed by the hook below, not by the plugin's own (`hook: false`): one hook
  // instead of two on every request (issue 49). The plugin still writes the cookies an answer
  // sets (its onSend hook, which passes at once when none was set).
  await app.register(cookie, { secret: options.cookieSecret, hook: false });
  await app.register(csrf, { cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, signed: true, secure: 'auto' } });
  // The security headers are the same for every answer of a kind: computed once, set by one hook
  // (helmet's plugin would rebuild them per request), the same hook that reads the request's
  // cookies (a new object per request, as the plugin's). Pages and downloads get helmet's with our
  // content security policy; the API's JSON answers (the `.json` suffix) the set that protects a
  // JSON answer (API_SECURITY_HEADERS).
  const pageSecurity = Object.entries(securityHeaders());
  const apiSecurity = Object.entries(API_SECURITY_HEADERS);
  app.addHook('onRequest', (req, reply, done) => {
    const header = req.headers.cookie;
    req.cookies = header ? app.parseCookie(header) : {};
    for (const [name, value] of askedForJson(req.raw) ? apiSecurity : pageSecurity) reply.header(name, value);
    done();
  });

  app.setNotFoundHandler((req, reply) => {
    if (formatOf(req.raw) === 'json') return sendJson(reply, 404, notFoundEnvelope(null));
    const language = languageFromHeader(req.headers['accept-language']);
    return sendPage({ req, reply, caller: null, language }, 404, notFoundPage(translator(language), options.layout.home));
  });

  app.setErrorHandler((error: FastifyError, req, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) req.log.error({ err: error }, 'unhandled error');
    const message = status === 500 ? 'internal error' : clientMessage(error);
    if (formatOf(req.raw) === 'json') return sendJson(reply, status, refusalEnvelope(errorCodeOf(status), message, null));
    const t = translator('eng');
    const text = error.code?.startsWith('FST_CSRF') ? t('error.csrf') : message;
    return sendPage({ req, reply, caller: null, language: 'eng' }, status, {
      title: t('error.bad_request'),
      body: <p class="flash error">{text}</p>,
    });
  });

  return app;
}

function refusalAnswerOf(refusals: HttpOptions['refusals'], url: string): RefusalAnswer | undefined {
  for (const [prefix, answer] of Object.entries(refusals ?? {})) if (underPrefix(url, prefix)) return answer;
  return undefined;
}

/** Requests Node refuses before Fastify sees them, by Node's error code: status, code, message. */
const CLIENT_ERRORS: Record<string, [number, ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'request.headers_too_large', 'the request line or headers are too large (16 KiB at most)'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request.timeout', 'the request took too long to arrive'],
};

function answerClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'request.unreadable', 'the request could not be read'];
  this.log.debug({ err: err.message, status }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(refusalEnvelope(code, message, null));
    // An answer to HEAD has no body (RFC 9110 §9.3.2): the same head, its length, nothing after.
    const head = (err as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
    );
  }
  socket.destroy();
}

/**
 * The code of an error Fastify raised while reading a request (its status) or of a bug (500).
 * A body over the limit is 413; every other client error of this stage is a request that could
 * not be read (a malformed body or Content-Length: 400).
 */
function errorCodeOf(status: number): ErrorCode {
  if (status === 500) return 'internal';
  return status === 413 ? 'request.too_large' : 'request.unreadable';
}

function clientMessage(error: FastifyError): string {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'the request body is too large';
  if (error.code?.startsWith('FST_CSRF')) return 'invalid or missing CSRF token';
  return error.message;
}

function badRequest(message: string): FastifyError {
  return Object.assign(new Error(message), { statusCode: 400, code: 'FX_BAD_BODY' }) as FastifyError;
}

/**
 * The security headers of the API's JSON answers (OWASP's REST Security Cheat Sheet, "Security
 * Headers"): a JSON answer runs no script, loads nothing and is never a page to frame, so nothing
 * may load from it or frame it, a browser never guesses another type for it, and no other site may
 * read it in a tag of its own. Helmet's other headers (DNS prefetching, the download dialog, Flash's
 * cross-domain policies, the opener, the origin-keyed agent cluster, the referrer, the old XSS
 * filter) concern a document a browser shows; leaving them off saves every API answer ~450 bytes
 * and seven headers to write (issue 49: the logged-in trivial GET, docs/choices.md). Cache-Control
 * (no-store) and the content type are set by the answer itself (render.tsx).
 */
const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

/** helmet's headers for our policy, read once from its middleware (they depend on no request). */
function securityHeaders(): Record<string, string> {
  const middleware = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    hsts: false, // served over plain HTTP on a LAN as often as behind TLS: the proxy decides
  });
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  middleware({} as never, res as never, () => {});
  return headers;
}
