import type { Kysely } from 'kysely';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { isReplicaFailure } from '../db/replicas.ts';
import type { DB } from '../db/schema.ts';
import type { Caller, Ctx, Format, Services } from './context.ts';
import type { EndpointDoc } from './doc.ts';
import { formatOf } from './format.ts';
import type { Page } from './html.tsx';
import { isLanguage, translator, type Language, type Translate } from './i18n.ts';
import { rejected, type Answer, type Outcome } from './outcome.ts';
import { listParameterWarnings } from './paging.ts';
import { cleanInput, isRecord, mergeParams, readString, type Params } from './params.ts';
import { layoutOf, renderJson, sendPage, sendRedirect } from './render.tsx';

export const SESSION_COOKIE = 'fx_session';

const ENGLISH = translator('eng');

/** What a page function may answer: a page, or a redirect (post/redirect/get after a form). */
export type PageResult = Page | { redirect: string; message?: string; ok?: boolean };

/**
 * An endpoint; `D` is the `data` of its success, so `page` receives what `handle` presented. `I`
 * is its typed input: what `read` makes of the request once, handed to `handle` and `page` both,
 * so neither reads the parameters again.
 */
export interface EndpointSpec<C extends Caller | null, D = unknown, I = undefined> {
  method: HTTPMethods | HTTPMethods[];
  /** The path without `.json`; the same path serves the API (`.json`) and the HTML page. */
  path: string;
  /** Its API description (GET /openapi.json). */
  doc?: EndpointDoc;
  /** `false`: a page without a JSON counterpart (a form): `.json` answers 404 and the API description leaves it out. */
  json?: false;
  bodyLimit?: number;
  /**
   * `replica`: a GET that only reads (a list, a search, counts, a view) and may read from a
   * replica (db/replicas.ts) once the caller's own writes are there; `replica-json`: only its
   * JSON form (the page around it writes, e.g. read marks). Should anything in it write after
   * all, or the replica fail, the request is answered again from the primary.
   */
  reads?: 'replica' | 'replica-json';
  /**
   * An upload's gate, before a byte of the request's body is read: the caller is authenticated
   * from the request line and headers alone (a JSON call by its token in the Authorization
   * header or the query, docs/reference.md#the-api; a page by its session), a user endpoint answers 401 (or the
   * login page) without one, and `admit` may refuse with its outcome (a 404), answered at once.
   * `ctx.params` holds the query only. The caller it admitted is the request's caller after.
   */
  admit?(ctx: Ctx<C>): Promise<Outcome<never> | undefined>;
  /** Reads the request's input once (parameters, path, an HTML form in the user's language), for `handle` and `page`. */
  read?(ctx: Ctx<C>): I | Promise<I>;
  handle(ctx: Ctx<C>, input: I): Promise<Outcome<D>>;
  /** The HTML rendering of a success or functional failure; without it a plain page shows the data. */
  page?(outcome: Answer<D>, ctx: Ctx<C>, input: I): PageResult | Promise<PageResult>;
}

export interface Endpoint {
  auth: 'user' | 'public';
  // The route table holds endpoints of every caller and data type, each checked where it was written
  // (userEndpoint, publicEndpoint); handle and page are methods, so their parameters compare bivariantly.
  spec: EndpointSpec<Caller | null, unknown, unknown>;
}

/** An endpoint for logged-in callers: token for `.json`, session for pages. */
export const userEndpoint = <D, I = undefined>(spec: EndpointSpec<Caller, D, I>): Endpoint => ({ auth: 'user', spec });
/** An endpoint anyone may call (login, public rate search, tracking). */
export const publicEndpoint = <D, I = undefined>(spec: EndpointSpec<Caller | null, D, I>): Endpoint => ({ auth: 'public', spec });

export function registerEndpoints(app: FastifyInstance, services: Services, endpoints: Endpoint[]): void {
  for (const endpoint of endpoints) {
    app.route({
      method: endpoint.spec.method,
      url: endpoint.spec.path,
      bodyLimit: endpoint.spec.bodyLimit,
      onRequest: endpoint.spec.admit ? (req, reply) => admitBeforeBody(endpoint, services, req, reply) : undefined,
      // Forms of the HTML interface carry a CSRF token; API calls authenticate by token instead,
      // and a page's script writing JSON with the session carries the page's token like a form.
      // A route that only reads (GET, and the HEAD Fastify adds to it) has no such hook at all:
      // a hook that does nothing still costs every request its turn (issue 49).
      preHandler: readsOnly(endpoint.spec.method)
        ? undefined
        : (req, reply, done) => {
            if (req.method === 'GET' || req.method === 'HEAD') return done();
            const format = formatOf(req.raw);
            if (format === 'html') return app.csrfProtection(req, reply, done);
            if (format === 'json' && sessionWrite(req)) {
              (req as SessionWriting)[SESSION_WRITE] = true;
              return app.csrfProtection(req, reply, done);
            }
            done();
          },
      handler: (req, reply) => run(endpoint, services, req, reply),
    });
  }
}

/** Whether a route answers only GET (and HEAD): nothing it serves needs a CSRF check. */
function readsOnly(method: HTTPMethods | HTTPMethods[]): boolean {
  return (Array.isArray(method) ? method : [method]).every((m) => m === 'GET' || m === 'HEAD');
}

/** The caller an endpoint's `admit` let in, before the body was read (null: a public endpoint's visitor). */
const ADMITTED = Symbol('kernel.admitted');
/** A JSON write by the page's session whose CSRF token was checked (sessionWrite). */
const SESSION_WRITE = Symbol('kernel.sessionWrite');
type SessionWriting = FastifyRequest & { [SESSION_WRITE]?: true; [ADMITTED]?: Caller | null };

/**
 * A JSON write from a page's own script: no API token anywhere, the browser's session cookie,
 * and the page's CSRF token (the form's `_csrf`, or the `X-CSRF-Token` header). Checked like a
 * form's token (preHandler); without a token it is not one, and stays a 401 as before.
 */
function sessionWrite(req: FastifyRequest): boolean {
  const body = isRecord(req.body) ? req.body : {};
  const query = isRecord(req.query) ? req.query : {};
  if (req.headers.authorization !== undefined || query.auth_token !== undefined || body.auth_token !== undefined) return false;
  if (!req.cookies[SESSION_COOKIE]) return false;
  return typeof body._csrf === 'string' || typeof req.headers['x-csrf-token'] === 'string';
}

/** The onRequest hook of an endpoint with `admit` (EndpointSpec.admit): authenticate and admit before the body. */
async function admitBeforeBody(endpoint: Endpoint, services: Services, req: FastifyRequest, reply: FastifyReply) {
  const format = formatOf(req.raw);
  if (format === 'json' && endpoint.spec.json === false) return; // run() answers 404 without reading anything
  const query = cleanInput(isRecord(req.query) ? req.query : {}) as Params;
  const caller = format === 'json' ? await callerByToken(services, req, query) : await callerBySession(services, req);
  if (endpoint.auth === 'user' && !caller) {
    if (format === 'json') renderJson(reply, rejected(401, 'auth.unauthorized', ENGLISH('error.unauthorized')), null);
    else sendRedirect(reply, loginPath(req.url));
    return reply;
  }
  const ctx = contextOf(services, req, reply, caller, query, format);
  const refused = await endpoint.spec.admit!(ctx);
  if (refused) {
    if (format === 'json') renderJson(reply, refused, caller);
    else await renderHtml(endpoint.spec, refused, ctx, undefined);
    return reply;
  }
  (req as SessionWriting)[ADMITTED] = caller;
}

function contextOf(
  services: Services,
  req: FastifyRequest,
  reply: FastifyReply,
  caller: Caller | null,
  params: Params,
  format: Format,
): Ctx<Caller | null> {
  const language = caller?.language ?? languageFromHeader(req.headers['accept-language']);
  return {
    req,
    reply,
    services,
    db: services.db,
    clock: services.clock,
    caller,
    params,
    path: cleanInput(req.params ?? {}) as Record<string, string>,
    format,
    language,
    t: translator(language),
  };
}

async function run(endpoint: Endpoint, services: Services, req: FastifyRequest, reply: FastifyReply) {
  const format = formatOf(req.raw);
  if (format === 'json' && endpoint.spec.json === false) return renderJson(reply, { kind: 'not_found' }, null);
  const params = mergeParams(req.query, req.body);
  // JSON calls authenticate by token. A GET without a token may use the browser session, so the
  // pages' own scripts can read JSON (autocomplete); GETs change nothing and SameSite cookies
  // are not sent on cross-site fetches, so this opens no CSRF hole. A write may use the session
  // only with the page's CSRF token, checked before (sessionWrite). An endpoint with `admit`
  // authenticated before its body was read (admitBeforeBody).
  const admitted = (req as SessionWriting)[ADMITTED];
  const caller =
    admitted !== undefined
      ? admitted
      : format === 'json'
        ? ((await callerByToken(services, req, params)) ??
          ((req.method === 'GET' || (req as SessionWriting)[SESSION_WRITE]) && !hasToken(req, params)
            ? await callerBySession(services, req)
            : null))
        : await callerBySession(services, req);

  if (endpoint.auth === 'user' && !caller) {
    // In English: a JSON 401 has no caller whose language it could speak.
    if (format === 'json') return renderJson(reply, rejected(401, 'auth.unauthorized', ENGLISH('error.unauthorized')), null);
    return sendRedirect(reply, loginPath(req.url));
  }
  // Log lines of a caller's request name it; a silent logger writes none, so it gets no child.
  if (caller && logsAt(req.log, 'fatal')) req.log = req.log.child({ user: caller.userId, company: caller.companyId });

  const ctx = contextOf(services, req, reply, caller, params, format);
  const reads = endpoint.spec.reads;
  const replica =
    services.reads && caller && req.method === 'GET' && (reads === 'replica' || (reads === 'replica-json' && format === 'json'))
      ? await services.reads.dbFor(caller.companyId)
      : services.db;
  if (replica === services.db) return answer(endpoint, ctx, params, services.db);
  try {
    return await answer(endpoint, ctx, params, replica);
  } catch (err) {
    if (!isReplicaFailure(err) || reply.sent) throw err;
    // Down, or something in the request writes (25006): this request, then, from the primary.
    if ((err as { code?: string }).code !== '25006') services.reads?.failed(replica);
    req.log.warn({ err }, 'read on a replica failed; answered from the primary');
    return answer(endpoint, ctx, params, services.db);
  }
}

/** An endpoint's answer to the request of `ctx`, read from `db` (the primary or a replica). A function of its own, not a closure made per request (issue 49). */
async function answer(endpoint: Endpoint, ctx: Ctx<Caller | null>, params: Params, db: Kysely<DB>) {
  const { req, reply, services, format } = ctx;
  ctx.db = db;
  const input = await endpoint.spec.read?.(ctx);
  const handled = await endpoint.spec.handle(ctx, input);
  // A list says what of its query it ignored (paging.ts listParameterWarnings), every list alike.
  const ignored =
    format === 'json' && req.method === 'GET' && handled.kind === 'ok'
      ? listParameterWarnings(endpoint.spec.doc, params, handled.warnings)
      : [];
  const outcome = ignored.length && handled.kind === 'ok' ? { ...handled, warnings: [...(handled.warnings ?? []), ...ignored] } : handled;
  // A write request: the company's next reads wait until a replica has it (read-your-writes).
  if (services.reads && ctx.caller && req.method !== 'GET' && req.method !== 'HEAD') await services.reads.wrote(ctx.caller.companyId);
  // ctx.caller, not caller: a login makes its user the caller the envelope repeats.
  if (format === 'json') return renderJson(reply, outcome, ctx.caller);
  return renderHtml(endpoint.spec, outcome, ctx, input);
}

async function renderHtml(spec: EndpointSpec<Caller | null, unknown, unknown>, outcome: Outcome, ctx: Ctx<Caller | null>, input: unknown) {
  const h = { req: ctx.req, reply: ctx.reply, caller: ctx.caller, language: ctx.language };
  switch (outcome.kind) {
    case 'redirect':
      return sendRedirect(ctx.reply, outcome.to, outcome.message ? { ok: outcome.ok, message: outcome.message } : undefined);
    case 'not_found':
      return sendPage(h, 404, notFoundPage(ctx.t, layoutOf(ctx.reply).home));
    case 'rejected':
      return sendPage(h, outcome.status, { title: ctx.t('error.bad_request'), body: <p class="error">{outcome.message}</p> });
    case 'ok':
    case 'error': {
      const result = spec.page ? await spec.page(outcome, ctx, input) : plainPage(outcome);
      if ('redirect' in result) {
        return sendRedirect(ctx.reply, result.redirect, result.message ? { ok: result.ok ?? true, message: result.message } : undefined);
      }
      return sendPage(h, 200, result);
    }
  }
}

export function notFoundPage(t: Translate, home: string): Page {
  return {
    title: t('error.not_found'),
    body: (
      <section>
        <h1>{t('error.not_found')}</h1>
        <p>{t('error.not_found.text')}</p>
        <p>
          <a href={home}>{t('error.not_found.home')}</a>
        </p>
      </section>
    ),
  };
}

/** Fallback rendering for endpoints whose page is not written yet: the data, readable. */
function plainPage(outcome: Answer): Page {
  return {
    title: outcome.kind === 'ok' ? 'Result' : 'Error',
    body: (
      <section>
        {outcome.kind === 'error' && <p class="flash error">{outcome.message}</p>}
        <pre class="data">{JSON.stringify(outcome.data ?? null, null, 2)}</pre>
      </section>
    ),
  };
}

/**
 * The API token a request carries, read once for every part of the site: `Authorization:
 * <scheme> <token>` with one of `schemes` (docs/reference.md#the-api: `TokenPass`, a fixed literal; ONE Record's
 * clients also send `Bearer`, in any case), else the `auth_token` parameter (quick tests).
 */
export function requestToken(
  req: FastifyRequest,
  authToken: unknown,
  accept: { schemes: readonly string[]; anyCase?: boolean } = API_SCHEMES,
): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === 'string') {
    const m = AUTHORIZATION.exec(header);
    if (m) {
      const scheme = accept.anyCase ? m[1]!.toLowerCase() : m[1];
      for (const s of accept.schemes) if ((accept.anyCase ? s.toLowerCase() : s) === scheme) return m[2];
    }
  }
  return readString(authToken);
}

/** The API's one scheme (requestToken's default), and the header's reading: `<scheme> <token>`. */
const API_SCHEMES = { schemes: ['TokenPass'] } as const;
const AUTHORIZATION = /^(\S+)\s+(\S+)\s*$/;

async function callerByToken(services: Services, req: FastifyRequest, params: Params): Promise<Caller | null> {
  const token = requestToken(req, params.auth_token);
  return token ? services.auth.byToken(token) : null;
}

function hasToken(req: FastifyRequest, params: Params): boolean {
  return req.headers.authorization !== undefined || params.auth_token !== undefined;
}

/**
 * The caller of a route outside the kernel's endpoints that serves the API and the pages alike
 * (a document's download): by API token when the request carries one, else by the browser session.
 */
export async function callerOfRequest(services: Services, req: FastifyRequest): Promise<Caller | null> {
  const params = (req.query ?? {}) as Params;
  return hasToken(req, params) ? callerByToken(services, req, params) : callerBySession(services, req);
}

async function callerBySession(services: Services, req: FastifyRequest): Promise<Caller | null> {
  const id = req.cookies[SESSION_COOKIE];
  return id ? services.auth.bySession(id) : null;
}

/** The login page, coming back to `url` afterwards when that is short enough to carry in a header. */
function loginPath(url: string): string {
  const path = url.split('?')[0]!;
  const next = url.length <= MAX_NEXT ? url : path.length <= MAX_NEXT ? path : undefined;
  return next ? `/users/login?next=${encodeURIComponent(next)}` : '/users/login';
}

/** Whether the request's logger writes lines of `level` (pino's isLevelEnabled; Fastify's stand-in for no logger writes none). */
export function logsAt(log: FastifyBaseLogger, level: 'fatal' | 'info'): boolean {
  return (log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(level) ?? false;
}

/** Encoded, a 1,000-character target stays far below proxies' header limits (4-8 KiB). */
const MAX_NEXT = 1000;

/** The visitor's language from `Accept-Language` (pages without a session, the 404 page). */
export function languageFromHeader(header: string | undefined): Language {
  const first = (header ?? '').split(',')[0]?.trim().slice(0, 2).toLowerCase();
  const lang = first === 'de' ? 'deu' : 'eng';
  return isLanguage(lang) ? lang : 'eng';
}
