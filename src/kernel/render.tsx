import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from './context.ts';
import { sitePath } from './format.ts';
import { renderDocument, type Flash, type Layout, type Page } from './html.tsx';
import { translator, type Language } from './i18n.ts';
import type { ErrorCode, PageFormCode } from './errors.ts';
import { JsonText, type Outcome } from './outcome.ts';

const FLASH_COOKIE = 'fx_flash';

/**
 * The envelope of every JSON answer (docs/reference.md#envelope): `auth` repeats the caller, its
 * token included for a caller that sent the token (or logged in with its password). A caller by
 * the browser session gets `email` and `language` only: the token is a secret that does not
 * expire, and a JSON answer is compressed beside text the request chose (a warning that quotes
 * a parameter), so its size would tell a page of another site, which makes the browser send
 * requests with its cookie, whether a guess matched the token (BREACH; docs/choices.md,
 * "Safety: no secret beside reflected input in a compressed answer").
 */
export function envelope(status: 'success' | 'error', data: unknown, caller: Caller | null, extra: Record<string, unknown> = {}) {
  return {
    data,
    status,
    auth: caller
      ? caller.session
        ? { email: caller.email, language: caller.language }
        : { email: caller.email, token: caller.token, language: caller.language }
      : {},
    ...extra,
  };
}

/**
 * The envelope of an error answer: `message` for people, then `code` for programs (kernel/errors.ts),
 * added after everything the envelope had before, so no other field moves.
 */
export function errorEnvelope(code: ErrorCode | PageFormCode, message: string, caller: Caller | null, data: unknown = []) {
  return envelope('error', data, caller, { message, code });
}

/** A refusal of the server itself (unreadable request, too large, not logged in, …). */
export const refusalEnvelope = (code: ErrorCode, message: string, caller: Caller | null) => errorEnvelope(code, message, caller);

/** 404: missing or not visible (docs/reference.md#the-api: `data` is an empty array). */
export const notFoundEnvelope = (caller: Caller | null) => refusalEnvelope('not_found', 'not found', caller);

/**
 * Answers are per caller and carry its token (`auth.token`) or a CSRF token: no browser, proxy
 * or CDN may keep a copy. Only the static assets are cacheable.
 */
const NO_STORE = 'no-store';

export function sendJson(reply: FastifyReply, code: number, body: unknown): FastifyReply {
  return reply.code(code).header('cache-control', NO_STORE).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** Where an envelope's `data` given as JSON text goes (`data` is the envelope's first key, so the first match is it). */
const JSON_TEXT = '\u0000data\u0000';
const JSON_TEXT_WRITTEN = JSON.stringify(JSON_TEXT);

/** A success whose `data` is JSON text already: the envelope written around it, byte for byte as sendJson writes it. */
function sendJsonText(reply: FastifyReply, body: ReturnType<typeof envelope>, data: string): FastifyReply {
  return reply
    .code(200)
    .header('cache-control', NO_STORE)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(body).replace(JSON_TEXT_WRITTEN, () => data));
}

/** Renders an outcome as JSON: the status codes and shapes of docs/reference.md#errors table. */
export function renderJson(reply: FastifyReply, outcome: Outcome, caller: Caller | null): FastifyReply {
  switch (outcome.kind) {
    case 'ok': {
      const extra = outcome.warnings ? { warnings: outcome.warnings } : {};
      if (outcome.data instanceof JsonText) return sendJsonText(reply, envelope('success', JSON_TEXT, caller, extra), outcome.data.text);
      return sendJson(reply, 200, envelope('success', outcome.data, caller, extra));
    }
    case 'error':
      return sendJson(reply, 200, errorEnvelope(outcome.code, outcome.message, caller, outcome.data ?? []));
    case 'not_found':
      return sendJson(reply, 404, notFoundEnvelope(caller));
    case 'rejected':
      return sendJson(reply, outcome.status, refusalEnvelope(outcome.code, outcome.message, caller));
    case 'redirect':
      // Clients must not follow it (docs/reference.md#the-api); the body is an HTML stub, never JSON.
      return reply.code(302).header('location', redirectTarget(outcome.to)).type('text/html; charset=utf-8').send('');
  }
}

export interface HtmlContext {
  req: FastifyRequest;
  reply: FastifyReply;
  caller: Caller | null;
  language: Language;
}

/** Sends a full page (layout around the body) with the pending flash message, which it consumes. */
export function sendPage(h: HtmlContext, code: number, page: Page): FastifyReply {
  const flash = takeFlash(h.req, h.reply);
  const t = translator(h.language);
  const html = renderDocument({
    page,
    caller: h.caller,
    t,
    language: h.language,
    flash,
    csrf: () => h.reply.generateCsrf(),
    path: h.req.url.split('?')[0] ?? '/',
    layout: layoutOf(h.reply),
  });
  return h.reply.code(code).header('cache-control', NO_STORE).type('text/html; charset=utf-8').send(html);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The pages' frame (kernel/html.tsx Layout), given to createHttpServer by app.ts. */
    layout: Layout;
  }
}

/** The frame of the pages the server renders. */
export const layoutOf = (reply: FastifyReply): Layout => reply.server.layout;

/** 302 to a page with a message shown there once (refusals "with a visible message after the redirect"). */
export function sendRedirect(reply: FastifyReply, to: string, flash?: Flash): FastifyReply {
  if (flash?.message) {
    reply.setCookie(FLASH_COOKIE, JSON.stringify(flash), { path: '/', httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: 60 });
  }
  return reply.code(302).header('location', redirectTarget(to)).type('text/html; charset=utf-8').send('');
}

/**
 * Every redirect of the application leaves through here: its target is read by the one
 * `sitePath` reader, so no target a form sent back (`back`, `next`) can lead to another site
 * or put a line break or a character Node refuses in a header into the Location line.
 */
function redirectTarget(to: string): string {
  return sitePath(to) ?? '/';
}

function takeFlash(req: FastifyRequest, reply: FastifyReply): Flash | null {
  const raw = req.cookies[FLASH_COOKIE];
  if (!raw) return null;
  reply.clearCookie(FLASH_COOKIE, { path: '/' });
  try {
    const value = JSON.parse(raw) as Flash;
    return typeof value.message === 'string' ? { ok: value.ok === true, message: value.message } : null;
  } catch {
    return null;
  }
}
