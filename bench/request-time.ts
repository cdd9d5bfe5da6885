// Where a request's time went, at pg's client: how long it waited for a pooled connection, how many
// statements it sent and how long they took to answer (PostgreSQL's work, the wire, and the wait
// of the answer's callback behind the process's other work), and the rest (the request's own work
// in the process, and its waits in the event loop's queue). For benches that serve requests in
// their own process (bench:book's race). Only the requests' own statements are counted: a request is
// marked where Node's server starts it, and its async continuations carry the mark.
import fs from 'node:fs';
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import { type EventLoopUtilization, performance as hooks } from 'node:perf_hooks';
import type { IncomingMessage } from 'node:http';
import pg from 'pg';

export interface RequestTime {
  url: string;
  /** From the request's start to its response's end, ms. */
  total: number;
  statements: number;
  /** The statements' texts, in the order sent. */
  texts: string[];
  /** The statements' time, each from its send to its answer, ms. */
  statementMs: number;
  /** Waits for a connection of the pool, ms. */
  poolWaitMs: number;
}

const marks = new WeakMap<IncomingMessage, { started: number; time: RequestTime }>();

/** Starts timing every request of this process; `take()` answers the ones finished since the last take. */
export function timeRequests(): { take: () => RequestTime[] } {
  const current = new AsyncLocalStorage<RequestTime>();
  let finished: RequestTime[] = [];
  subscribe('http.server.request.start', (message) => {
    const { request } = message as { request: IncomingMessage };
    const time: RequestTime = { url: request.url ?? '', total: 0, statements: 0, texts: [], statementMs: 0, poolWaitMs: 0 };
    marks.set(request, { started: performance.now(), time });
    current.enterWith(time);
  });
  subscribe('http.server.response.finish', (message) => {
    const { request } = message as { request: IncomingMessage };
    const mark = marks.get(request);
    if (!mark) return;
    mark.time.total = performance.now() - mark.started;
    finished.push(mark.time);
  });
  const timed = <A extends unknown[]>(
    original: (...args: A) => unknown,
    add: (time: RequestTime, ms: number) => void,
    start?: (time: RequestTime, args: A) => void,
  ) =>
    function (this: unknown, ...args: A) {
      const result = original.apply(this, args);
      const time = current.getStore();
      if (time) start?.(time, args);
      // Timed when it answers a promise, as Kysely calls it; a call that answers none is only counted.
      if (time && result instanceof Promise) {
        const sent = performance.now();
        const done = () => add(time, performance.now() - sent);
        result.then(done, done);
      }
      return result;
    };
  pg.Client.prototype.query = timed(
    pg.Client.prototype.query as (...args: unknown[]) => unknown,
    (t, ms) => {
      t.statementMs += ms;
    },
    (t, [query]) => {
      t.statements++;
      t.texts.push(typeof query === 'string' ? query : String((query as { text?: string })?.text ?? query));
    },
  ) as typeof pg.Client.prototype.query;
  pg.Pool.prototype.connect = timed(pg.Pool.prototype.connect as (...args: unknown[]) => unknown, (t, ms) => {
    t.poolWaitMs += ms;
  }) as typeof pg.Pool.prototype.connect;
  return {
    take: () => {
      const out = finished;
      finished = [];
      return out;
    },
  };
}

/** The mean of each part over `times`, as a line: `waiting for a connection 399 ms, 25.5 statements 250 ms, the rest 206 ms`. */
export function timeParts(times: readonly RequestTime[]): string {
  if (!times.length) return 'none';
  const mean = (f: (t: RequestTime) => number) => times.reduce((a, t) => a + f(t), 0) / times.length;
  const [total, wait, statements, statementMs] = [
    mean((t) => t.total),
    mean((t) => t.poolWaitMs),
    mean((t) => t.statements),
    mean((t) => t.statementMs),
  ];
  return `mean ${total.toFixed(0)} ms: waiting for a connection ${wait.toFixed(0)} ms, ${statements.toFixed(1)} statements ${statementMs.toFixed(0)} ms, the rest ${(total - wait - statementMs).toFixed(0)} ms`;
}

/**
 * The server's thread and the database's processes on the CPUs over a measurement (Linux's
 * /proc schedstat: time run, and time waited in the run queue, ready but without a CPU): on a
 * machine whose cores the server shares with PostgreSQL and the load generator, a request's
 * waits are the thread's turn as much as its own work. `stop` tells it in one line; nothing
 * where /proc has no schedstat.
 */
export function scheduleShare(): { stop: () => string | undefined } {
  const read = (file: string) => fs.readFileSync(file, 'utf8').trim().split(' ').map(Number) as [number, number, number];
  const thread = () => read(`/proc/self/task/${process.pid}/schedstat`);
  const database = () => {
    let [ran, waited] = [0, 0];
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (!fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) continue;
        const [r, w] = read(`/proc/${pid}/schedstat`);
        ran += r;
        waited += w;
      } catch {
        // A process that ended meanwhile.
      }
    }
    return [ran, waited] as const;
  };
  let start: {
    thread: [number, number, number];
    database: readonly [number, number];
    loop: EventLoopUtilization;
    process: NodeJS.CpuUsage;
    at: number;
  };
  try {
    start = {
      thread: thread(),
      database: database(),
      loop: hooks.eventLoopUtilization(),
      process: process.cpuUsage(),
      at: performance.now(),
    };
  } catch {
    return { stop: () => undefined };
  }
  return {
    stop() {
      const [t, d] = [thread(), database()];
      const used = process.cpuUsage(start.process);
      const ms = (ns: number) => `${Math.round(ns / 1e6).toLocaleString('en')} ms`;
      const wall = performance.now() - start.at;
      return (
        `the server's thread ran ${ms(t[0] - start.thread[0])} and waited for a CPU ${ms(t[1] - start.thread[1])} ` +
        `of ${Math.round(wall).toLocaleString('en')} ms (its event loop busy ${(hooks.eventLoopUtilization(start.loop).utilization * 100).toFixed(0)} %); ` +
        `PostgreSQL's processes ran ${ms(d[0] - start.database[0])} and waited ${ms(d[1] - start.database[1])}; ` +
        // The process's other threads: the load generator's worker, the garbage collector's helpers.
        `the process's other threads ran ${ms((used.user + used.system) * 1000 - (t[0] - start.thread[0]))}`
      );
    },
  };
}
