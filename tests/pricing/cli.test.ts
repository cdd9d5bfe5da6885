import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../../src/admin.ts';
import type { CliIo } from '../../src/cli/command.ts';
import { readConfig } from '../../src/config/config.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { migratedDeployment } from '../support/databases.ts';

// `freight-exchange rates import` in-process, against a temporary database of the engine under
// test (a file-based PGlite data directory, or a new PostgreSQL database). Few invocations:
// each opens the database anew.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-rates-cli-'));
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
let drop: (() => Promise<void>) | undefined;

before(async () => {
  const deployment = await migratedDeployment(path.join(dir, 'data'));
  Object.assign(process.env, deployment.env);
  drop = deployment.drop;
});
after(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await drop?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), interactive: false };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('rates import: --json summary; a bad file or option exits non-zero with one line on stderr and changes nothing', async () => {
  const company = await run('company', 'create', '--name', 'CLI Carrier', '--json');
  assert.equal(company.code, 0, company.err);
  const companyId = String(JSON.parse(company.out).id);

  const good = path.join(dir, 'good.csv');
  fs.writeFileSync(
    good,
    'origin,destination,transit_days,min_charge,kg_100,kg_300,fsc_pct,ssc_per_kg,uld_price\ncity:DE-60,airport:FRA,1,45.00,0.40,0.35,12.5,0.05,\nairport:FRA,airport:AMS,1,80.00,0.30,0.28,10,0.04,950\n',
  );
  const ok = await run(
    'rates',
    'import',
    '--company',
    companyId,
    '--file',
    good,
    '--visibility',
    'exchange',
    '--valid-from',
    '2030-01-01',
    '--json',
  );
  assert.equal(ok.code, 0, ok.err);
  const summary = JSON.parse(ok.out);
  assert.deepEqual(Object.keys(summary), ['sheet_id', 'lines']);
  assert.equal(summary.lines, 2);
  assert.equal(typeof summary.sheet_id, 'number');
  assert.equal(ok.err, '');

  const bad = path.join(dir, 'bad.csv');
  fs.writeFileSync(bad, 'origin,destination,kg_100,kg_300\ncity:DE-60,airport:FRA,0.4,0.3\ncity:DE-61,airport:FRA,0.4,cheap\n');
  const refused = await run('rates', 'import', '--company', companyId, '--file', bad, '--json');
  assert.equal(refused.code, 1);
  assert.equal(refused.out, '');
  assert.doesNotMatch(refused.err, /\n/);
  assert.match(refused.err, /line 3, column 4 \(kg_300\): "cheap" is not a number/);

  const option = await run('rates', 'import', '--company', companyId, '--file', good, '--currency', 'EURO', '--valid-from', '2030-13-01');
  assert.equal(option.code, 1);
  assert.match(option.err, /--currency: .*--valid-from: /);

  for (const argv of [
    ['--company', companyId, '--file', path.join(dir, 'missing.csv')],
    ['--file', good],
    ['--company', 'x', '--file', good],
  ]) {
    const r = await run('rates', 'import', ...argv);
    assert.equal(r.code, 1, argv.join(' '));
    assert.doesNotMatch(r.err, /\n/);
  }

  const database = await openDatabase(readConfig());
  try {
    const sheets = await database.db.selectFrom('rate_sheets').select(['id', 'visibility', 'valid_from', 'line_count']).execute();
    assert.deepEqual(sheets, [{ id: summary.sheet_id, visibility: 'exchange', valid_from: '2030-01-01', line_count: 2 }]);
    const lines = await database.db.selectFrom('rate_lines').select('id').execute();
    assert.equal(lines.length, 2);
  } finally {
    await database.close();
  }
});
