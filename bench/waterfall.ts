// npm run bench:waterfall — the waterfall's sweeper (docs/reference.md#one-step, issue 42: "a sweeper pass
// over 10,000 running waterfalls <= 1 s"), beside its floor measured in the same run.
//
// Over a market of BENCH_FREIGHTS freights (100,000 by default) and BENCH_RUNNING (10,000) running
// waterfalls not yet due (they stay untouched), each round makes BENCH_WATERFALLS (10,000) waterfalls of three
// carriers due at once, a quarter in each case a pass meets: the first turn ended (the second
// carrier's starts), two turns ended (the third's), the last ended with `then` = `market` (the
// whole market, its alert queued), the last ended with `stop` (expired). A third of them carry a
// bid of the carrier whose turn starts (its event shows it), every one a piece. One pass of the
// app's own sweeper (what each server process runs every second) is timed; the result checked:
// every waterfall in its expected state, one `freight.offered` per turn started, the market's
// `freight.published` and the stop's `freight.expired`.
//
// The floor: the same rows written with nothing decided or rendered, in one transaction: the
// freights and the waterfalls updated by primary key, the events the pass wrote inserted again as
// they are (their bodies copied). What is above it is the pass's claim, its reads and rendering.
//
// BENCH_CPU_PROF=<dir>: a CPU profile of each pass (bench/profile.ts; bench/profile-summary.ts reads it).
//
// PostgreSQL when DATABASE_URL (or BENCH_DATABASE_URL) names a server (a fresh database, dropped
// afterwards), else PGlite in memory.
import { sql } from 'kysely';
import { profiled } from './profile.ts';
import { benchCompanies, buildBenchApp, openBenchDatabase, seedMarket } from './setup.ts';

const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 100_000);
const WATERFALLS = Number(process.env.BENCH_WATERFALLS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RUNNING = Number(process.env.BENCH_RUNNING ?? 10_000);
const CARRIERS = 12;

const { database, label, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const count = async (query: ReturnType<typeof sql<{ n: string }>>) => Number((await query.execute(db)).rows[0]?.n ?? 0);

try {
  const users = await benchCompanies(db, app.tokens, CARRIERS + 1);
  const owner = users[0]!;
  const carriers = users.slice(1).map((u) => u.company);
  console.log(`seeding ${FREIGHTS.toLocaleString('en')} freights on ${label} …`);
  await seedMarket(db, users, FREIGHTS);

  /**
   * `n` open freights of the owner in waterfalls of three carriers (rotating), `due` ones whose turn
   * ended (by case i % 4), the others running for another half hour. Answers their ids.
   */
  const waterfalls = async (n: number, due: boolean): Promise<number[]> => {
    const ids = (
      await sql<{ id: number }>`insert into freights (class, type, status, from_code, from_country, to_code, to_country, weight, deadline,
          visibility, whitelist, company_id, user_id, book_now, refs, created, modified)
        select 'rfs', 'AHR', 'open', '60311', 'DE', '75001', 'FR', 12000, now() + interval '3 days', -2,
          array[(${carriers}::int[])[1 + i % ${CARRIERS}]], ${owner.company}::int, ${owner.user}::int, 900, '{}'::json, now(), now()
        from generate_series(1, ${n}) as i returning id`.execute(db)
    ).rows.map((r) => r.id);
    await sql`insert into freight_pieces (freight_id, position, pieces, depth, width, height, weight)
      select id, 0, 2, 120, 80, 100, 500 from unnest(${ids}::int[]) as id`.execute(db);
    // Case by id % 4: 0 the first turn ended; 1 two turns ended; 2 the last ended, market; 3 the last ended, stop.
    await sql`insert into freight_waterfalls (freight_id, carriers, prices, currency, minutes, afterwards, step, step_until, state, created, modified)
      select id, array[(${carriers}::int[])[1 + id % ${CARRIERS}], (${carriers}::int[])[1 + (id + 1) % ${CARRIERS}], (${carriers}::int[])[1 + (id + 2) % ${CARRIERS}]],
        array[900, 950, 1000]::numeric[], 'EUR', 30,
        case when id % 4 = 3 then 'stop' else 'market' end,
        case when id % 4 >= 2 then 2 else 0 end,
        case when not ${due} then now() + interval '30 minutes' when id % 4 = 1 then now() - interval '31 minutes' else now() - interval '1 minute' end,
        'running', now(), now()
      from unnest(${ids}::int[]) as id`.execute(db);
    // A bid of the carrier whose turn starts on every third.
    await sql`insert into bids (freight_id, company_id, user_id, amount, currency_code, status, created, modified)
      select w.freight_id, c.id, u.id, 980, 'EUR', 'open', now(), now()
      from freight_waterfalls w join companies c on c.id = w.carriers[least(w.step + 2 + (w.freight_id % 4 = 1)::int, 3)]
        join lateral (select id from users where company_id = c.id limit 1) u on true
      where w.freight_id = any(${ids}::int[]) and w.freight_id % 3 = 0`.execute(db);
    return ids;
  };
  await waterfalls(RUNNING, false);
  await sql`analyze`.execute(db);

  const passes: number[] = [];
  const floors: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const ids = await waterfalls(WATERFALLS, true);
    await sql`analyze freight_waterfalls`.execute(db);
    const since = await count(sql<{ n: string }>`select coalesce(max(seq), 0) as n from events`);

    const started = performance.now();
    const moved = await profiled('waterfall', `pass-${round}`, () => app.waterfalls.sweep());
    const took = performance.now() - started;
    passes.push(took);

    // The result, case by case.
    const byCase = (
      await sql<{ k: number; state: string; step: number; n: string }>`select freight_id % 4 as k, state, step, count(*) as n
        from freight_waterfalls where freight_id = any(${ids}::int[]) group by 1, 2, 3 order by 1`.execute(db)
    ).rows.map((r) => `${r.k}:${r.state}@${r.step}×${r.n}`);
    const expected = [`0:running@1×`, `1:running@2×`, `2:market@2×`, `3:stopped@2×`];
    const shapeOk = byCase.length === 4 && byCase.every((c, i) => c.startsWith(expected[i]!));
    const events = (
      await sql<{
        type: string;
        n: string;
      }>`select type, count(*) as n from events where seq > ${since} group by type order by type`.execute(db)
    ).rows.map((r) => `${r.type} ${r.n}`);
    const offered = await count(sql<{ n: string }>`select count(*) as n from events where seq > ${since} and type = 'freight.offered'`);
    const leftDue = await count(
      sql<{ n: string }>`select count(*) as n from freight_waterfalls where state = 'running' and step_until <= now()`,
    );

    // The floor: the same rows written by primary key, nothing decided or rendered.
    const floorStarted = performance.now();
    await db.transaction().execute(async (trx) => {
      await sql`update freights set modified = now(), book_now = 950 where id = any(${ids}::int[])`.execute(trx);
      await sql`update freight_waterfalls set modified = now() where freight_id = any(${ids}::int[])`.execute(trx);
      await sql`insert into events (id, type, company_id, freight_id, except_companies, body, created)
        select 'evt_floor_' || seq, type, company_id, freight_id, except_companies, body, created from events where seq > ${since}`.execute(
        trx,
      );
    });
    const floor = performance.now() - floorStarted;
    floors.push(floor);
    console.log(
      `round ${round}: a pass over ${WATERFALLS.toLocaleString('en')} due waterfalls (of ${(RUNNING + WATERFALLS).toLocaleString('en')} running): ${moved} moved in ${ms(took)} | floor ${ms(floor)} | ${byCase.join(' ')} ${shapeOk ? 'ok' : 'WRONG'} | events: ${events.join(', ')} | offered ${offered === WATERFALLS / 2 ? 'ok' : 'WRONG'} | left due ${leftDue}`,
    );
    // Out of the next round's way: this round's waterfalls end (their turns would come due again).
    await sql`update freight_waterfalls set state = 'ended', step_until = null where freight_id = any(${ids}::int[])`.execute(db);
  }
  const sorted = [...passes].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const floorMedian = [...floors].sort((a, b) => a - b)[Math.floor(floors.length / 2)]!;
  console.log(
    `median pass ${ms(median)} (best ${ms(sorted[0]!)}), floor ${ms(floorMedian)}, ×${(median / floorMedian).toFixed(1)} the floor; bar 1,000 ms: ${median <= 1000 ? 'ok' : 'OVER'}`,
  );
} finally {
  await app.http.close();
  await database.close();
  await drop?.();
}
