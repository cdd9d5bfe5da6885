// bench:backup (issue 48): `freight-exchange backup` and `restore` at BENCH_SIZES freights
// (default 100000,1000000) on BENCH_ENGINES (default pglite,postgres), beside the database's own
// dump of the same data (PGlite: dumpDataDir; PostgreSQL: pg_dump --format=custom alone) and a
// plain copy of the bytes (cp -r of the data directory; the dump file's copy). The embedded
// database is backed up from a running server (the command asks it over its socket) with
// requests going on, so the pause its writes see is measured too. PostgreSQL is
// BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres).
//
//   npm run bench:backup
//   BENCH_SIZES=100000 BENCH_ENGINES=pglite npm run bench:backup
//   BENCH_DATA_DIR=/path/data-1000000 BENCH_SIZES=1000000 BENCH_ENGINES=pglite npm run bench:backup (a seeded data directory kept)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/db/connection.ts';
import { createPostgresDatabase } from '../tests/support/databases.ts';
import { benchCompanies, buildBenchApp, listenLocal, seedMarket } from './setup.ts';

const SIZES = (process.env.BENCH_SIZES ?? '100000,1000000').split(',').map(Number);
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Documents of the deal room, 1 MB each, in parts: the bytes a backup carries besides rows. */
const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 100);
const ROOT = new URL('../', import.meta.url).pathname;
const work = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'fx-bench-backup-'));

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const du = (p: string) => Number(execFileSync('du', ['-sb', p], { encoding: 'utf8' }).split('\t')[0]);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

function command(args: string[], env: Record<string, string>): Promise<{ ms: number; out: any }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/freight-exchange.js', ...args, '--json'], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', DATA_DIR: '', METRICS_TOKEN: '', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.once('close', (code) =>
      code === 0 ? resolve({ ms: performance.now() - start, out: JSON.parse(out) }) : reject(new Error(`${args[0]} failed (${code})`)),
    );
  });
}

async function timed<T>(what: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const v = await what();
  return [v, performance.now() - start];
}

/** The bench market plus DOCUMENTS documents of 1 MB in 256 KiB parts, as the deal room stores them (random bytes: PDFs and photos hardly compress). */
async function seed(database: Database, size: number) {
  const app = await buildBenchApp(database);
  const users = await benchCompanies(database.db, app.tokens, 20);
  const [, ms] = await timed(async () => {
    await seedMarket(database.db, users, size);
    await sql`
      insert into deal_documents (freight_id, company_id, user_id, kind, name, media_type, size, sha256, content, created)
      select i, ${users[0]!.company}, ${users[0]!.user}, 'other', 'doc-' || i || '.pdf', 'application/pdf', 1048576,
             repeat('0', 64), null, now()
        from generate_series(1, ${DOCUMENTS}) as i`.execute(database.db);
    await sql`
      insert into deal_document_parts (document_id, part, bytes)
      select d.id, p, (select decode(string_agg(md5(random()::text || g || '-' || d.id || '-' || p), ''), 'hex') from generate_series(1, 16384) as g)
        from deal_documents d cross join generate_series(0, 3) as p`.execute(database.db);
    await sql`vacuum analyze`.execute(database.db);
  });
  return { app, seedMs: ms };
}

const lines: string[] = [];
const report = (text: string) => {
  console.log(text);
  lines.push(text);
};

report(`bench:backup on ${os.cpus().length} cores, load average at start ${load()}`);
for (const engine of ENGINES) {
  for (const size of SIZES) {
    const tag = `${engine} ${size.toLocaleString('en')} freights`;
    if (engine === 'pglite') {
      // BENCH_DATA_DIR: a data directory seeded by an earlier run at this size (a million takes most of an hour to seed).
      const reused = process.env.BENCH_DATA_DIR && fs.existsSync(process.env.BENCH_DATA_DIR) ? process.env.BENCH_DATA_DIR : undefined;
      const dataDir = reused ?? path.join(work, `data-${size}`);
      const database = await openDatabase({ databaseUrl: undefined, dataDir });
      const { app, seedMs } = reused ? { app: await buildBenchApp(database), seedMs: 0 } : await seed(database, size);
      report(`\n${tag}: ${reused ? `reused ${reused}` : `seeded in ${seconds(seedMs)}`}; data directory ${mb(du(dataDir))}`);
      // The server listens and answers requests (a view a few times a second) while the backup copies.
      const base = await listenLocal(app.http);
      let requests = 0;
      let worst = 0;
      let stop = false;
      const probing = (async () => {
        while (!stop) {
          const t = performance.now();
          await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
          worst = Math.max(worst, performance.now() - t);
          requests++;
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const file = path.join(work, `pglite-${size}.fxb`);
      const backup = await command(['backup', '--to', file], { DATA_DIR: dataDir });
      stop = true;
      await probing;
      // The database's own dump: PGlite's tarball of its data directory (in memory), and a plain copy of the files.
      const [dump, dumpMs] = await timed(() => database.embedded!.client.dumpDataDir('gzip'));
      const [, cpMs] = await timed(async () => execFileSync('cp', ['-r', dataDir, `${dataDir}-copy`]));
      await app.http.close();
      await database.close();
      fs.rmSync(`${dataDir}-copy`, { recursive: true, force: true });
      const into = path.join(work, `restored-${size}`);
      const restore = await command(['restore', '--from', file], { DATA_DIR: into });
      report(
        `${tag}: backup ${seconds(backup.ms)} (${mb(backup.out.bytes)}; writes paused ${seconds(backup.out.paused_ms)}, ` +
          `worst /healthz during it ${seconds(worst)} over ${requests} requests), restore ${seconds(restore.ms)} ` +
          `(with the check of every table); PGlite's own dumpDataDir('gzip') ${seconds(dumpMs)} (${mb(dump.size)}, in memory); ` +
          `cp -r of the data directory ${seconds(cpMs)}`,
      );
      if (!reused) fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(into, { recursive: true, force: true });
      fs.rmSync(file, { force: true });
    } else {
      process.env.TEST_DATABASE_URL = SERVER;
      const { url, drop } = await createPostgresDatabase();
      const target = await createPostgresDatabase();
      try {
        const database = await openDatabase({ databaseUrl: url, dataDir: '' });
        const { app, seedMs } = await seed(database, size);
        const { rows } = await sql<{ b: string }>`select pg_database_size(current_database())::text as b`.execute(database.db);
        report(`\n${tag}: seeded in ${seconds(seedMs)}; database ${mb(Number(rows[0]!.b))}`);
        await app.http.close();
        await database.close();
        const file = path.join(work, `postgres-${size}.fxb`);
        const backup = await command(['backup', '--to', file], { DATABASE_URL: url });
        // pg_dump alone, as an operator would run it (the same format and options).
        const own = path.join(work, `own-${size}.pgdump`);
        const [, dumpMs] = await timed(async () =>
          execFileSync('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${own}`, `--dbname=${url}`]),
        );
        const restore = await command(['restore', '--from', file], { DATABASE_URL: target.url });
        report(
          `${tag}: backup ${seconds(backup.ms)} (${mb(backup.out.bytes)}), restore ${seconds(restore.ms)} (with the check of every table); ` +
            `pg_dump alone ${seconds(dumpMs)} (${mb(fs.statSync(own).size)})`,
        );
        fs.rmSync(file, { force: true });
        fs.rmSync(own, { force: true });
      } finally {
        await drop();
        await target.drop();
      }
    }
    report(`load average ${load()}`);
  }
}
fs.rmSync(work, { recursive: true, force: true });
console.log(`\n${lines.join('\n')}`);
