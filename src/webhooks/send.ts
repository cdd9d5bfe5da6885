import http from 'node:http';
import https from 'node:https';
import { guardedLookup, refuseLiteral } from './address.ts';

export interface SendResult {
  /** The receiver's HTTP status; null when no answer came (refused, timeout, reset, …). */
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  /** Production: only public addresses (checked on the resolved address, then connected to). */
  publicOnly: boolean;
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
  const done = (status: number | null, error: string | null): SendResult => ({
    status,
    error: error?.slice(0, 300) ?? null,
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
    if (options.publicOnly) {
      const refused = refuseLiteral(target.hostname);
      if (refused) return resolve(done(null, refused.message));
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
      lookup: options.publicOnly ? (guardedLookup as never) : undefined,
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
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish(
        done(
          null,
          err.name === 'AbortError'
            ? 'server stopping'
            : err.code && !err.message.includes(err.code)
              ? `${err.code}: ${err.message}`
              : err.message,
        ),
      ),
    );
    req.end(body);
  });
}
