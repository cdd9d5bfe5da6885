/**
 * What a handler decides, before it is rendered as JSON or as HTML. Every answer of api.md's
 * Errors table is one of these, so the rendering of each lives in one place (kernel/render.ts).
 */
export interface Warning {
  field: string;
  reason: string;
}

export type Outcome =
  /** 200, status success */
  | { kind: 'ok'; data: unknown; warnings?: Warning[] }
  /** 200, status error: a functional failure */
  | { kind: 'error'; message: string; data?: unknown }
  /** 404, data [] (missing or not visible: indistinguishable) */
  | { kind: 'not_found' }
  /** 302 to an HTML page: publish, confirm and refusals (api.md). `ok` tells the page which flash to show. */
  | { kind: 'redirect'; to: string; ok: boolean; message?: string }
  /** A transport-level refusal with its own code (406 file push, 413 too large, 400 unreadable). */
  | { kind: 'rejected'; code: number; message: string };

export const ok = (data: unknown, warnings?: Warning[]): Outcome => ({ kind: 'ok', data, warnings });
export const fail = (message: string, data?: unknown): Outcome => ({ kind: 'error', message, data });
export const notFound = (): Outcome => ({ kind: 'not_found' });
export const redirect = (to: string, ok: boolean, message?: string): Outcome => ({ kind: 'redirect', to, ok, message });
export const rejected = (code: number, message: string): Outcome => ({ kind: 'rejected', code, message });
