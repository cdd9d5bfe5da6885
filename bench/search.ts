// Rate search benchmark (issue 5): generates a realistic exchange (many companies and sheets,
// postal zones at 1-3 digit prefixes, hub airports, mixed visibility/currency/validity),
// imports it through importRateSheet (the CLI/file-push path) and measures search latency
// in-process (validate + search + store the record, as the endpoint does).
//
//   npm run bench:search                                  # 100k and 1M lines, PostgreSQL and PGlite
//   BENCH_SIZES=100000 BENCH_ENGINES=postgres npm run bench:search
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (default) names the server;
//   BENCH_QUERIES=300 searches per kind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createCompany } from '../src/accounts/commands.ts';
import { openDatabase, type Database } from '../src/db/connection.ts';
import { Clock } from '../src/kernel/time.ts';
import { readSearchParams } from '../src/pricing/fields.ts';
import { importRateSheet } from '../src/pricing/import.ts';
import { runSearch } from '../src/pricing/search.ts';
import { insertSearch } from '../src/pricing/store.ts';

const SIZES = (process.env.BENCH_SIZES ?? '100000,1000000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0);
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',').map((s) => s.trim());
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// Deterministic pseudo-random numbers (mulberry32), so every run sees the same data.
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COUNTRIES: Record<string, { airports: string[]; digits: number; weight: number }> = {
  DE: { airports: ['FRA', 'MUC', 'HAM', 'DUS', 'CGN', 'LEJ', 'STR', 'BER', 'HAJ', 'NUE'], digits: 5, weight: 30 },
  FR: { airports: ['CDG', 'ORY', 'LYS', 'MRS', 'TLS', 'NCE'], digits: 5, weight: 15 },
  NL: { airports: ['AMS', 'EIN', 'RTM'], digits: 4, weight: 8 },
  BE: { airports: ['BRU', 'LGG', 'OST'], digits: 4, weight: 6 },
  PL: { airports: ['WAW', 'KTW', 'GDN', 'WRO'], digits: 5, weight: 8 },
  IT: { airports: ['MXP', 'FCO', 'BGY', 'VCE', 'BLQ'], digits: 5, weight: 12 },
  ES: { airports: ['MAD', 'BCN', 'VLC', 'ZAZ'], digits: 5, weight: 10 },
  AT: { airports: ['VIE', 'LNZ', 'GRZ'], digits: 4, weight: 5 },
  CZ: { airports: ['PRG', 'BRQ'], digits: 5, weight: 3 },
  CH: { airports: ['ZRH', 'BSL', 'GVA'], digits: 4, weight: 3 },
};
const ALL_HUBS = Object.values(COUNTRIES).flatMap((c) => c.airports);
const HEADER = 'origin,destination,transit_days,min_charge,kg_100,kg_300,kg_500,kg_1000,kg_3000,fsc_pct,ssc_per_kg,uld_price';

function pick<T>(r: () => number, items: T[]): T {
  return items[Math.floor(r() * items.length)]!;
}
function pickCountry(r: () => number): string {
  const total = Object.values(COUNTRIES).reduce((s, c) => s + c.weight, 0);
  let x = r() * total;
  for (const [cc, c] of Object.entries(COUNTRIES)) {
    x -= c.weight;
    if (x < 0) return cc;
  }
  return 'DE';
}
const money = (x: number) => x.toFixed(2);

/** One carrier's sheet: 1-3 airports of its country, 2-digit zones with 1- and 3-digit refinements, both directions, some trunk lines. */
function makeSheet(r: () => number, target: number): { csv: string; lines: number; country: string } {
  const country = pickCountry(r);
  const c = COUNTRIES[country]!;
  const airports = [...new Set(Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(r, c.airports)))];
  const rows: string[] = [HEADER];
  const line = (o: string, d: string, base: number) => {
    const k = (f: number) => (r() < 0.05 ? '' : (base * f).toFixed(3));
    rows.push(
      [
        o,
        d,
        1 + Math.floor(r() * 3),
        money(30 + r() * 40),
        k(1),
        k(0.9),
        k(0.8),
        k(0.7),
        r() < 0.3 ? '' : k(0.6),
        (8 + r() * 10).toFixed(1),
        (0.03 + r() * 0.05).toFixed(3),
        r() < 0.3 ? money(600 + r() * 600) : '',
      ].join(','),
    );
  };
  const zones = new Set<string>();
  while (rows.length - 1 < target) {
    const before = rows.length;
    const d1 = String(Math.floor(r() * 10));
    const p = r();
    const zone = p < 0.1 ? d1 : p < 0.75 ? d1 + Math.floor(r() * 10) : d1 + Math.floor(r() * 10) + Math.floor(r() * 10);
    if (!zones.has(zone)) {
      zones.add(zone);
      for (const a of airports) {
        line(`city:${country}-${zone}`, `airport:${a}`, 0.2 + r() * 0.4);
        if (r() < 0.7) line(`airport:${a}`, `city:${country}-${zone}`, 0.2 + r() * 0.4);
      }
    }
    if (r() < 0.02) {
      const a = pick(r, airports);
      const b = pick(r, ALL_HUBS);
      const key = `airport:${a}>airport:${b}`;
      if (a !== b && !zones.has(key)) {
        zones.add(key);
        line(`airport:${a}`, `airport:${b}`, 0.1 + r() * 0.3);
      }
    }
    if (rows.length === before && zones.size > 2000) break; // zone space of this sheet exhausted
  }
  return { csv: rows.join('\n'), lines: rows.length - 1, country };
}

async function generateAndImport(database: Database, size: number) {
  const r = rng(size);
  const db = database.db;
  const companies: number[] = [];
  let lines = 0;
  let sheets = 0;
  let importMs = 0;
  let generateMs = 0;
  const start = performance.now();
  let lastReport = start;
  while (lines < size) {
    if (companies.length === 0 || r() < 0.2) companies.push((await createCompany(db, `Carrier ${companies.length + 1}`)).id);
    const t0 = performance.now();
    const target = Math.min(size - lines, 100 + Math.floor(r() * 700));
    const sheet = makeSheet(r, target);
    const t1 = performance.now();
    const v = r();
    const expired = r() < 0.1;
    const result = await importRateSheet(db, {
      companyId: pick(r, companies),
      csvText: sheet.csv,
      name: `Sheet ${sheets + 1}`,
      visibility: v < 0.7 ? 'exchange' : v < 0.9 ? 'private' : 'public_search',
      currency: r() < 0.9 ? 'EUR' : 'USD',
      validFrom: expired ? '2020-01-01' : null,
      validTo: expired ? '2020-12-31' : null,
    });
    const t2 = performance.now();
    generateMs += t1 - t0;
    importMs += t2 - t1;
    lines += result.lines;
    sheets++;
    if (t2 - lastReport > 10_000) {
      process.stderr.write(`  … ${lines} lines in ${sheets} sheets, ${(importMs / 1000).toFixed(1)} s importing\n`);
      lastReport = t2;
    }
  }
  return { lines, sheets, companies: companies.length, importMs, generateMs, perMillion: (importMs / lines) * 1e6 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(database: Database, kind: 'direct' | 'combined', searcher: number) {
  const r = rng(kind === 'direct' ? 7 : 11);
  const clock = new Clock('UTC');
  const request = () => {
    const cc = pickCountry(r);
    const c = COUNTRIES[cc]!;
    const postal = Array.from({ length: c.digits }, () => Math.floor(r() * 10)).join('');
    const city = `city:${cc}-${postal}`;
    const weight = String(Math.round(20 + r() * 2500));
    if (kind === 'direct') {
      const a = pick(r, c.airports);
      const x = r();
      if (x < 0.45) return { origin: city, destination: `airport:${a}`, weight };
      if (x < 0.9) return { origin: `airport:${a}`, destination: city, weight };
      return {
        origin: `airport:${a}`,
        destination: `airport:${pick(
          r,
          ALL_HUBS.filter((h) => h !== a),
        )}`,
        weight,
      };
    }
    // City to a foreign hub: combinations through the carrier's airports.
    return {
      origin: city,
      destination: `airport:${pick(
        r,
        ALL_HUBS.filter((h) => !c.airports.includes(h)),
      )}`,
      weight,
      allow_combinations: 1,
    };
  };
  const searchTimes: number[] = [];
  const times: number[] = [];
  let rates = 0;
  let combos = 0;
  const run = async (record: boolean) => {
    const t0 = performance.now();
    const params = readSearchParams(request());
    const result = await runSearch(database.db, clock, params, { kind: 'company', companyId: searcher });
    const t1 = performance.now();
    await insertSearch(database.db, {
      companyId: searcher,
      userId: null,
      publicCompanyId: null,
      params,
      resultCount: result.rates.length,
      created: clock.now(),
    });
    const t2 = performance.now();
    if (record) {
      searchTimes.push(t1 - t0);
      times.push(t2 - t0);
      rates += result.rates.length;
      combos += result.combinations.length;
    }
  };
  for (let i = 0; i < 20; i++) await run(false); // warm-up
  for (let i = 0; i < QUERIES; i++) await run(true);
  searchTimes.sort((a, b) => a - b);
  times.sort((a, b) => a - b);
  return {
    p50: percentile(searchTimes, 50),
    p99: percentile(searchTimes, 99),
    storedP50: percentile(times, 50),
    avgRates: rates / QUERIES,
    avgCombinations: combos / QUERIES,
  };
}

async function openEngine(engine: string): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  if (engine === 'postgres') {
    const name = `fx_bench_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: SERVER });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(SERVER);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    return {
      database,
      cleanup: async () => {
        await database.close();
        if (process.env.BENCH_KEEP) return void process.stderr.write(`kept database ${name}\n`);
        const c = new pg.Client({ connectionString: SERVER });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-bench-'));
  const database = await openDatabase({ databaseUrl: undefined, dataDir: path.join(dir, 'data') });
  return {
    database,
    cleanup: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const results: Record<string, unknown>[] = [];
for (const engine of ENGINES) {
  for (const size of SIZES) {
    process.stderr.write(`${engine}, ${size} lines: generating and importing…\n`);
    const { database, cleanup } = await openEngine(engine);
    try {
      const imported = await generateAndImport(database, size);
      const searcher = (await createCompany(database.db, 'Forwarder')).id;
      const direct = await measure(database, 'direct', searcher);
      const combined = await measure(database, 'combined', searcher);
      const row = {
        engine,
        lines: imported.lines,
        sheets: imported.sheets,
        companies: imported.companies,
        import_s: +(imported.importMs / 1000).toFixed(1),
        direct_p50_ms: +direct.p50.toFixed(2),
        direct_p99_ms: +direct.p99.toFixed(2),
        direct_with_record_p50_ms: +direct.storedP50.toFixed(2),
        direct_avg_rates: +direct.avgRates.toFixed(1),
        combined_p50_ms: +combined.p50.toFixed(2),
        combined_p99_ms: +combined.p99.toFixed(2),
        combined_with_record_p50_ms: +combined.storedP50.toFixed(2),
        combined_avg_rates: +combined.avgRates.toFixed(1),
        combined_avg_combinations: +combined.avgCombinations.toFixed(1),
      };
      results.push(row);
      console.log(JSON.stringify(row));
    } finally {
      await cleanup();
    }
  }
}
console.table(results);
