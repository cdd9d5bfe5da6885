import type { ServerResponse } from 'node:http';
import type { Kysely } from 'kysely';
import type { Listen } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import { marketFreightsOf, marketViewers } from './audience.ts';
import type { Clock } from '../kernel/time.ts';
import { eventsAfter, eventsAt, type FeedRow, LIVE_CHANNEL, positionOfEvent, positionsOf, REPLAY_MS } from '../webhooks/index.ts';

/**
 * The live board's streams of one server process (docs/reference.md#live-board). Events are the outbox's
 * rows (webhooks/feed.ts): a company's own rows go to its streams; a market row to the streams of
 * every company that may see the freight in the market at that moment (audience.ts, over the freights' read model:
 * in the market, admitted by visibility, not blocked; the companies that got a row of their own
 * are left out). The process listens once (one database connection, not one per stream); a
 * notification names the positions of new events, and the hub reads those rows once for all its
 * streams. A stream reconnecting with `Last-Event-ID` is first given what it missed (REPLAY_MS
 * back), while what arrives meanwhile waits. Each stream keeps the position (order of commits)
 * of the last event it was given or that its replay read past, and never sends a position at or
 * below it: an event both the replay and the live reader read (its notification arriving, or read,
 * after the replay had sent it) goes once, and none goes after a later one (docs/choices.md,
 * Reliability: "Exactly once, in the order of commits, across a reconnect").
 *
 * Nothing here is needed by another process: a stream lives on the connection it serves, and
 * whatever it missed is in the database.
 */

/** Streams one user may hold open on one process (a browser opens one per visible tab). */
export const MAX_STREAMS_PER_USER = 10;
/** A comment line this often keeps proxies and clients from taking the stream for dead. */
export const HEARTBEAT_MS = 25_000;
/**
 * A stream whose client does not read is cut off (its socket destroyed, not ended: an end waits
 * for the client to take what is queued): when more than this waits in the process beyond what
 * the kernel holds, or when the kernel's buffer stays full STALL_MS (docs/choices.md, Reliability:
 * "A stream that does not read is cut off"). Its client replays on reconnect.
 */
export const MAX_BUFFERED = 256 * 1024;
/** How long a stream's socket may stay full (no `drain`) before it is cut off. */
export const STALL_MS = 30_000;
/** Rows a replay reads at a time. */
const REPLAY_BATCH = 500;
/** What a client waits before reconnecting (the SSE `retry` field), in milliseconds. */
const RETRY_MS = 3_000;

export interface HubOptions {
  db: Kysely<DB>;
  clock: Clock;
  listen: Listen;
  log?: { error: (obj: object, msg: string) => void; warn?: (obj: object, msg: string) => void };
  heartbeatMs?: number;
  maxPerUser?: number;
  /** STALL_MS (tests shorten it) */
  stallMs?: number;
}

interface Stream {
  userId: number;
  companyId: number;
  res: ServerResponse;
  /** While the replay runs: the live events that arrived meanwhile, sent after it (those past `sent`). */
  waiting: Array<{ pos: number; text: string }> | null;
  /**
   * The position (order of commits) of the last event sent or read past by the replay: a live
   * event at or below it was sent already (or was not the stream's when the replay read it).
   */
  sent: number;
  /** Armed while the socket is full: cuts the stream off unless it drains first. */
  stall: NodeJS.Timeout | null;
}

export interface Opener {
  userId: number;
  companyId: number;
}

export type OpenResult = 'open' | 'too_many' | 'closing';

/** `id:` and `data:` of one event; the body is one line of JSON, the company named in it. */
function frame(row: FeedRow, companyId: number): string {
  // A market row is written once for every company: its body names no company (`"company":null`,
  // the first such key, before `data`); each stream's copy names its own.
  const body = row.company_id === null ? row.body.replace('"company":null', `"company":${companyId}`) : row.body;
  return `id: ${row.id}\ndata: ${body}\n\n`;
}

export class LiveHub {
  private readonly streams = new Set<Stream>();
  private readonly byCompany = new Map<number, Set<Stream>>();
  private readonly perUser = new Map<number, number>();
  private listening: Promise<() => Promise<void>> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private closing = false;
  /** Positions notified and not read yet; read in order, one statement for a burst. */
  private queue: number[] = [];
  private draining: Promise<void> | null = null;
  private readonly maxPerUser: number;

  constructor(private readonly options: HubOptions) {
    this.maxPerUser = options.maxPerUser ?? MAX_STREAMS_PER_USER;
  }

  /** Open streams (all users). */
  get size(): number {
    return this.streams.size;
  }

  /** Whether the user may open one more stream here. */
  admits(userId: number): boolean {
    return !this.closing && (this.perUser.get(userId) ?? 0) < this.maxPerUser;
  }

  /**
   * Serves a stream on `res` until the client leaves or the server stops: the headers at once,
   * then what was missed after `lastEventId` (when given), then every new event.
   */
  async open(
    who: Opener,
    res: ServerResponse,
    headers: Record<string, string | string[] | number>,
    lastEventId?: string,
  ): Promise<OpenResult> {
    const refused: OpenResult | null = this.closing ? 'closing' : !this.admits(who.userId) ? 'too_many' : null;
    if (refused) {
      // Checked by the route before; should it have changed since: an empty stream, the client comes back.
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`retry: ${RETRY_MS}\n\n`);
      return refused;
    }
    const stream: Stream = { userId: who.userId, companyId: who.companyId, res, waiting: [], sent: 0, stall: null };
    this.add(stream);
    res.on('close', () => {
      this.remove(stream);
      // The client left (its request closed): the answer never ends by itself, so its socket,
      // half-closed by the client, is closed here rather than kept until it times out.
      if (!res.writableEnded) res.destroy();
    });
    try {
      await this.start();
    } catch (err) {
      this.remove(stream);
      throw err;
    }
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // Proxies (nginx) pass each event on at once instead of buffering the answer.
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${RETRY_MS}\n: live\n\n`);
    try {
      if (lastEventId !== undefined) await this.replay(stream, lastEventId);
    } catch (err) {
      this.options.log?.error({ err }, 'live: replay failed');
      res.end();
      return 'open';
    }
    const waiting = (stream.waiting ?? []).sort((x, y) => x.pos - y.pos);
    stream.waiting = null;
    for (const w of waiting) this.pass(stream, w.pos, w.text);
    return 'open';
  }

  /** Ends every stream (clients reconnect elsewhere and replay), stops listening and the heartbeat. */
  async stop(): Promise<void> {
    this.closing = true;
    this.endAll();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const listening = this.listening;
    this.listening = null;
    if (listening) await (await listening.catch(() => async () => {}))();
    await this.draining;
  }

  /** Listens on the channel and starts the heartbeat, once, with the first stream. */
  private start(): Promise<unknown> {
    if (!this.listening) {
      this.listening = this.options.listen(
        LIVE_CHANNEL,
        (payload) => this.notified(positionsOf(payload)),
        // Notifications were missed: every stream ends, each client reconnects with its last id and replays.
        () => this.endAll(),
      );
      this.listening.catch(() => {
        this.listening = null;
      });
      const every = this.options.heartbeatMs ?? HEARTBEAT_MS;
      this.heartbeat = setInterval(() => {
        for (const s of this.streams) this.write(s, ': keep-alive\n\n');
      }, every);
      this.heartbeat.unref();
    }
    return this.listening;
  }

  private endAll(): void {
    for (const s of [...this.streams]) {
      this.remove(s);
      s.res.end();
      // Stopping: the connection closes too (an idle keep-alive connection would hold the server's
      // close until its timeout, since the server closed its idle ones before the streams ended).
      if (this.closing) s.res.socket?.end();
    }
  }

  private add(s: Stream): void {
    this.streams.add(s);
    const set = this.byCompany.get(s.companyId) ?? new Set<Stream>();
    this.byCompany.set(s.companyId, set);
    set.add(s);
    this.perUser.set(s.userId, (this.perUser.get(s.userId) ?? 0) + 1);
  }

  private remove(s: Stream): void {
    if (s.stall) clearTimeout(s.stall);
    s.stall = null;
    if (!this.streams.delete(s)) return;
    const set = this.byCompany.get(s.companyId);
    set?.delete(s);
    if (set && !set.size) this.byCompany.delete(s.companyId);
    const n = (this.perUser.get(s.userId) ?? 1) - 1;
    if (n > 0) this.perUser.set(s.userId, n);
    else this.perUser.delete(s.userId);
  }

  private write(s: Stream, text: string): void {
    if (s.res.writableEnded || s.res.destroyed) return;
    if (s.res.writableLength > MAX_BUFFERED) this.cut(s);
    else if (!s.res.write(text)) this.watch(s);
  }

  /** The socket is full: unless it drains within the stall time, the stream is cut off. */
  private watch(s: Stream): void {
    if (s.stall || !this.streams.has(s)) return;
    s.stall = setTimeout(() => this.cut(s), this.options.stallMs ?? STALL_MS);
    s.stall.unref();
    s.res.once('drain', () => {
      if (s.stall) clearTimeout(s.stall);
      s.stall = null;
    });
  }

  /**
   * A client that does not read: its socket is destroyed (an end would wait for it to take what
   * is queued, the kernel's megabytes included, for as long as it stays), nothing held for it; it
   * replays when it comes back.
   */
  private cut(s: Stream): void {
    this.remove(s);
    s.res.destroy();
  }

  private notified(seqs: number[]): void {
    if (!seqs.length || this.closing) return;
    this.queue.push(...seqs);
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length && !this.closing) {
      const seqs = this.queue;
      this.queue = [];
      try {
        await this.deliver(await eventsAt(this.options.db, seqs));
      } catch (err) {
        // The rows could not be read: the streams concerned would miss them; they end and replay instead.
        if (!this.closing) this.options.log?.error({ err }, 'live: reading notified events failed');
        this.endAll();
      }
    }
  }

  /** Sends rows just committed to the streams entitled to them. */
  private async deliver(rows: FeedRow[]): Promise<void> {
    for (const row of rows) {
      if (!this.streams.size) return;
      if (row.company_id !== null) {
        for (const s of this.byCompany.get(row.company_id) ?? []) this.send(s, row);
        continue;
      }
      if (row.freight_id === null) continue;
      const except = new Set(row.except_companies ?? []);
      const companies = [...this.byCompany.keys()].filter((c) => !except.has(c));
      const viewers = await marketViewers(this.options.db, row.freight_id, companies, this.options.clock.now());
      for (const c of viewers) for (const s of this.byCompany.get(c) ?? []) this.send(s, row);
    }
  }

  private send(s: Stream, row: FeedRow): void {
    const text = frame(row, s.companyId);
    if (s.waiting) s.waiting.push({ pos: row.pos, text });
    else this.pass(s, row.pos, text);
  }

  /** Writes the event at `pos` unless the stream is past it already (sent, or read past by the replay). */
  private pass(s: Stream, pos: number, text: string): void {
    if (pos <= s.sent) return;
    s.sent = pos;
    this.write(s, text);
  }

  /**
   * What the stream's company missed after the event `lastEventId`, oldest first, REPLAY_MS back
   * at most (an id no longer kept, or never known: all of that). Market rows only where the
   * company may see the freight in the market now.
   */
  private async replay(s: Stream, lastEventId: string): Promise<void> {
    const { db, clock } = this.options;
    const since = new Date(clock.now().getTime() - REPLAY_MS);
    let after = (lastEventId && (await positionOfEvent(db, lastEventId))) || 0;
    // The client has every event up to its last one (a later live event at or below it is not sent).
    s.sent = Math.max(s.sent, after);
    for (;;) {
      if (s.res.writableEnded || s.res.destroyed) return;
      const rows = await eventsAfter(db, s.companyId, after, since, REPLAY_BATCH);
      const market = rows.filter(
        (r) => r.company_id === null && r.freight_id !== null && !(r.except_companies ?? []).includes(s.companyId),
      );
      const visible = await marketFreightsOf(
        db,
        s.companyId,
        market.map((r) => r.freight_id!),
        clock.now(),
      );
      for (const row of rows) {
        if (row.pos <= s.sent) continue;
        s.sent = row.pos;
        if (row.company_id === null && !(market.includes(row) && visible.has(row.freight_id!))) continue;
        if (!s.res.write(frame(row, s.companyId))) this.watch(s);
      }
      if (rows.length < REPLAY_BATCH) return;
      after = rows[rows.length - 1]!.pos;
      // Backpressure: a long replay waits for the client to take what was written (or to leave).
      if (s.res.writableNeedDrain) {
        await new Promise<void>((resolve) => {
          const done = () => {
            s.res.off('drain', done);
            s.res.off('close', done);
            resolve();
          };
          s.res.once('drain', done);
          s.res.once('close', done);
        });
      }
    }
  }
}
