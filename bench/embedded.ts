import os from 'node:os';
import { CompiledQuery } from 'kysely';
import { createPglite, openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

/**
 * What one statement costs on the embedded database, per statement (µs of wall time and of this
 * process's CPU), for statements of the exchange's shapes on a table of 20,000 rows:
 * - `pglite.query`: PGlite's own client call, which sends Parse and Describe to learn the
 *   parameters' types, then Bind, Describe, Execute and Sync: five calls into PGlite;
 * - `kysely`: the app's path (src/db/embedded.ts: the statement in one call, a turn of the event
 *   loop before it);
 * - `floor`: the same protocol messages in one call, prepared once outside the loop, answer not
 *   parsed: what PGlite itself needs (planning and executing included).
 *
 * BENCH_STATEMENTS (default 3,000) statements per shape and path; BENCH_ROUNDS (default 3) rounds.
 * The database is the app's, migrated: PGlite's parsers then number one per type of the schema
 * (~380; a bare database has ~170), which is what the app's statements meet. BENCH_BARE=1 leaves it
 * unmigrated, as this bench measured before 2026-11-30.
 */
const N = Number(process.env.BENCH_STATEMENTS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const client = await createPglite();
const database = await openDatabase({ databaseUrl: undefined, dataDir: '' }, { pglite: client, migrate: false });
const db = database.db;
if (process.env.BENCH_BARE !== '1') await migrateToLatest(db);
await client.exec(`
  create table bench_freights (id int primary key, company_id int not null, status text not null, price numeric(12, 2),
    pickup timestamptz not null, places jsonb not null, tags text[] not null);
  insert into bench_freights
    select g, 1 + g % 50, case when g % 3 = 0 then 'open' else 'taken' end, g * 1.25, now() + g * interval '1 minute',
      jsonb_build_object('from', 'DE-' || (10000 + g % 90000), 'to', 'NL-' || (1000 + g % 9000)), array['a', 'b']
    from generate_series(1, 20000) g;
  analyze bench_freights;`);

type Shape = { name: string; text: string; params: (i: number) => unknown[] };
const shapes: Shape[] = [
  { name: 'one row by key', text: 'select * from bench_freights where id = $1', params: (i) => [1 + (i % 20000)] },
  {
    name: 'a page of 25 rows',
    text: 'select id, status, price, pickup, places from bench_freights where company_id = $1 and status = $2 order by id desc limit 25',
    params: (i) => [1 + (i % 50), 'taken'],
  },
  { name: 'update by key', text: 'update bench_freights set price = $2 where id = $1', params: (i) => [1 + (i % 20000), '10.50'] },
  { name: 'a count', text: 'select count(*)::int as n from bench_freights where company_id = $1', params: (i) => [1 + (i % 50)] },
];

const { protocol } = await import('@electric-sql/pglite');
const { serialize } = protocol;
async function measure(run: (i: number) => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  for (let i = 0; i < 200; i++) await run(i); // warm
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await run(i);
  const wall = ((performance.now() - t0) * 1000) / N;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / N };
}

console.log(
  `bench:embedded — ${N} statements per shape and path, ${ROUNDS} rounds, ${Object.keys(client.parsers).length} parsers; load average ${os.loadavg()[0]!.toFixed(2)}`,
);
console.log('µs per statement, wall / CPU of this process\n');
console.log(`| statement | round | pglite.query | kysely (the app's path) | floor (one call, answer not parsed) |`);
console.log('|---|---|---|---|---|');
for (const shape of shapes) {
  for (let round = 1; round <= ROUNDS; round++) {
    const own = await measure((i) => client.query(shape.text, shape.params(i)));
    const app = await measure((i) => db.executeQuery(CompiledQuery.raw(shape.text, shape.params(i))));
    const messages = Array.from({ length: 50 }, (_, i) =>
      Buffer.concat([
        serialize.parse({ text: shape.text }),
        serialize.bind({ values: shape.params(i).map(String) }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    const floor = await measure((i) => client.execProtocolStream(messages[i % 50]!));
    const cell = (m: { wall: number; cpu: number }) => `${m.wall.toFixed(0)} / ${m.cpu.toFixed(0)}`;
    console.log(`| ${shape.name} | ${round} | ${cell(own)} | ${cell(app)} | ${cell(floor)} |`);
  }
}
await database.close();
