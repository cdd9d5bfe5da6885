/**
 * What a handler decides, before it is rendered as JSON or as HTML. Every answer of api.md's
 * Errors table is one of these, so the rendering of each lives in one place (kernel/render.ts).
 * `D` is the `data` of a success: an endpoint is generic over it (kernel/route.tsx), so its page
 * receives the presenter's type.
 */
export interface Warning {
  field: string;
  reason: string;
}

/** 200, status success */
export interface Success<D> {
  kind: 'ok';
  data: D;
  warnings?: Warning[];
}

/** 200, status error: a functional failure */
export interface Failure {
  kind: 'error';
  message: string;
  data?: unknown;
}

/** 404, data [] (missing or not visible: indistinguishable) */
export interface NotFound {
  kind: 'not_found';
}

/** 302 to an HTML page: publish, confirm and refusals (api.md). `ok` tells the page which flash to show. */
export interface Redirect {
  kind: 'redirect';
  to: string;
  ok: boolean;
  message?: string;
}

/** A transport-level refusal with its own code (406 file push, 413 too large, 400 unreadable). */
export interface Rejected {
  kind: 'rejected';
  code: number;
  message: string;
}

export type Outcome<D = unknown> = Success<D> | Failure | NotFound | Redirect | Rejected;

/** What a page renders: a success with its data, or a functional failure. */
export type Answer<D = unknown> = Success<D> | Failure;

export const ok = <D>(data: D, warnings?: Warning[]): Success<D> => ({ kind: 'ok', data, warnings });
export const fail = (message: string, data?: unknown): Failure => ({ kind: 'error', message, data });
export const notFound = (): NotFound => ({ kind: 'not_found' });
export const redirect = (to: string, ok: boolean, message?: string): Redirect => ({ kind: 'redirect', to, ok, message });
export const rejected = (code: number, message: string): Rejected => ({ kind: 'rejected', code, message });
