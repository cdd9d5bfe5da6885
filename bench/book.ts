// npm run bench:book — deals in one step (docs/reference.md#one-step, issue 42), each figure beside its
// floor measured in the same run, over a market of BENCH_FREIGHTS freights (100,000 by default):
//  1. booking (POST /quotes/book, one at a time) beside the plain award's second confirmation
//     (POST /quotes/confirm of a bid the other side confirmed), both with the transport order and
//     the lane cell; the issue's bar: booking's p50 within 1.2x of the confirmation's;
//  2. 50 carriers booking the same 100 loads at once: exactly 100 winners, every other answer a
//     refusal; the issue's bar: p99 <= 200 ms. Read as the issue words it (docs/choices.md, "Book
//     Now's race, as the bench reads it"): 50 carriers acting at once, each one client with one
//     request in flight that goes through the 100 loads in an order of its own (shuffled, so they
//     collide: most loads are asked for by several carriers within a few milliseconds), 5,000
//     requests in all, 50 in flight at any time; the extra line 2b puts all 5,000 in flight at
//     once (a 5,000-deep queue on one process and its 10 connections: no bar, for the record;
//     BENCH_BURST=0 leaves it out). The clients of 2 and 2b run in a worker thread
//     (bench/book-worker.mjs), so their requests never share the server's event loop;
//  3. one sweeper pass over 10,000 running waterfalls whose turn has ended; the bar: <= 1 s.
// PostgreSQL when DATABASE_URL (or BENCH_DATABASE_URL) names a server (a fresh database, dropped
// afterwards), else PGlite in memory (one process: figures 1 and 2 then wait on one another).
// BENCH_CPU_PROF=<dir>: a CPU profile of the server's thread during figures 2 and 3 (bench/profile.ts).
// On PostgreSQL, figure 2 also tells where the winners' and the refusals' time went, at pg's client
// (bench/request-time.ts): waiting for a pooled connection, the statements, the rest; and, where
// Linux tells it, how long the server's thread and PostgreSQL ran and waited for a CPU.
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { sweepWaterfalls } from '../src/freights/index.ts';
import { Clock } from '../src/kernel/time.ts';
import { profiled } from './profile.ts';
import { scheduleShare, timeParts, timeRequests } from './request-time.ts';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase, seedMarket } from './setup.ts';

const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 100_000);
const SINGLE = Number(process.env.BENCH_AWARDS ?? 200);
const CARRIERS = Number(process.env.BENCH_CARRIERS ?? 50);
const LOADS = Number(process.env.BENCH_LOADS ?? 100);
const WATERFALLS = Number(process.env.BENCH_WATERFALLS ?? 10_000);

const { database, label, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;
// Where a race's answers spent their time (PostgreSQL only: the embedded database has no pool).
const requestTimes = label === 'postgres' ? timeRequests() : undefined;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

try {
  const users = await benchCompanies(db, app.tokens, CARRIERS + 2);
  const [owner, bidder] = users;
  const carriers = users.slice(2);
  if (!owner || !bidder) throw new Error('no companies');
  console.log(`seeding ${FREIGHTS.toLocaleString('en')} freights on ${label} …`);
  await seedMarket(db, users, FREIGHTS);
  await sql`analyze`.execute(db);
  const base = await listenLocal(app.http);
  const post = async (path: string, token: string) => {
    const started = performance.now();
    // A connection the burst of line 2b could not open (the listen backlog) is a failed answer, not the bench's end.
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json', 'user-agent': 'bench-book / 1.0' },
      body: '{}',
      redirect: 'manual',
    }).catch(() => null);
    if (!res) return { ms: performance.now() - started, status: 0, ok: false };
    const body = res.headers.get('content-type')?.includes('json') ? ((await res.json()) as { status?: string }) : await res.text();
    return { ms: performance.now() - started, status: res.status, ok: typeof body === 'object' && body.status === 'success' };
  };
  /** `count` open road freights of the owner, Frankfurt -> Paris, with a Book Now price. */
  const openFreights = async (count: number): Promise<number[]> =>
    (
      await sql<{ id: number }>`insert into freights (class, type, status, from_code, from_country, to_code, to_country, weight, deadline,
        visibility, company_id, user_id, book_now, refs, created, modified)
      select 'rfs', 'AHR', 'open', '60311', 'DE', '75001', 'FR', 12000, now() + interval '2 days', 0, ${owner.company}::int, ${owner.user}::int,
        1000 + i, '{}'::json, now(), now() from generate_series(1, ${count}) as i returning id`.execute(db)
    ).rows.map((r) => r.id);

  // 1. Booking beside the plain award's second confirmation, alternating, one request at a time.
  const toBook = await openFreights(SINGLE);
  const toConfirm = await openFreights(SINGLE);
  const bids = (
    await sql<{ id: number }>`insert into bids (freight_id, company_id, user_id, display_company_id, amount, currency_code, status, type,
      bidder_confirmed, created, modified)
    select id, ${bidder.company}::int, ${bidder.user}::int, ${bidder.company}::int, 1000, 'EUR', 'pending', 'buying', true, now(), now()
    from freights where id = any(${toConfirm}::int[]) order by id returning id`.execute(db)
  ).rows.map((r) => r.id);
  await sql`update freights set status = 'pending' where id = any(${toConfirm}::int[])`.execute(db);
  // The statements one winning booking and one refusal send to PostgreSQL (begin and commit
  // included), counted at pg's client (bench/request-time.ts; BENCH_STATEMENTS=1 lists them); before
  // figure 1, on a load of their own.
  if (requestTimes) {
    const [win] = await openFreights(1);
    const counted = async (what: string, path: string, token: string, ok: boolean) => {
      requestTimes.take();
      const r = await post(path, token);
      if (r.ok !== ok) throw new Error(`${what} answered ${r.status} ${r.ok}`);
      const [time] = requestTimes.take().filter((t) => t.url === path);
      if (!time) throw new Error(`${what}: the request was not timed`);
      console.log(`statements per ${what}: ${time.statements}`);
      if (process.env.BENCH_STATEMENTS === '1') for (const t of time.texts) console.log(`    ${t.replace(/\s+/g, ' ').slice(0, 110)}`);
    };
    await counted('winning booking', `/quotes/book/${win}.json`, carriers[0]!.token, true);
    // The token's user is cached a second: read it once first, as a race's refusals find it.
    await counted('refusal (freight taken)', `/quotes/book/${win}.json`, carriers[1]!.token, false);
  }
  const booking: number[] = [];
  const confirming: number[] = [];
  for (let i = 0; i < SINGLE; i++) {
    const b = await post(`/quotes/book/${toBook[i]}.json`, carriers[i % carriers.length]!.token);
    if (!b.ok) throw new Error(`booking ${toBook[i]} answered ${b.status}`);
    booking.push(b.ms);
    const c = await post(`/quotes/confirm/${bids[i]}.json`, owner.token);
    if (c.status !== 200) throw new Error(`confirming bid ${bids[i]} answered ${c.status}`);
    confirming.push(c.ms);
  }
  const ratio = pct(booking, 50) / pct(confirming, 50);
  console.log(
    `1. booking p50 ${ms(pct(booking, 50))} p99 ${ms(pct(booking, 99))} | floor: the award's second confirmation p50 ${ms(pct(confirming, 50))} p99 ${ms(pct(confirming, 99))} | x${ratio.toFixed(2)} (bar: x1.2) ${ratio <= 1.2 ? 'ok' : 'OVER'}`,
  );

  // 2. 50 carriers booking the same 100 loads at once: each carrier one client going through the
  // loads in its own order (a fixed seed: the same collisions every run).
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const shuffled = (ids: readonly number[]) => {
    const out = [...ids];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  type Shot = Awaited<ReturnType<typeof post>>;
  /** Each line's bookings ([token, freight]) one after the other, the lines at once, from a worker thread. */
  const shootFromWorker = (lines: Array<Array<[string, number]>>) =>
    new Promise<Shot[]>((resolve, reject) => {
      const worker = new Worker(new URL('./book-worker.mjs', import.meta.url), { workerData: { base, lines } });
      worker.once('message', (shots: Shot[]) => {
        resolve(shots);
        void worker.terminate();
      });
      worker.once('error', reject);
    });
  const race = async (line: string, loads: number[], shoot: () => Promise<Shot[]>) => {
    const started = performance.now();
    const shots = await profiled(label, line.slice(0, 2), shoot);
    const wall = performance.now() - started;
    const winners = shots.filter((s) => s.ok).length;
    const failures = shots.filter((s) => s.status !== 200).length;
    // Which they were: 0 is a connection the client could not open (the listen backlog).
    const statuses = new Map<number, number>();
    for (const s of shots) if (s.status !== 200) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
    const byStatus = [...statuses].map(([status, n]) => `${n} × ${status}`).join(', ');
    const taken = Number(
      (await sql<{ n: string }>`select count(*) as n from bids where freight_id = any(${loads}::int[]) and status = 'accepted'`.execute(db))
        .rows[0]?.n,
    );
    const times = shots.map((s) => s.ms);
    const won = shots.filter((s) => s.ok).map((s) => s.ms);
    const lost = shots.filter((s) => !s.ok).map((s) => s.ms);
    const p99 = pct(times, 99);
    const exact = winners === LOADS && taken === LOADS;
    return {
      p99,
      exact,
      text: `${line}: ${winners} winners (accepted bids ${taken}; bar: exactly ${LOADS}), ${failures} non-200 answers${byStatus ? ` (${byStatus})` : ''}, p50 ${ms(pct(times, 50))} p99 ${ms(p99)} | winners p50 ${ms(pct(won, 50))} p99 ${ms(pct(won, 99))}, refusals p50 ${ms(pct(lost, 50))} p99 ${ms(pct(lost, 99))} | ${shots.length.toLocaleString('en')} answers in ${ms(wall)}`,
    };
  };
  const loads = await openFreights(LOADS);
  requestTimes?.take();
  const schedule = scheduleShare();
  const acting = await race(`2. ${CARRIERS} carriers acting at once, each through ${LOADS} loads in its own order`, loads, () =>
    shootFromWorker(carriers.map((c) => shuffled(loads).map((id): [string, number] => [c.token, id]))),
  );
  console.log(
    `${acting.text} | floor: the award's second confirmation p50 ${ms(pct(confirming, 50))}, p99 x${(acting.p99 / pct(confirming, 50)).toFixed(1)} of it (bar: p99 200 ms) ${acting.exact && acting.p99 <= 200 ? 'ok' : 'OVER'}`,
  );
  if (requestTimes) {
    // A winner sends the award's two dozen statements, a refusal one or two.
    const times = requestTimes.take().filter((t) => t.url.startsWith('/quotes/book/'));
    console.log(`   at pg's client, winners: ${timeParts(times.filter((t) => t.statements >= 10))}`);
    console.log(`   refusals: ${timeParts(times.filter((t) => t.statements < 10))}`);
  }
  const shared = schedule.stop();
  if (shared) console.log(`   on the CPUs: ${shared}`);
  if (process.env.BENCH_BURST !== '0') {
    const burst = await openFreights(LOADS);
    const all = await race(`2b. (extra, no bar) all ${(CARRIERS * LOADS).toLocaleString('en')} requests in flight at once`, burst, () =>
      shootFromWorker(burst.flatMap((id) => carriers.map((c): Array<[string, number]> => [[c.token, id]]))),
    );
    console.log(`${all.text}, p99 x${(all.p99 / pct(confirming, 50)).toFixed(1)} of the floor ${all.exact ? 'ok' : 'WRONG'}`);
  }

  // 3. One sweeper pass over running waterfalls whose turn has ended (the server closed first: its
  // own sweeper would share the work).
  await app.http.close();
  const falls = await openFreights(WATERFALLS);
  const [c1, c2] = carriers;
  await sql`update freights set visibility = -2, whitelist = array[${c1!.company}::int] where id = any(${falls}::int[])`.execute(db);
  await sql`insert into freight_waterfalls (freight_id, carriers, prices, currency, minutes, afterwards, step, step_until, state, created, modified)
    select id, array[${c1!.company}::int, ${c2!.company}::int], array[900, 900]::numeric[], 'EUR', 30, 'market', 0, now() - interval '1 minute', 'running', now(), now()
    from freights where id = any(${falls}::int[])`.execute(db);
  await sql`analyze freight_waterfalls`.execute(db);
  const clock = new Clock('UTC');
  const started = performance.now();
  const moved = await profiled(label, '3-sweep', () => sweepWaterfalls(db, clock, { enteredMarket: async () => undefined }));
  const took = performance.now() - started;
  const next = Number(
    (
      await sql<{ n: string }>`select count(*) as n from freight_waterfalls where step = 1 and freight_id = any(${falls}::int[])`.execute(
        db,
      )
    ).rows[0]?.n,
  );
  console.log(
    `3. a sweeper pass over ${WATERFALLS.toLocaleString('en')} ended turns: ${moved} moved (${next} at their second turn) in ${ms(took)} (bar: 1,000 ms) ${took <= 1000 && next === WATERFALLS ? 'ok' : 'OVER'}`,
  );
} finally {
  if (app.http.server.listening) await app.http.close();
  await database.close();
  await drop?.();
}
