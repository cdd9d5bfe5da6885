import http from 'node:http';
import https from 'node:https';
import type { AddressRule } from '../config/webhooks.ts';
import { AddressRefused, guardedLookup, refuseLiteral } from './address.ts';

export interface SendResult {
  /** The receiver's HTTP status; null when no answer came (refused, timeout, reset, …). */
  status: number | null;
  /**
   * What the company's delivery log shows: null with an answer, else one of the wordings below.
   * Without an HTTP answer it is always NO_ANSWER, so the log cannot tell a closed port from a
   * filtered one, a reset, a TLS or a DNS failure (it would map the network the server sees).
   */
  error: string | null;
  /** What went wrong in full (the error's code and message), for the server's log only. */
  detail: string | null;
  durationMs: number;
}

/** The delivery log's one wording for every attempt that got no HTTP answer. */
export const NO_ANSWER = 'no HTTP answer (the connection failed, was closed, or timed out)';
/** The delivery log's wording for an address the rule refuses (the server's own decision). */
export const ADDRESS_REFUSED = 'address refused: not a public address';

export interface SendOptions {
  timeoutMs: number;
  /** Which addresses may be reached (checked on the resolved address, then connected to). */
  addresses: AddressRule;
  signal?: AbortSignal;
}

const USER_AGENT = 'freight-exchange-webhooks/1';

/**
 * One POST of a webhook body. Redirects are not followed (a 3xx is a failed attempt, as the
 * Standard Webhooks specification advises); the whole exchange is bounded by the timeout; the
 * answer's body is not read. A fresh connection each time (no pooling), so every attempt's
 * address is checked.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null, detail: string | null = error): SendResult => ({
    status,
    error,
    detail: detail?.slice(0, 300) ?? null,
    durationMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(done(null, 'invalid URL'));
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return resolve(done(null, 'only http and https'));
    if (options.addresses !== 'any') {
      const refused = refuseLiteral(target.hostname, options.addresses);
      if (refused) return resolve(done(null, ADDRESS_REFUSED, refused.message));
    }
    const client = target.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(target, {
      method: 'POST',
      agent: false,
      signal: options.signal,
      lookup: options.addresses === 'any' ? undefined : (guardedLookup(options.addresses) as never),
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': USER_AGENT,
        ...headers,
      },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('response', (res) => {
      finish(done(res.statusCode ?? null, null));
      res.destroy();
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const detail = err.code && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : err.message;
      if (err.name === 'AbortError') return finish(done(null, 'server stopping', detail));
      if (err instanceof AddressRefused) return finish(done(null, ADDRESS_REFUSED, detail));
      finish(done(null, NO_ANSWER, detail));
    });
    req.end(body);
  });
}
