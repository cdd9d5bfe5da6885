import type { ErrorCode, FailureCode, PageFormCode } from './errors.ts';
import type { Translate } from './i18n.ts';

/**
 * What a handler decides, before it is rendered as JSON or as HTML. Every answer of docs/reference.md#the-api's
 * Errors table is one of these, so the rendering of each lives in one place (kernel/render.ts).
 * `D` is the `data` of a success: an endpoint is generic over it (kernel/route.tsx), so its page
 * receives the presenter's type.
 */
export interface Warning {
  field: string;
  reason: string;
}

/**
 * A success's `data` already written as JSON text (freights/presented.ts: a view sent from its
 * stored presentation): the JSON answer carries it as it is, never parsed and written again. Only
 * a JSON answer has one; a page's handler never gets it.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** `data` given as its JSON text, typed as the data it is the text of (renderJson sends it as it is). */
export const okJsonText = <D>(text: string): Success<D> => ({ kind: 'ok', data: new JsonText(text) as D });

/** 200, status success */
export interface Success<D> {
  kind: 'ok';
  data: D;
  warnings?: Warning[];
}

/**
 * 200, status error: a functional failure. Its `code` is stable and listed (kernel/errors.ts):
 * the message key its `message` was read from, in the caller's language.
 */
export interface Failure {
  kind: 'error';
  code: FailureCode | PageFormCode;
  message: string;
  data?: unknown;
}

/** 404, data [] (missing or not visible: indistinguishable) */
export interface NotFound {
  kind: 'not_found';
}

/** 302 to an HTML page: publish, confirm and refusals (docs/reference.md#the-api). `ok` tells the page which flash to show. */
export interface Redirect {
  kind: 'redirect';
  to: string;
  ok: boolean;
  message?: string;
}

/** A refusal with its own HTTP status (401, 406 file push, 413 too large, 429 throttled), in the envelope. */
export interface Rejected {
  kind: 'rejected';
  status: number;
  code: ErrorCode;
  message: string;
}

export type Outcome<D = unknown> = Success<D> | Failure | NotFound | Redirect | Rejected;

/** What a page renders: a success with its data, or a functional failure. */
export type Answer<D = unknown> = Success<D> | Failure;

export const ok = <D>(data: D, warnings?: Warning[]): Success<D> => ({ kind: 'ok', data, warnings });
/** A functional failure: `code` is a listed message key, the message its text in the caller's language (`t`). */
export const fail = (t: Translate, code: FailureCode, vars?: Record<string, string | number>, data?: unknown): Failure => ({
  kind: 'error',
  code,
  message: t(code, vars),
  data,
});
/** A functional failure whose message is built otherwise (the page's own words for the same code). */
export const failWith = (code: FailureCode | PageFormCode, message: string, data?: unknown): Failure => ({
  kind: 'error',
  code,
  message,
  data,
});
export const notFound = (): NotFound => ({ kind: 'not_found' });
export const redirect = (to: string, ok: boolean, message?: string): Redirect => ({ kind: 'redirect', to, ok, message });
export const rejected = (status: number, code: ErrorCode, message: string): Rejected => ({ kind: 'rejected', status, code, message });
