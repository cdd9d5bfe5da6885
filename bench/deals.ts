// npm run bench:deals — the deal room (docs/reference.md#deal-room, issue 28), each figure beside its floor
// measured in the same run:
//  1. reading a conversation of 200 messages (GET /freights/messages/{id}.json, one connection:
//     latency, not throughput) beside the floor (bench/floor.ts: Fastify + one primary-key select);
//  2. `/healthz` while documents of exactly 10,000,000 bytes (docs/reference.md#deal-room's 10 MB) are
//     uploaded on a loaded server (autocannon reads conversations at 40 per second on 4
//     connections meanwhile), once as the JSON upload (base64) and once as the page's multipart
//     form: its worst case and p99, beside the same probe under the same load without uploads.
//     The upload client runs in a worker thread (bench/upload-worker.mjs), so building and
//     sending its 13 MB bodies does not count against the server's /healthz;
//  3. the award with its transport order (POST /quotes/confirm, the second side, one at a time)
//     beside rendering the order alone (content read + PDF), its share of the award.
// PostgreSQL when DATABASE_URL (or BENCH_DATABASE_URL) names a server (a fresh database, dropped
// afterwards), else PGlite in memory. BENCH_SECONDS the time per load figure, BENCH_UPLOADS the
// number of 10 MB uploads of each kind.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { readTransportOrder } from '../src/deals/order.ts';
import { transportOrderPdf } from '../src/deals/pdf.ts';
import { SEED_FLOOR_FREIGHTS } from './floor.ts';
import { MAX_DOCUMENT_BYTES } from '../src/deals/tables.ts';
import { line, load, type LoadResult } from './load.ts';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase, startBenchFloor } from './setup.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 6);
const AWARDS = Number(process.env.BENCH_AWARDS ?? 30);
const MESSAGES = 200;
const LOAD_RATE = Number(process.env.BENCH_LOAD_RATE ?? 40);

const { database, label, pgUrl, pglite, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

try {
  const [owner, carrier] = await benchCompanies(db, app.tokens, 2);
  if (!owner || !carrier) throw new Error('no companies');
  await sql.raw(SEED_FLOOR_FREIGHTS).execute(db);
  // The conversation: one open freight of the owner, 200 messages both ways, all read.
  const freight = (
    await db
      .insertInto('freights')
      .values({
        status: 'taken',
        from_code: 'FRA',
        from_country: 'DE',
        to_code: '75001',
        to_country: 'FR',
        weight: 12000,
        deadline: new Date(Date.now() + 30 * 86400_000),
        company_id: owner.company,
        user_id: owner.user,
        winner_id: carrier.company,
        refs: '{"customer":"BENCH-1"}',
        created: new Date(),
        modified: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await sql`insert into deal_messages (freight_id, partner_id, from_company_id, to_company_id, user_id, text, created, read_at)
    select ${freight}::int, ${carrier.company}::int,
           case when i % 2 = 0 then ${carrier.company}::int else ${owner.company}::int end,
           case when i % 2 = 0 then ${owner.company}::int else ${carrier.company}::int end,
           case when i % 2 = 0 then ${carrier.user}::int else ${owner.user}::int end,
           'Message ' || i || ': the truck is at the ramp, loading takes about forty minutes, papers follow with the driver.',
           now() - (${MESSAGES} - i) * interval '1 minute', now()
    from generate_series(1, ${MESSAGES}) as i`.execute(db);
  await sql`analyze`.execute(db);

  const base = await listenLocal(app.http);
  const floor = await startBenchFloor({ pgUrl, pglite });
  const floorIds = (await sql<{ id: number }>`select id from freights where refs->>'customer' = 'floor' order by id`.execute(db)).rows.map(
    (r) => r.id,
  );
  console.log(
    `deals benchmark on ${label}: ${os.cpus().length} cores, loopback; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const auth = { authorization: `TokenPass ${carrier.token}` };
  const conversation = `/freights/messages/${freight}.json`;
  const probe = (await (await fetch(base + conversation, { headers: auth })).json()) as {
    data: { conversations: Array<{ messages: unknown[] }> };
  };
  const count = probe.data.conversations[0]?.messages.length;
  if (count !== MESSAGES) throw new Error(`the conversation has ${count} messages`);

  // 1. The conversation, one request at a time, beside the floor the same way.
  const one = (o: { url: string; paths: string[]; headers?: Record<string, string> }) => ({ ...o, connections: 1, duration: SECONDS });
  const floorRun = one({ url: floor.url, paths: floorIds.map((id) => `/floor/${id}`) });
  const readRun = one({ url: base, paths: [conversation], headers: auth });
  await load({ ...floorRun, duration: 1 });
  const floorBefore = await load(floorRun);
  await load({ ...readRun, duration: 1 });
  const read = await load(readRun);
  const floorAfter = await load(floorRun);
  const floorRead: LoadResult = floorBefore.p50 >= floorAfter.p50 ? floorBefore : floorAfter;
  console.log(line('floor: Fastify + one PK select (1 connection)', floorRead));
  console.log(line(`GET /freights/messages (${MESSAGES} messages, 1 conn.)`, read));

  // 2. /healthz while 10 MB documents arrive on a loaded server, by JSON and by the page's form.
  async function healthzDuring(work: () => Promise<unknown>): Promise<number[]> {
    const times: number[] = [];
    let running = true;
    const poller = (async () => {
      while (running) {
        const t = performance.now();
        const res = await fetch(`${base}/healthz`);
        await res.arrayBuffer();
        times.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await work();
    running = false;
    await poller;
    return times;
  }
  /** Uploads in a worker thread (bench/upload-worker.mjs): the time of each, end to end. */
  const uploadsIn = (workerData: Record<string, unknown>) =>
    new Promise<number[]>((resolve, reject) => {
      const worker = new Worker(new URL('./upload-worker.mjs', import.meta.url), { workerData, execArgv: [] });
      worker.once('message', (m: { times?: number[]; error?: string }) => (m.error ? reject(new Error(m.error)) : resolve(m.times!)));
      worker.once('error', reject);
    });
  // The page's form posts with the owner's browser session and its CSRF token.
  const cookies = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const loginPage = await fetch(`${base}/users/login`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await loginPage.text())![1]!;
  const jar = cookies(loginPage);
  const login = await fetch(`${base}/users/login`, {
    method: 'POST',
    headers: { cookie: jar.join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, 'auth[user]': 'bench0@example.test', 'auth[password]': 'bench-password' }).toString(),
    redirect: 'manual',
  });
  const session = [...jar, ...cookies(login)].join('; ');
  const kinds = {
    json: { url: `${base}/freights/documents/${freight}.json`, mode: 'json', headers: { authorization: `TokenPass ${owner.token}` } },
    multipart: { url: `${base}/freights/upload/${freight}`, mode: 'multipart', headers: { cookie: session }, csrf },
  };
  // A loaded server: conversations read at a steady LOAD_RATE per second on 4 connections (about
  // half of what one process answers here), not a closed loop that queues every request.
  const background = (seconds: number) =>
    load({ url: base, paths: [conversation], headers: auth, connections: 4, duration: seconds, overallRate: LOAD_RATE });
  const quiet = await healthzDuring(async () => {
    await background(SECONDS + 2);
  });
  const busy: Record<string, { probes: number[]; uploads: number[]; loaded?: LoadResult }> = {};
  for (const [kind, options] of Object.entries(kinds)) {
    const run: { probes: number[]; uploads: number[]; loaded?: LoadResult } = { probes: [], uploads: [] };
    run.probes = await healthzDuring(async () => {
      // The load runs as long as the uploads do (each takes seconds on a shared machine).
      let uploading = true;
      const bg = (async () => {
        while (uploading) run.loaded = await background(2);
      })();
      await new Promise((r) => setTimeout(r, 500));
      run.uploads = await uploadsIn({ ...options, count: UPLOADS, size: MAX_DOCUMENT_BYTES });
      uploading = false;
      await bg;
    });
    busy[kind] = run;
  }
  console.log(
    `/healthz under load (${LOAD_RATE} conversations a second), no uploads: ${quiet.length} probes, p50 ${ms(pct(quiet, 50))}, p99 ${ms(pct(quiet, 99))}, worst ${ms(Math.max(...quiet))}`,
  );
  for (const [kind, run] of Object.entries(busy)) {
    console.log(
      `/healthz under the same load with ${UPLOADS} uploads of ${MAX_DOCUMENT_BYTES} bytes (${kind}): ${run.probes.length} probes, p50 ${ms(pct(run.probes, 50))}, p99 ${ms(pct(run.probes, 99))}, worst ${ms(Math.max(...run.probes))}`,
    );
    console.log(
      `  each upload took p50 ${ms(pct(run.uploads, 50))}, worst ${ms(Math.max(...run.uploads))}; the load meanwhile: ${run.loaded ? line('', run.loaded).trim() : ''}`,
    );
  }

  // 3. The award with its transport order, one at a time, beside the order alone.
  const awards: number[] = [];
  for (let i = 0; i < AWARDS; i++) {
    const id = (
      await db
        .insertInto('freights')
        .values({
          status: 'open',
          from_code: 'FRA',
          from_country: 'DE',
          from_addr: 'Hafenstraße 1, Frankfurt',
          to_code: '75001',
          to_country: 'FR',
          weight: 12000,
          deadline: new Date(Date.now() + 30 * 86400_000),
          company_id: owner.company,
          user_id: owner.user,
          refs: '{"customer":"BENCH-AWARD","commodity":"Möbel"}',
          created: new Date(),
          modified: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const post = (path: string, token: string, json?: unknown) =>
      fetch(base + path, {
        method: 'POST',
        headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(json ?? {}),
        redirect: 'manual',
      });
    const bid = (await (await post('/quotes/add.json', carrier.token, { route: id, amount: '1234.50', currency_code: 'EUR' })).json()) as {
      data: { bid: { id: number } };
    };
    await (await post(`/quotes/confirm/${bid.data.bid.id}.json`, owner.token)).arrayBuffer();
    const t = performance.now();
    const res = await post(`/quotes/confirm/${bid.data.bid.id}.json`, carrier.token);
    await res.arrayBuffer();
    awards.push(performance.now() - t);
  }
  const renders: number[] = [];
  const taken = await db
    .selectFrom('freights')
    .selectAll()
    .where('status', '=', 'taken')
    .where(sql<boolean>`refs->>'customer' = 'BENCH-AWARD'`)
    .execute();
  for (const row of taken) {
    const bid = await db
      .selectFrom('bids')
      .selectAll()
      .where('freight_id', '=', row.id)
      .where('status', '=', 'accepted')
      .executeTakeFirst();
    if (!bid) continue;
    const t = performance.now();
    const order = await readTransportOrder(db, app.services.clock, row, bid);
    await transportOrderPdf(order, JSON.stringify(order), new Date());
    renders.push(performance.now() - t);
  }
  const orders = Number((await sql<{ n: string }>`select count(*) as n from deal_orders`.execute(db)).rows[0]?.n ?? 0);
  console.log(
    `award (second confirmation, with the transport order): ${awards.length} awards, p50 ${ms(pct(awards, 50))}, p99 ${ms(pct(awards, 99))}; orders written ${orders}`,
  );
  console.log(`  the transport order alone (content read + PDF): p50 ${ms(pct(renders, 50))}, worst ${ms(Math.max(...renders))}`);

  console.log(`\nsummary (load average now ${os.loadavg()[0]!.toFixed(2)})`);
  console.log(`conversation of ${MESSAGES} messages   p50 ${read.p50} ms (target <= 10 ms)   floor p50 ${floorRead.p50} ms`);
  for (const [kind, run] of Object.entries(busy))
    console.log(
      `/healthz during 10 MB uploads (${kind.padEnd(9)}) worst ${ms(Math.max(...run.probes))} (target < 100 ms)   floor (same load, no uploads) worst ${ms(Math.max(...quiet))}`,
    );
  console.log(`award with transport order         p50 ${ms(pct(awards, 50))}   of which the order p50 ${ms(pct(renders, 50))}`);
  await floor.close();
} finally {
  await app.http.close();
  await database.close();
  await drop?.();
}
