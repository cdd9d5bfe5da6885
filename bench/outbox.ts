// npm run bench:outbox — what numbering the outbox at commit costs its writers (docs/choices.md,
// Live board: "Replay in the order of commits"). A/B on one database: the same writes with the
// commit-time position (migration 0190's deferred trigger) and with the trigger disabled (the
// position left unset: the order of writing), alternated A, B, A, B so that drift hits both.
// - one writer: a transaction that writes an event for its company and a market row (what a
//   publish writes) and notifies, one at a time, p50 and p99;
// - eight writers at once (the case the commit-time lock serialises): transactions per second;
// - publishing a freight over HTTP, one at a time, p50 (the whole request, for scale).
// The floor beside each: a transaction of one primary-key select on the same pool. PostgreSQL when
// DATABASE_URL (or BENCH_DATABASE_URL) names a server (a fresh database, dropped afterwards);
// the embedded database otherwise (one connection: eight writers take turns).
import { sql } from 'kysely';
import { announce } from '../src/webhooks/outbox.ts';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase } from './setup.ts';

const WRITES = Number(process.env.BENCH_WRITES ?? 1000);
const WRITERS = 8;
const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 160);
/** Rounds of A and B, alternating which goes first. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

const { database, label, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;
const clock = app.services.clock;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const ms = (x: number) => x.toFixed(2);

try {
  const [owner] = await benchCompanies(db, app.tokens, 1);
  const company = owner!.company;
  const base = await listenLocal(app.http);
  const write = () =>
    db.transaction().execute((trx) =>
      announce(trx, clock, 'freight.published', [
        { companyId: company, freightId: 1, from: [company], data: () => ({ route: { id: 1, note: 'owner' } }) },
        { companyId: null, freightId: 1, from: [company], except: [company], data: () => ({ route: { id: 1, note: 'market' } }) },
      ]),
    );
  const floorOnce = () => db.transaction().execute((trx) => sql`select id from companies where id = ${company}`.execute(trx));
  const timed = async (n: number, work: () => Promise<unknown>) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await work();
      out.push(performance.now() - t0);
    }
    return out;
  };
  const concurrent = async (n: number) => {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: WRITERS }, () => timed(Math.ceil(n / WRITERS), write)));
    return (WRITERS * Math.ceil(n / WRITERS)) / ((performance.now() - t0) / 1000);
  };
  const publish = async () => {
    const headers = { authorization: `TokenPass ${owner!.token}`, 'content-type': 'application/json' };
    const add = await fetch(`${base}/freights/add.json`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ from: 'airport:FRA', to: 'airport:AMS', weight: 100 }),
    });
    const id = ((await add.json()) as { data: { id: number } }).data.id;
    const t0 = performance.now();
    const res = await fetch(`${base}/freights/view/${id}.json`, {
      method: 'POST',
      redirect: 'manual',
      headers,
      body: '{"action":"publish"}',
    });
    await res.text();
    return performance.now() - t0;
  };
  const setTrigger = (on: boolean) => sql.raw(`alter table events ${on ? 'enable' : 'disable'} trigger events_position`).execute(db);

  await timed(200, write); // warm up
  const results: Record<'at commit' | 'at writing', { one: number[]; tps: number[]; publish: number[]; floor: number[] }> = {
    'at commit': { one: [], tps: [], publish: [], floor: [] },
    'at writing': { one: [], tps: [], publish: [], floor: [] },
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of (round % 2 ? ['at writing', 'at commit'] : ['at commit', 'at writing']) as Array<keyof typeof results>) {
      await setTrigger(name === 'at commit');
      const r = results[name];
      r.floor.push(...(await timed(WRITES / ROUNDS, floorOnce)));
      r.one.push(...(await timed(WRITES / ROUNDS, write)));
      r.tps.push(await concurrent(WRITES / ROUNDS));
      for (let i = 0; i < PUBLISHES / ROUNDS; i++) r.publish.push(await publish());
    }
  }
  await setTrigger(true);
  const unset = await sql<{ n: number }>`select count(*)::int as n from events where pos is null`.execute(db);
  console.log(
    `${label}: ${WRITES} outbox transactions one at a time and ${WRITES} by eight writers per variant (2 rows each), ${PUBLISHES} publishes; rows without a position (trigger off): ${unset.rows[0]!.n}`,
  );
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `position ${name}: one writer p50 ${ms(pct(r.one, 0.5))} ms p99 ${ms(pct(r.one, 0.99))} ms; ${WRITERS} writers ${Math.round(
        r.tps.reduce((a, b) => a + b, 0) / r.tps.length,
      )} tx/s; publish p50 ${ms(pct(r.publish, 0.5))} ms  (floor: one-select transaction p50 ${ms(pct(r.floor, 0.5))} ms)`,
    );
  }
} finally {
  await app.http.close();
  await database.close();
  await drop?.();
}
