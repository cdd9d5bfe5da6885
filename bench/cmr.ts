// npm run bench:cmr — the e-CMR (docs/reference.md#ecmr, issue 45): (1) the award with its transport
// order and its e-CMR against the award with its order alone (A/B: this app, and a second app on
// the same database that skips the note, AppOptions.issueCmrs false; alternated rounds, one
// award at a time over HTTP), (2) a signature with its new PDF (POST /freights/cmr-sign, one at a
// time), (3) GET /cmr/verify/{number}.json (one at a time). The floor beside each: one primary-key
// select behind Fastify, one request at a time (bench/floor.ts). Targets: award ratio ≤ 1.3×,
// signature p50 ≤ 150 ms on PostgreSQL, verify p50 ≤ 5 ms. PostgreSQL when DATABASE_URL (or
// BENCH_DATABASE_URL) names a server (a fresh database, dropped afterwards); the embedded one otherwise.
import { sql } from 'kysely';
import { SEED_FLOOR_FREIGHTS } from './floor.ts';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase, startBenchFloor } from './setup.ts';

const AWARDS = Number(process.env.BENCH_AWARDS ?? 200);
const ROUNDS = 2;
const SIGNATURES = Number(process.env.BENCH_SIGNATURES ?? 100);
const VERIFIES = Number(process.env.BENCH_VERIFIES ?? 500);

const bench = await openBenchDatabase();
const { database, drop } = bench;
const db = database.db;
const app = await buildBenchApp(database);
const without = await buildBenchApp(database, { issueCmrs: false });

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const oneAtATime = async (url: string, paths: string[], init: (i: number) => RequestInit = () => ({})) => {
  const ms: number[] = [];
  for (const [i, path] of paths.entries()) {
    const t0 = performance.now();
    const res = await fetch(`${url}${path}`, init(i));
    await res.text();
    ms.push(performance.now() - t0);
  }
  return ms;
};

try {
  const users = await benchCompanies(db, app.tokens, 4);
  const [owner, bidder] = [users[0]!, users[1]!];
  await sql
    .raw(SEED_FLOOR_FREIGHTS)
    .execute(db)
    .catch(() => {});
  const floor = await startBenchFloor(bench);
  const floorPaths = () => Array.from({ length: 100 }, () => `/floor/${1 + Math.floor(Math.random() * 1000)}`);
  const base = await listenLocal(app.http);
  const baseWithout = await listenLocal(without.http);

  // Road freights with a piece line, pending on the owner's confirmation of the bidder's bid.
  const pendingBids = async (n: number) =>
    (
      await sql<{ bid: number; freight: number }>`
    with f as (
      insert into freights (class, status, from_code, from_country, to_code, to_country, weight, visibility, company_id,
                            user_id, etd, refs, created, modified)
      select 'rfs', 'pending', '60311', 'DE', '75001', 'FR', 4200, 0, ${owner.company}::int, ${owner.user}::int,
             now() + interval '2 days', '{"customer":"PO-1","commodity":"Möbel"}'::json, now(), now()
      from generate_series(1, ${n}) returning id),
    p as (insert into freight_pieces (freight_id, position, pieces, depth, width, height, weight)
          select id, 0, 33, 120, 80, 150, 4200 from f)
    insert into bids (freight_id, company_id, user_id, amount, currency_code, status, owner_confirmed, bidder_confirmed,
                      owner_confirmed_by, owner_confirmed_at, type, created, modified)
    select f.id, ${bidder.company}::int, ${bidder.user}::int, 1000 + f.id % 300, 'EUR', 'pending', true, false,
           ${owner.user}::int, now(), 'buying', now(), now()
    from f returning id as bid, freight_id as freight`.execute(db)
    ).rows;
  const post = (token: string, body = '{}') => ({
    method: 'POST',
    headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json' },
    body,
  });

  // Warm both apps (fonts, prepared statements).
  for (const url of [base, baseWithout])
    await oneAtATime(
      url,
      (await pendingBids(3)).map((p) => `/quotes/confirm/${p.bid}.json`),
      () => post(bidder.token),
    );

  const results = { with: { award: [] as number[], floor: [] as number[] }, without: { award: [] as number[], floor: [] as number[] } };
  const withNotes: number[] = [];
  for (let round = 0; round < 2 * ROUNDS; round++) {
    const name = round % 2 === 0 ? 'with' : 'without';
    const pending = await pendingBids(AWARDS / (2 * ROUNDS));
    results[name].floor.push(...(await oneAtATime(floor.url, floorPaths())));
    results[name].award.push(
      ...(await oneAtATime(
        name === 'with' ? base : baseWithout,
        pending.map((p) => `/quotes/confirm/${p.bid}.json`),
        () => post(bidder.token),
      )),
    );
    if (name === 'with') withNotes.push(...pending.map((p) => p.freight));
  }
  const notes = await sql<{ n: number }>`select count(*)::int as n from cmr_notes where freight_id = any(${withNotes}::int[])`.execute(db);
  const [a, b] = [p50(results.with.award), p50(results.without.award)];

  // Signatures: the carrier signs the notes issued above, each with its new PDF.
  const signed = withNotes.slice(0, SIGNATURES);
  const signFloor = await oneAtATime(floor.url, floorPaths());
  const signMs = await oneAtATime(
    base,
    signed.map((f) => `/freights/cmr-sign/${f}.json`),
    () => post(bidder.token, JSON.stringify({ role: 'carrier', name: 'Jan Kowalski', reservations: 'Zwei Paletten: Folie eingerissen' })),
  );
  const pdfs = await sql<{
    n: number;
  }>`select count(*)::int as n from deal_documents where kind = 'cmr' and freight_id = any(${signed}::int[])`.execute(db);

  // Verify: the notes' numbers with their heads, no login.
  const heads = (
    await sql<{ number: string; hash: string }>`
      select n.number, coalesce((select s.hash from cmr_signatures s where s.note_id = n.id order by s.seq desc limit 1), n.hash) as hash
      from cmr_notes n where n.freight_id = any(${withNotes}::int[])`.execute(db)
  ).rows;
  const verifyPaths = Array.from({ length: VERIFIES }, (_, i) => heads[i % heads.length]!).map(
    (h) => `/cmr/verify/${h.number}.json?hash=${h.hash}`,
  );
  await oneAtATime(base, verifyPaths.slice(0, 20));
  const verifyFloor = await oneAtATime(floor.url, floorPaths());
  const verifyMs = await oneAtATime(base, verifyPaths);

  const lines = [
    `engine: ${bench.label}`,
    `award with its order and e-CMR (POST /quotes/confirm, one at a time): p50 ${a.toFixed(1)} ms  (floor p50 ${p50(results.with.floor).toFixed(2)} ms)`,
    `award with its order alone (issueCmrs false):                         p50 ${b.toFixed(1)} ms  (floor p50 ${p50(results.without.floor).toFixed(2)} ms)`,
    `awarding with ÷ without the e-CMR: ${(a / b).toFixed(2)}× (target ≤ 1.3×; ${notes.rows[0]!.n}/${withNotes.length} notes issued; ${ROUNDS} rounds each, alternated)`,
    `signature with its new PDF (POST /freights/cmr-sign): p50 ${p50(signMs).toFixed(1)} ms (target ≤ 150 ms on PostgreSQL; ${pdfs.rows[0]!.n}/${signed.length} PDFs)  (floor p50 ${p50(signFloor).toFixed(2)} ms)`,
    `verify (GET /cmr/verify/{number}.json): p50 ${p50(verifyMs).toFixed(2)} ms (target ≤ 5 ms; ${VERIFIES} requests)  (floor p50 ${p50(verifyFloor).toFixed(2)} ms)`,
  ];
  console.log(lines.join('\n'));
  await floor.close();
} finally {
  await without.http.close();
  await app.http.close();
  await database.close();
  await drop?.();
}
