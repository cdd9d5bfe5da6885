// npm run bench:push — a 15 MiB file push while another client polls GET /healthz: prints the
// worst and p99 /healthz latency during the push (and the worst of 3 s of the same polling
// before it, so a busy machine shows as such), the push time, the server's peak RSS (VmHWM)
// and the machine's load average.
// One fresh server per action, so the peak belongs to that push. Loopback only.
// BENCH_ACTIONS=status,fsu,xfsu,rates (default: all four); BENCH_MIB=15 (file size).
// Hostile shapes (issue 22), pushed as action=xfsu, encoding=plain: `nested` is
// `<StatusMessage>` + `<a>`×32,000 + `</a>`×32,000 + `</StatusMessage>` (218 KB), `nested15`
// the same shape grown to BENCH_MIB; both are to be refused at once without holding /healthz.
// Runs on the embedded database, and on PostgreSQL when BENCH_DATABASE_URL (or
// TEST_DATABASE_URL) names a server (a fresh database is created and dropped).
// The server runs from the sources (tsx), so the numbers are those of the working tree;
// BENCH_BUILT=1 runs the built server (bin/, dist/) instead.
// BENCH_LINES=100000: the status file (and the others) stops at that many lines (below BENCH_MIB).
// BENCH_FREIGHTS=100000: the exchange holds that many freights before the push (issue 39, item 10:
// the push's time must grow with the file, not with the exchange): the pushing company's, a third
// awarded to a second company, every fourth carrying one of the file's AWBs, so the push's
// `shipment.status` events reach that carrier through them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/connection.ts';
import { createPostgresDatabase } from '../tests/support/databases.ts';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const MIB = Number(process.env.BENCH_MIB ?? 15);
const TARGET = Math.floor(MIB * 1024 * 1024) - 4096;
const MAX_LINES = Number(process.env.BENCH_LINES ?? Number.POSITIVE_INFINITY);
const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 0);
const ACTIONS = (process.env.BENCH_ACTIONS ?? 'status,fsu,xfsu,rates')
  .split(',')
  .map((a) => a.trim())
  .filter(Boolean);

/** `freight-exchange <args>`: the built command with BENCH_BUILT, else the sources through tsx. */
function commandLine(args: string[]): string[] {
  if (process.env.BENCH_BUILT) return ['bin/freight-exchange.js', ...args];
  return [
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    `const { main } = await import('./src/cli.ts'); process.exitCode = await main(${JSON.stringify(args)});`,
  ];
}

function cli(env: NodeJS.ProcessEnv, args: string[]): any {
  const r = spawnSync(process.execPath, commandLine([...args, '--json']), { cwd: ROOT, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`freight-exchange ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A valid AWB (check digit) for a running number. */
function awb(n: number): string {
  const serial7 = String(1_000_000 + (n % 8_999_999)).padStart(7, '0');
  return `020-${serial7}${Number(serial7) % 7}`;
}

const AIRPORTS = ['FRA', 'JFK', 'HKG', 'SIN', 'ORD', 'LHR', 'AMS', 'DXB'];
const CODES = ['RCS', 'DEP', 'ARR', 'RCF', 'NFD', 'AWD', 'DLV'];

/** Lines from `line(i)` until the text reaches TARGET bytes. */
function fill(head: string, line: (i: number) => string, tail = ''): { text: string; records: number } {
  const parts = [head];
  let size = head.length + tail.length;
  let i = 0;
  for (;;) {
    const l = line(i);
    if (size + l.length > TARGET || i >= MAX_LINES) break;
    parts.push(l);
    size += l.length;
    i++;
  }
  parts.push(tail);
  return { text: parts.join(''), records: i };
}

function statusCsv() {
  return fill('awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location\n', (i) => {
    const day = String(1 + (i % 28)).padStart(2, '0');
    return `${awb(Math.floor(i / 4))},${CODES[i % 7]},2026-03-${day} ${String(i % 24).padStart(2, '0')}:15,${AIRPORTS[i % 8]},LH${400 + (i % 90)},${1 + (i % 20)},${(10 + (i % 900)) / 2},PER,W${i % 50}\n`;
  });
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
function fsu() {
  // One message per AWB: the consignment line and four status lines.
  return fill('', (i) => {
    const d = String(1 + (i % 28)).padStart(2, '0');
    const m = MONTHS[(i >> 3) % 12];
    return `FSU/14\n${awb(i)}FRAJFK/T10K250.5\nRCS/${d}${m}0930/FRA/T10K250.5\nDEP/LH400/${d}${m}/FRAJFK/T10K250.5/A1010\nRCF/LH400/${d}${m}1610/JFK/T10K250.5\nDLV/${d}${m}1800/JFK/T10K250.5/ACME\n`;
  });
}

function xfsu() {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?>\n<rsm:StatusMessage xmlns:rsm="iata:statusmessage:1" xmlns:ram="iata:datamodel:3">\n<rsm:MessageHeaderDocument><ram:ID>BENCH</ram:ID><ram:TypeCode>FSU</ram:TypeCode></rsm:MessageHeaderDocument>\n<rsm:BusinessHeaderDocument><ram:ID>BENCH</ram:ID></rsm:BusinessHeaderDocument>\n<rsm:MasterConsignment>\n<ram:TransportContractDocument><ram:ID>020-12345675</ram:ID></ram:TransportContractDocument>\n<ram:ReportedStatus><ram:ReasonCode>RCF</ram:ReasonCode>\n';
  const tail = '</ram:ReportedStatus>\n</rsm:MasterConsignment>\n</rsm:StatusMessage>\n';
  return fill(
    head,
    (i) =>
      `<ram:AssociatedStatusConsignment><ram:GrossWeightMeasure unitCode="KGM">${1 + (i % 90)}.5</ram:GrossWeightMeasure><ram:PieceQuantity>${1 + (i % 9)}</ram:PieceQuantity><ram:TransportSplitDescription>P</ram:TransportSplitDescription><ram:SpecifiedLogisticsTransportMovement><ram:ID>LH${400 + (i % 90)}</ram:ID><ram:SpecifiedLocation><ram:ID>JFK</ram:ID></ram:SpecifiedLocation><ram:SpecifiedEvent><ram:OccurrenceDateTime>2026-03-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:10:00</ram:OccurrenceDateTime></ram:SpecifiedEvent></ram:SpecifiedLogisticsTransportMovement></ram:AssociatedStatusConsignment>\n`,
    tail,
  );
}

function ratesCsv() {
  return fill('origin,destination,transit_days,min_charge,kg_100,kg_300,kg_500,kg_1000,kg_3000,fsc_pct,ssc_per_kg,uld_price\n', (i) => {
    return `city:DE-${10000 + (i % 89999)},airport:${AIRPORTS[i % 8]},${1 + (i % 5)},45.00,0.40,0.35,0.30,0.25,0.20,12.5,0.05,\n`;
  });
}

/** `<StatusMessage>` + `<a>`×depth + `</a>`×depth + `</StatusMessage>`: the nesting of issue 22 (a message has 10–15 levels). */
function nestedXml(depth: number) {
  return { text: `<StatusMessage>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</StatusMessage>`, records: depth };
}

interface BenchFile {
  text: string;
  /** lines, or the nesting depth of the hostile shapes */
  records: number;
  /** the push's action (default: the name) */
  action?: string;
  /** sent as text (`encoding=plain`) rather than base64 */
  plain?: boolean;
}

const FILES: Record<string, () => BenchFile> = {
  status: statusCsv,
  fsu,
  xfsu,
  rates: ratesCsv,
  nested: () => ({ ...nestedXml(32_000), action: 'xfsu', plain: true }),
  // The same shape as large as a push may be: 7 bytes a level.
  nested15: () => ({ ...nestedXml(Math.floor((TARGET - 31) / 7)), action: 'xfsu', plain: true }),
};

function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function waitForServer(url: string, server: ChildProcess) {
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new Error(`the server exited (${server.exitCode ?? server.signalCode}) before answering`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function run(label: string, env: NodeJS.ProcessEnv, action: string) {
  const file = FILES[action]!();
  const { text, records } = file;
  const body = JSON.stringify(
    file.plain
      ? { name: `bench.${action}.xml`, action: file.action ?? action, encoding: 'plain', content: text }
      : { name: `bench.${action}`, action: file.action ?? action, content: Buffer.from(text).toString('base64') },
  );
  cli(env, ['company', 'create', '--name', 'Bench Co']);
  const user = cli(env, ['user', 'create', '--company', '1', '--email', `bench@example.test`, '--password', 'bench-password']);
  if (FREIGHTS > 0) {
    const carrier = cli(env, ['company', 'create', '--name', 'Bench Carrier']);
    const seeded = performance.now();
    // Before the server starts: the embedded data directory is held by one process at a time.
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR ?? '', logLevel: 'silent' });
    try {
      await sql`
        insert into freights (class, type, status, from_code, from_country, to_code, to_country, weight, etd, deadline,
                              visibility, whitelist, company_id, user_id, winner_id, awb, refs, created, modified)
        select 'air', 'AHR', (array['open','taken','closed','archived','draft','expired'])[1 + i % 6],
               'FRA', 'DE', 'JFK', 'US', 100, now(), now() + interval '30 days', 0, '{}'::int[], 1, ${user.id}::int,
               case when i % 6 in (1, 2, 3) then ${carrier.id}::int end,
               case when i % 4 = 0 then '020-' || lpad((1000000 + (i / 4) % 8999999)::text, 7, '0') || ((1000000 + (i / 4) % 8999999) % 7)::text end,
               '{}'::json, now(), now()
          from generate_series(0, ${FREIGHTS - 1}) as i`.execute(database.db);
      await sql`vacuum analyze freights`.execute(database.db);
    } finally {
      await database.close();
    }
    console.log(`  ${FREIGHTS} freights written in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  }
  const port = 18000 + Math.floor(Math.random() * 1000);
  // BENCH_SERVER_FLAGS: node flags for the server process (e.g. --trace-gc), when looking into a number.
  const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const server: ChildProcess = spawn(process.execPath, [...flags, ...commandLine(['serve'])], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(`${base}/healthz`, server);
    const baseline = peakRssMiB(server.pid!);
    // The same polling for 3 s before the push: what the machine gives an idle server.
    const poll = async (running: () => boolean) => {
      const times: number[] = [];
      while (running()) {
        const t = performance.now();
        // A kept-alive connection the server closed as it was reused: counted as a poll, tried again.
        await fetch(`${base}/healthz`)
          .then((r) => r.arrayBuffer())
          .catch(() => undefined);
        times.push(performance.now() - t); // a poll started during the push counts, however late it ends
        await new Promise((r) => setTimeout(r, 10));
      }
      return times;
    };
    const idleUntil = performance.now() + 3000;
    const idle = await poll(() => performance.now() < idleUntil);
    let pushing = true;
    const poller = poll(() => pushing);
    const started = performance.now();
    const res = await fetch(`${base}/files/push.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `TokenPass ${user.token}` },
      body,
    });
    const answer = (await res.json()) as { status: string; message?: string; data?: { file?: { records: number } } };
    const pushMs = performance.now() - started;
    pushing = false;
    const during = await poller;
    const peak = peakRssMiB(server.pid!);
    const worst = Math.max(...during);
    const polls = during.length;
    const p99 = [...during].sort((a, b) => a - b)[Math.floor(during.length * 0.99)] ?? 0;
    const over = during.filter((ms) => ms > 100).length;
    const outcome =
      res.status === 200 && answer.status === 'success'
        ? `${answer.data?.file?.records} records`
        : `HTTP ${res.status} ${answer.message ?? ''}`;
    console.log(
      `${label.padEnd(9)} ${action.padEnd(8)} ${(text.length / 1024 / 1024).toFixed(2)} MiB, ${records} ${file.plain ? 'levels' : 'lines'} → ${outcome} | push ${(pushMs / 1000).toFixed(2)} s | ` +
        `/healthz worst ${worst.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, ${over} of ${polls} polls over 100 ms (idle server: worst ${Math.max(...idle).toFixed(0)} ms) | ` +
        `peak RSS ${peak.toFixed(0)} MiB (idle ${baseline.toFixed(0)} MiB) | load ${os.loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  }
}

console.log(`file push benchmark: ${MIB} MiB per file, ${os.cpus().length} cores`);
// BENCH_ENGINES=postgres (or embedded): one of the two only.
const ENGINES = (process.env.BENCH_ENGINES ?? 'embedded,postgres').split(',');
for (const action of ENGINES.includes('embedded') ? ACTIONS : []) {
  if (!FILES[action]) throw new Error(`unknown action ${action} (${Object.keys(FILES).join(', ')})`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-bench-push-'));
  try {
    await run('embedded', { ...process.env, DATA_DIR: dataDir, TOKEN_SECRET: 'bench-secret-0123456789', DATABASE_URL: '' }, action);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
const pgServer = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgServer && ENGINES.includes('postgres')) {
  process.env.TEST_DATABASE_URL = pgServer;
  for (const action of ACTIONS) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-bench-push-'));
    const { url, drop } = await createPostgresDatabase();
    try {
      await run('postgres', { ...process.env, DATA_DIR: dataDir, TOKEN_SECRET: 'bench-secret-0123456789', DATABASE_URL: url }, action);
    } finally {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
