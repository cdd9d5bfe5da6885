import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';

/**
 * GET /metrics in the Prometheus text format (issue 48; README, "Operating it"). It exists only
 * when METRICS_TOKEN is set, and answers only a request with `Authorization: Bearer <token>`.
 *
 * What each process counts itself (requests, login throttling, its live streams, its replicas'
 * states as it samples them, its memory and event loop) is per process: sum or pick by instance.
 * What is read from the database at the scrape (the queues: webhook outbox, alert queue, mail
 * outbox, waterfall turns) is the same for every process sharing it: take `max()`.
 *
 * The hot path pays one `onResponse` hook per request (a map lookup and a few array writes,
 * RequestHistogram) and only when METRICS_TOKEN is set; everything else is read when Prometheus
 * scrapes.
 */

/** A queue kept in the database, as the scrape reads it. */
export interface QueueStats {
  /** items waiting (queued or retrying) */
  pending: number;
  /** seconds since the oldest waiting item was queued; null: none waits */
  oldestAgeSeconds: number | null;
  /** companies with an item whose last attempt failed (a count, never their names); only queues that deliver to companies */
  failingCompanies?: number;
  /** how long the item due longest has waited past its time, not being worked on (0: none): the workers' lag */
  dueLagSeconds?: number;
}

/** A read replica as this process samples it (db/replicas.ts status()). */
export interface ReplicaSample {
  name: string;
  state: string;
  lag_bytes: number | null;
  reads: number;
}

/** Where the numbers come from; app.ts wires each module's own reader (the modules own their tables). */
export interface MetricSources {
  /**
   * The queues in the database, by name (the `queue` label): `webhooks` (the outbox's deliveries),
   * `alerts` (alerts after the commit), `mail` (the mail outbox) and `waterfalls` (carriers' turns
   * ended and not yet moved on by a sweeper), each read by its module and
   * wired in app.ts. A new queue adds one line there: its series are then fx_queue_pending,
   * fx_queue_oldest_age_seconds and, when it reports them, fx_queue_due_lag_seconds and
   * fx_queue_failing_companies with its name; the README's alerts already cover every queue.
   */
  queues: Record<string, (now: Date) => Promise<QueueStats>>;
  /** PostgreSQL: the connection pool's use (the embedded database has one connection and no pool) */
  pool?: () => { total: number; idle: number; waiting: number };
  /** the live board's open streams in this process */
  liveStreams?: () => number;
  /** the read replicas as this process last sampled them (DATABASE_READ_URL) */
  replicas?: () => readonly ReplicaSample[];
  now: () => Date;
}

/** What the rest of the app tells the metrics (kernel/context.ts Observations). */
export interface Metrics {
  loginThrottled(reason: 'throttled' | 'user_blocked'): void;
  /** The text Prometheus reads (tests and the route). */
  scrape(): Promise<{ contentType: string; text: string }>;
}

/** Label of a request no route matched (404s of unknown paths: their paths would be unbounded). */
const UNMATCHED = '(unmatched)';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const REPLICA_STATES = ['starting', 'ok', 'lagging', 'down'] as const;

/**
 * Sets up the registry, the request hook and GET /metrics on `http`. Call before the routes are
 * registered (the hook then sees every route). Answers the metrics for the app's other parts.
 */
export function attachMetrics(http: FastifyInstance, token: string, sources: MetricSources): Metrics {
  const registry = new Registry();
  // Process memory, CPU, event loop lag (nodejs_eventloop_lag_*), heap, GC, handles: prom-client's own.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const requests = new RequestHistogram(
    'fx_http_request_duration_seconds',
    'Requests by method, route template (with .json for the API) and status, and how long each took to answer.',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  registry.registerMetric(requests as never);
  http.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const method = METHODS.has(req.method) ? req.method : 'OTHER';
    const template = req.routeOptions.url;
    // The API's `.json` (removed before routing, kernel/format.ts) read off the URL without copying it.
    const url = req.originalUrl;
    const q = url.indexOf('?');
    const json = template !== undefined && url.endsWith('.json', q < 0 ? url.length : q) && !template.endsWith('.json');
    requests.observe(method, template ?? UNMATCHED, json, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const throttled = new Counter({
    name: 'fx_login_throttled_total',
    help: 'Logins refused by login throttling (429 for a name or an address; user_blocked: a user blocked under its other name, answered as a failure).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  throttled.labels('throttled').inc(0);
  throttled.labels('user_blocked').inc(0);

  const failedReads = new Counter({
    name: 'fx_metrics_source_errors_total',
    help: 'Scrapes in which a number could not be read from the database (its series keep their last value).',
    labelNames: ['source'] as const,
    registers: [registry],
  });

  // Read before the queues' statements take connections of their own (collected in order of registration).
  const pool = sources.pool;
  if (pool) {
    new Gauge({
      name: 'fx_db_pool_connections',
      help: 'Connections of the PostgreSQL pool of this process (10 at most), by state.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const use = pool();
        this.labels('busy').set(use.total - use.idle);
        this.labels('idle').set(use.idle);
      },
    });
    new Gauge({
      name: 'fx_db_pool_waiting',
      help: 'Queries of this process waiting for a free connection of the pool.',
      registers: [registry],
      collect() {
        this.set(pool().waiting);
      },
    });
  }

  // One scrape reads every queue once, whichever of the three gauges prom-client collects first.
  let queueRead: Promise<void> | null = null;
  const readQueues = () => {
    queueRead ??= (async () => {
      const now = sources.now();
      await Promise.all(
        Object.entries(sources.queues).map(async ([queue, read]) => {
          try {
            const stats = await read(now);
            pending.labels(queue).set(stats.pending);
            oldest.labels(queue).set(stats.oldestAgeSeconds ?? 0);
            if (stats.failingCompanies !== undefined) failing.labels(queue).set(stats.failingCompanies);
            if (stats.dueLagSeconds !== undefined) lag.labels(queue).set(stats.dueLagSeconds);
          } catch {
            failedReads.labels(`queue:${queue}`).inc();
          }
        }),
      );
    })().finally(() => {
      queueRead = null;
    });
    return queueRead;
  };
  const pending = new Gauge({
    name: 'fx_queue_pending',
    help: 'Items waiting in a queue kept in the database (the same for every process: use max()).',
    labelNames: ['queue'] as const,
    registers: [registry],
    collect: readQueues,
  });
  const oldest = new Gauge({
    name: 'fx_queue_oldest_age_seconds',
    help: 'Age of the oldest waiting item of a queue (0 when none waits).',
    labelNames: ['queue'] as const,
    registers: [registry],
    collect: readQueues,
  });
  const lag = new Gauge({
    name: 'fx_queue_due_lag_seconds',
    help: 'How long the item of a queue due longest has waited past its time without being worked on (0: none): the workers are behind.',
    labelNames: ['queue'] as const,
    registers: [registry],
    collect: readQueues,
  });
  const failing = new Gauge({
    name: 'fx_queue_failing_companies',
    help: 'Companies with a waiting item whose last attempt failed (webhooks: receivers that fail), a count, never their names.',
    labelNames: ['queue'] as const,
    registers: [registry],
    collect: readQueues,
  });

  const liveStreams = sources.liveStreams;
  if (liveStreams)
    new Gauge({
      name: 'fx_live_streams',
      help: 'Live board streams (GET /events/stream) open on this process.',
      registers: [registry],
      collect() {
        this.set(liveStreams());
      },
    });

  const replicas = sources.replicas;
  if (replicas) {
    new Gauge({
      name: 'fx_replica_up',
      help: 'Whether a read replica serves reads (1: ok; 0: starting, lagging or down), as this process samples it.',
      labelNames: ['replica'] as const,
      registers: [registry],
      collect() {
        for (const r of replicas()) this.labels(r.name).set(r.state === 'ok' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'fx_replica_state',
      help: 'A read replica’s state: 1 for the state it is in, 0 for the others.',
      labelNames: ['replica', 'state'] as const,
      registers: [registry],
      collect() {
        for (const r of replicas()) for (const s of REPLICA_STATES) this.labels(r.name, s).set(r.state === s ? 1 : 0);
      },
    });
    new Gauge({
      name: 'fx_replica_lag_bytes',
      help: 'Bytes of WAL a read replica has not replayed yet, at the last sample (-1: unknown, the replica did not answer).',
      labelNames: ['replica'] as const,
      registers: [registry],
      collect() {
        for (const r of replicas()) this.labels(r.name).set(r.lag_bytes ?? -1);
      },
    });
    new Gauge({
      name: 'fx_replica_reads',
      help: 'Reads this process sent to a read replica since it started (a counter kept by db/replicas.ts).',
      labelNames: ['replica'] as const,
      registers: [registry],
      collect() {
        for (const r of replicas()) this.labels(r.name).set(r.reads);
      },
    });
  }

  const expected = digest(`Bearer ${token}`);
  http.get('/metrics', async (req, reply) => {
    const given = req.headers.authorization;
    // Compared as digests: equal lengths, and the time taken says nothing about the token.
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('GET /metrics needs the header Authorization: Bearer <METRICS_TOKEN>\n');
    }
    const { contentType, text } = await scrape();
    return reply.header('cache-control', 'no-store').type(contentType).send(text);
  });

  async function scrape() {
    return { contentType: registry.contentType, text: await registry.metrics() };
  }

  return {
    loginThrottled: (reason) => throttled.labels(reason).inc(),
    scrape,
  };
}

/** One series of the request histogram: its labels, the observations per bucket (not cumulative), their sum and count. */
interface Series {
  labels: Record<string, string>;
  counts: number[];
  sum: number;
  count: number;
}

/**
 * The request histogram. prom-client's Histogram hashes its labels again on every observe (2-3 µs
 * a request on the development machine, a child too); this one finds its series by three map
 * lookups of strings Fastify keeps (no key is built) and counts into an array (bench:metrics: the whole hook in well under a microsecond). The
 * registry formats it as its own (it has a histogram's name, help, type and values), so the text
 * is prom-client's: cumulative `_bucket` series with `le`, then `_sum` and `_count`.
 */
class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** method -> route template -> the API's and the pages' series by status: found without building a key */
  private readonly byMethod = new Map<string, Map<string, { json: Map<number, Series>; page: Map<number, Series> }>>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
  ) {}

  observe(method: string, template: string, json: boolean, status: number, seconds: number): void {
    let routes = this.byMethod.get(method);
    if (!routes) {
      routes = new Map();
      this.byMethod.set(method, routes);
    }
    let route = routes.get(template);
    if (!route) {
      route = { json: new Map(), page: new Map() };
      routes.set(template, route);
    }
    const byStatus = json ? route.json : route.page;
    let s = byStatus.get(status);
    if (!s) {
      const labels = { method, route: json ? `${template}.json` : template, status: String(status) };
      s = { labels, counts: new Array(this.buckets.length).fill(0), sum: 0, count: 0 };
      byStatus.set(status, s);
    }
    const b = this.buckets;
    for (let i = 0; i < b.length; i++)
      if (seconds <= b[i]!) {
        s.counts[i]!++;
        break;
      }
    s.count++;
    s.sum += seconds;
  }

  async get() {
    const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
    const series = [...this.byMethod.values()].flatMap((routes) =>
      [...routes.values()].flatMap((r) => [...r.page.values(), ...r.json.values()]),
    );
    for (const s of series) {
      let cumulative = 0;
      for (const [i, le] of this.buckets.entries()) {
        cumulative += s.counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...s.labels }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count });
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.byMethod.clear();
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
