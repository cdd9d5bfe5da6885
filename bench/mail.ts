// npm run bench:mail — e-mail (docs/reference.md#mail, issue 46), against the floors of the issue:
// 1. publishing a freight that matches 10,000 alerting saved searches whose users want alerts at
//    once: the publish (HTTP, its alert queued) and the time until its alert is written (10,000
//    notifications and events, and, with mail, the trigger's 10,000 mail rows in the same
//    transaction), A/B with mail on and off on one database, alternated; floor: p50 with mail
//    within 1.2x of without;
// 2. the outbox sending those mails through a local SMTP server in a process of its own
//    (bench/smtp-sink.mjs), fan-out to users included: mails a second; floor 200/s;
// 3. the daily digest for 100,000 users (one item each, two for every tenth): one sweep; floor 60 s.
// Beside them, the machine's own floor of the run (bench/floor.ts: a bare route with one
// primary-key select, p50) and the load average. PostgreSQL when DATABASE_URL (or
// BENCH_DATABASE_URL) names a server; the embedded database otherwise.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { sql } from 'kysely';
import { readConfig } from '../src/config/config.ts';
import { buildApp } from '../src/app.ts';
import { sweepDigests } from '../src/mail/digest.ts';
import { fanOut } from '../src/mail/fanout.ts';
import { routeEvents } from '../src/mail/outbox.ts';
import { UnsubscribeTokens } from '../src/mail/unsubscribe.ts';
import { MailWorker, smtpTransport } from '../src/mail/worker.ts';
import { benchCompanies, listenLocal, openBenchDatabase, startBenchFloor } from './setup.ts';

const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PER_ROUND = Number(process.env.BENCH_PUBLISHES ?? 2);
const DIGEST_USERS = Number(process.env.BENCH_DIGEST_USERS ?? 100_000);
const SEND = Number(process.env.BENCH_SEND ?? 10_000);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const lines: string[] = [];
const say = (line: string) => {
  console.log(line);
  lines.push(line);
};

// The local SMTP server, a process of its own.
const sink = spawn(process.execPath, [new URL('./smtp-sink.mjs', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] });
let sinkOut = '';
sink.stdout.on('data', (d) => (sinkOut += String(d)));
const port = await new Promise<number>((resolve) => {
  const wait = () => {
    const m = /port (\d+)/.exec(sinkOut);
    if (m) resolve(Number(m[1]));
    else setTimeout(wait, 20);
  };
  wait();
});

// Stopped from outside: the children go too.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    sink.kill('SIGTERM');
    client.kill('SIGTERM');
    process.exit(130);
  });

// The publishing client, a process of its own (bench/mail-client.mjs).
const client = spawn(process.execPath, [new URL('./mail-client.mjs', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] });
let clientOut = '';
client.stdout.on('data', (d) => (clientOut += String(d)));
const clientPost = (url: string, token: string, body: string) =>
  new Promise<number>((resolve) => {
    clientOut = '';
    client.stdin.write(`${JSON.stringify({ url, token, body })}\n`);
    const wait = () => {
      const m = /ms ([\d.]+)/.exec(clientOut);
      if (m) resolve(Number(m[1]));
      else setTimeout(wait, 1);
    };
    wait();
  });

const { database, label, drop, pgUrl, pglite } = await openBenchDatabase();
const config = readConfig({
  APP_ENV: 'demo',
  TOKEN_SECRET: 'bench-secret-0123456789',
  LOG_LEVEL: 'silent',
  SMTP_URL: `smtp://127.0.0.1:${port}`,
  MAIL_FROM: 'Bench <bench@freight.example>',
  PUBLIC_URL: 'https://freight.example',
});
const app = await buildApp({ config, database });
const db = database.db;
const floor = await startBenchFloor({ pgUrl, pglite });

try {
  say(`bench:mail on ${label}, ${os.cpus().length} cores, load ${load()} at the start`);
  const [shipper] = await benchCompanies(db, app.tokens, 1);
  const base = await listenLocal(app.http);
  // The listening app's own mail worker would send during the A/B; the bench drives sending itself.
  await app.mail?.stop();

  // 10,000 carriers, one user each, alerts at once, one alerting search each for loads from DE-60.
  await sql`insert into companies (name, created) select 'Carrier ' || i, now() from generate_series(1, ${SEARCHES}) i`.execute(db);
  await sql`insert into users (company_id, email, password_hash, token_nonce, realname, language, created)
      select c.id, 'carrier' || c.id || '@bench.example', 'x', 'n' || c.id, 'Dispatcher ' || c.id,
             case when c.id % 3 = 0 then 'deu' else 'eng' end, now()
        from companies c where c.name like 'Carrier %'`.execute(db);
  await sql`insert into saved_searches (user_id, company_id, name, filter_id, params, alert, created, modified)
      select u.id, u.company_id, 'Frankfurt', 8, '{"from":"DE-60"}'::json, true, now(), now()
        from users u where u.email like 'carrier%@bench.example'`.execute(db);
  await sql`insert into mail_settings (user_id, kind, mode, modified)
      select id, 'alerts', 'instant', now() from users where email like 'carrier%@bench.example'`.execute(db);

  const headers = { authorization: `TokenPass ${shipper!.token}`, 'content-type': 'application/json' };
  /** One publish: the request (its alert queued), and until the alert is written. */
  const publishOnce = async () => {
    const add = await fetch(`${base}/freights/add.json`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        from: 'city:60311',
        from_country: 'DE',
        to: 'city:75001',
        to_country: 'FR',
        weight: 12000,
        etd: '2031-05-12 08:00',
      }),
    });
    const id = ((await add.json()) as { data: { id: number } }).data.id;
    const t0 = performance.now();
    // The publish is timed by the client in its own process (the server's alert work after the
    // commit runs in this event loop and would hold up a timing taken here).
    const request = await clientPost(`${base}/freights/view/${id}.json`, shipper!.token, '{"action":"publish"}');
    await new Promise((r) => setTimeout(r, 5));
    await app.alerts.idle();
    // Until no alert job is left (a read that finds no row answered, e.g. while the embedded database's one connection is busy, counts as waiting).
    while (Number((await sql<{ n: string }>`select count(*) as n from alert_jobs`.execute(db)).rows[0]?.n ?? 1) > 0) {
      await new Promise((r) => setTimeout(r, 10));
      await app.alerts.idle();
    }
    return { request, alert: performance.now() - t0 };
  };
  const floorP50 = async () => {
    const xs: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await (await fetch(`${floor.url}/floor/1`)).text();
      xs.push(performance.now() - t0);
    }
    return pct(xs, 0.5);
  };

  await publishOnce(); // warm up (without mail: routes as built, on; then off)
  const results = { on: { request: [] as number[], alert: [] as number[] }, off: { request: [] as number[], alert: [] as number[] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      await routeEvents(db, mode === 'on');
      for (let i = 0; i < PER_ROUND; i++) {
        const r = await publishOnce();
        results[mode].request.push(r.request);
        results[mode].alert.push(r.alert);
      }
    }
  }
  const f1 = await floorP50();
  const ratio = (k: 'request' | 'alert') => pct(results.on[k], 0.5) / pct(results.off[k], 0.5);
  say(
    `publish matching ${SEARCHES} instant alerts, ${ROUNDS * PER_ROUND} each way: request p50 ${pct(results.on.request, 0.5).toFixed(1)} ms with mail, ${pct(results.off.request, 0.5).toFixed(1)} ms without (x${ratio('request').toFixed(2)}); until its alert is written p50 ${pct(results.on.alert, 0.5).toFixed(0)} ms with mail, ${pct(results.off.alert, 0.5).toFixed(0)} ms without (x${ratio('alert').toFixed(2)}); floor x1.20; machine floor p50 ${f1.toFixed(2)} ms; load ${load()}`,
  );

  // 2. The outbox: fan the queued alerts out to users, then send SEND of them.
  await routeEvents(db, true);
  const t0 = performance.now();
  let fanned = 0;
  for (let n = await fanOut(db, app.services.clock.now()); n > 0; n = await fanOut(db, app.services.clock.now())) fanned += n;
  const fanMs = performance.now() - t0;
  const queued = Number((await sql<{ n: string }>`select count(*) as n from mail_messages where state = 'pending'`.execute(db)).rows[0]!.n);
  // Only SEND of them are due now: the rest later.
  await sql`update mail_messages set next_attempt = now() + interval '1 day' where state = 'pending' and id not in (
      select id from mail_messages where state = 'pending' order by id limit ${SEND})`.execute(db);
  const worker = new MailWorker({
    db,
    clock: app.services.clock,
    from: 'Bench <bench@freight.example>',
    publicUrl: 'https://freight.example',
    tokens: new UnsubscribeTokens(app.tokens.derivedKey('mail-unsubscribe')),
    transport: smtpTransport(`smtp://127.0.0.1:${port}`),
    pollMs: 20,
  });
  // Progress as the SMTP server counts it (asking the database would compete with the sender for it).
  const taken = () =>
    new Promise<number>((resolve) => {
      sinkOut = '';
      sink.stdin.write('?\n');
      const wait = () => {
        const m = /taken (\d+)/.exec(sinkOut);
        if (m) resolve(Number(m[1]));
        else setTimeout(wait, 5);
      };
      wait();
    });
  const sent = taken;
  // Warm up: the first mails load the town names (places/cities.ts) and open the SMTP connections.
  const WARM = Math.min(200, Math.floor(SEND / 10));
  worker.start();
  while ((await sent()) < WARM) await new Promise((r) => setTimeout(r, 20));
  const warmed = await sent();
  const s0 = performance.now();
  while ((await sent()) < Math.min(SEND, queued)) await new Promise((r) => setTimeout(r, 50));
  const sendS = (performance.now() - s0) / 1000;
  const timedCount = (await sent()) - warmed;
  await worker.stop();
  const took = await taken();
  const sentRows = Number((await sql<{ n: string }>`select count(*) as n from mail_messages where state = 'sent'`.execute(db)).rows[0]!.n);
  const f2 = await floorP50();
  say(
    `outbox: ${fanned} alert events fanned out to ${queued} mails in ${(fanMs / 1000).toFixed(1)} s; after ${warmed} to warm up, ${timedCount} sent in ${sendS.toFixed(1)} s = ${Math.round(timedCount / sendS)} mails/s (the SMTP server took ${took} in all, ${sentRows} recorded sent); floor 200 mails/s; machine floor p50 ${f2.toFixed(2)} ms; load ${load()}`,
  );

  // 3. The digest: 100,000 users with items from yesterday (every tenth two).
  await sql`insert into companies (name, created) select 'Digest ' || i, now() from generate_series(1, ${DIGEST_USERS}) i`.execute(db);
  await sql`insert into users (company_id, email, password_hash, token_nonce, realname, language, created)
      select c.id, 'digest' || c.id || '@bench.example', 'x', 'd' || c.id, '', 'eng', now() from companies c where c.name like 'Digest %'`.execute(
    db,
  );
  const cut = app.services.clock.now();
  await sql`insert into mail_digest_items (user_id, kind, event_seq, created)
      select u.id, 'alerts', 1, ${new Date(cut.getTime() - 3600_000)}::timestamptz from users u where u.email like 'digest%@bench.example'
      union all
      select u.id, 'alerts', 2, ${new Date(cut.getTime() - 1800_000)}::timestamptz from users u where u.email like 'digest%@bench.example' and u.id % 10 = 0`.execute(
    db,
  );
  // The sweep at the next 07:00 after the items.
  const at = new Date(cut.getTime() + 86400_000);
  const d0 = performance.now();
  const digests = await sweepDigests(db, app.services.clock, at);
  const digestS = (performance.now() - d0) / 1000;
  const f3 = await floorP50();
  say(
    `digest: ${digests} digests for ${DIGEST_USERS} users (${Math.round(DIGEST_USERS * 1.1)} items) written in ${digestS.toFixed(1)} s; floor 60 s; machine floor p50 ${f3.toFixed(2)} ms; load ${load()}`,
  );
} finally {
  await floor.close();
  await app.http.close();
  await database.close();
  await drop?.();
  sink.kill('SIGTERM');
  client.kill('SIGTERM');
}
console.log(`\n${lines.join('\n')}`);
