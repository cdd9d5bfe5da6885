import http from 'node:http';
/** A Server-Sent Events reader for the live board's tests: fetch, parse, wait for events. */

export interface SseEvent {
  id: string | undefined;
  data: string;
  json: any;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The body of a refusal (not an event stream), parsed when JSON. */
  refusal: any;
  events: SseEvent[];
  comments: string[];
  /** Resolves when the server ended the stream (or it was closed here). */
  ended: Promise<void>;
  isEnded(): boolean;
  /** The first event (from `from` on) that satisfies `match`, waiting up to `ms`. */
  waitFor(match: (e: SseEvent) => boolean, ms?: number, from?: number): Promise<SseEvent>;
  close(): void;
}

export interface OpenOptions {
  token?: string;
  cookie?: string;
  lastEventId?: string;
}

export async function openStream(base: string, options: OpenOptions = {}): Promise<SseStream> {
  const headers: Record<string, string> = { accept: 'text/event-stream', 'user-agent': 'live-tests / 1.0' };
  if (options.token) headers.authorization = `TokenPass ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  // node:http, one connection per stream, no pool: closing it here closes its socket at once.
  const req = http.get(`${base}/events/stream`, { headers, agent: false });
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  req.on('error', () => {});
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  let refusal: any = null;
  let endedPromise: Promise<void>;
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) responseHeaders.set(name, String(value));
  if (!String(res.headers['content-type']).startsWith('text/event-stream')) {
    let text = '';
    for await (const chunk of res) text += chunk;
    try {
      refusal = JSON.parse(text);
    } catch {
      refusal = text;
    }
    ended = true;
    endedPromise = Promise.resolve();
  } else {
    endedPromise = (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res as AsyncIterable<Buffer>) {
          buffer += decoder.decode(chunk, { stream: true });
          let at = buffer.indexOf('\n\n');
          while (at >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            let id: string | undefined;
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) comments.push(line.slice(1).trim());
              else if (line.startsWith('id:')) id = line.slice(3).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
            }
            if (data.length) {
              const text = data.join('\n');
              events.push({ id, data: text, json: JSON.parse(text) });
            }
            at = buffer.indexOf('\n\n');
          }
          wake();
        }
      } catch {
        /* closed here */
      } finally {
        ended = true;
        wake();
      }
    })();
  }
  return {
    status: res.statusCode ?? 0,
    headers: responseHeaders,
    refusal,
    events,
    comments,
    ended: endedPromise,
    isEnded: () => ended,
    waitFor(match, ms = 5000, from = 0) {
      return new Promise<SseEvent>((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(match);
          if (found) {
            done();
            resolve(found);
          } else if (ended) {
            done();
            reject(new Error(`stream ended; events: ${events.map((e) => e.json.type).join(', ')}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no matching event within ${ms} ms; got: ${events.map((e) => `${e.json.type}#${e.json.company}`).join(', ')}`));
        }, ms);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close() {
      req.destroy();
    },
  };
}

/** Events of a type about one freight (`data.route.id`). */
export const about = (type: string, freight: number) => (e: SseEvent) => e.json.type === type && e.json.data?.route?.id === freight;
