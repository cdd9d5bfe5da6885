import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { rateLineForBooking, searchForFreight } from '../../src/pricing/handover.ts';
import { FileRefused } from '../../src/kernel/refused.ts';
import { importRateSheet, type RateImportProblem } from '../../src/pricing/import.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

let app: TestApp;
let carrier: Actor;
let other: Actor;

before(async () => {
  app = await startTestApp();
  carrier = await app.actor('Carrier');
  other = await app.actor('Other');
});
after(() => app.close());

async function counts() {
  const db = app.services.db;
  const sheets = await db
    .selectFrom('rate_sheets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const lines = await db
    .selectFrom('rate_lines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { sheets: Number(sheets.n), lines: Number(lines.n) };
}

/** Imports and answers the problems it was refused with (fails when it was accepted). */
async function refused(csvText: string, options: Record<string, unknown> = {}): Promise<RateImportProblem[]> {
  const before = await counts();
  try {
    await importRateSheet(app.services.db, { companyId: carrier.company, csvText, ...options });
  } catch (err) {
    assert.ok(err instanceof FileRefused, String(err));
    assert.deepEqual(await counts(), before, 'nothing stored');
    assert.ok(!err.message.includes('\n'));
    return err.problems as RateImportProblem[];
  }
  assert.fail('import was accepted');
}

const at = (problems: RateImportProblem[]) => problems.map((p) => [p.line, p.column, p.field]);

describe('import', () => {
  test('a good sheet: breaks in any column order, options stored, lines normalised', async () => {
    const csv =
      '\ufeffOrigin,destination,kg_300,kg_100,min_charge,transit_days,fsc_pct,ssc_per_kg,uld_price\r\ncity:de-60,airport:fra,0.35,0.40,45.00,1,12.5,0.05,\r\n\r\n"airport:FRA","city:DE-6 03",,0.5,,,,,\r\nairport:FRA,airport:AMS,0.3,0.3,80,1,10,0.04,950\r\n';
    const result = await importRateSheet(app.services.db, {
      companyId: carrier.company,
      csvText: csv,
      name: ' Rhein ',
      currency: 'usd',
      visibility: 'exchange',
      validFrom: '2030-01-01',
      validTo: '2030-12-31',
    });
    assert.equal(result.lines, 3);
    const sheet = await app.services.db
      .selectFrom('rate_sheets')
      .selectAll()
      .select(sql<string[]>`breaks::text[]`.as('breaks'))
      .where('id', '=', result.sheetId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [sheet.name, sheet.currency, sheet.visibility, sheet.valid_from, sheet.valid_to, sheet.breaks, sheet.line_count],
      ['Rhein', 'USD', 'exchange', '2030-01-01', '2030-12-31', ['100', '300'], 3],
    );
    const lines = await app.services.db
      .selectFrom('rate_lines')
      .selectAll()
      .select(sql<(string | null)[]>`prices::text[]`.as('prices'))
      .where('sheet_id', '=', result.sheetId)
      .orderBy('line_no')
      .execute();
    assert.deepEqual(
      lines.map((l) => [
        l.line_no,
        l.kind,
        l.origin,
        l.destination,
        l.airport,
        l.other_airport,
        l.zone_country,
        l.zone_prefix,
        l.prices,
        l.min_charge,
        l.uld_price,
      ]),
      [
        [2, 1, 'city:DE-60', 'airport:FRA', 'FRA', null, 'DE', '60', ['0.40', '0.35'], '45.00', null],
        [4, 2, 'airport:FRA', 'city:DE-603', 'FRA', null, 'DE', '603', ['0.5', null], null, null],
        [5, 3, 'airport:FRA', 'airport:AMS', 'FRA', 'AMS', null, null, ['0.3', '0.3'], '80', '950'],
      ],
    );
  });

  test('defaults: exchange, EUR, open validity', async () => {
    const { sheetId } = await importRateSheet(app.services.db, {
      companyId: carrier.company,
      csvText: 'origin,destination,uld_price\nairport:FRA,airport:MUC,100',
    });
    const sheet = await app.services.db.selectFrom('rate_sheets').selectAll().where('id', '=', sheetId).executeTakeFirstOrThrow();
    assert.deepEqual(
      [sheet.visibility, sheet.currency, sheet.valid_from, sheet.valid_to, sheet.name],
      ['exchange', 'EUR', null, null, 'Rate sheet'],
    );
  });

  test('every problem of a bad file, each with its line and column; nothing stored', async () => {
    const csv = [
      'origin,destination,transit_days,min_charge,kg_100,kg_300,fsc_pct,ssc_per_kg,uld_price',
      'zip:60,airport:FRA,1,45,0.4,0.3,10,0.05,', // 2: origin format
      'city:DE-60,airport:FRA,x,45,0.4,abc,10,0.05,', // 3: transit_days, kg_300
      'city:DE-60,city:DE-61,1,45,0.4,0.3,10,0.05,', // 4: no airport
      'city:DE-60,airport:QQQ,1,45,0.4,0.3,10,0.05,', // 5: unknown airport
      'city:DE-60,airport:FRA,1,-45,0.4,0.3,10,0.05,', // 6: negative
      'city:DE-60,airport:FRA,1,45,0.4', // 7: field count
      'city:DE-61,airport:FRA,1,45,,,10,0.05,', // 8: no price
      'city:DE-62,airport:FRA,1,45,0.4,0.3,10,0.05,', // fine
      'city:de-62,airport:fra,1,45,0.4,0.3,10,0.05,', // 10: duplicate of line 9
      'airport:FRA,airport:FRA,1,45,0.4,0.3,10,0.05,', // 11: same airport
    ].join('\n');
    const problems = await refused(csv, { visibility: 'exchange' });
    assert.deepEqual(at(problems), [
      [2, 1, 'origin'],
      [3, 3, 'transit_days'],
      [3, 6, 'kg_300'],
      [4, 2, 'destination'],
      [5, 2, 'destination'],
      [6, 4, 'min_charge'],
      [6, 2, 'destination'], // the same lane as line 3
      [7, null, null],
      [8, 5, 'kg_100'],
      [10, 2, 'destination'],
      [11, 2, 'destination'],
    ]);
    assert.match(problems[6]!.message, /already on line 3/);
    assert.match(problems[9]!.message, /already on line 9/);
    assert.match(problems[4]!.message, /unknown airport QQQ/);
  });

  test('header problems: unknown, repeated and missing columns, no price column', async () => {
    assert.deepEqual(at(await refused('origin,destinaton,kg_100,kg_100,notes\nairport:FRA,city:DE-6,1,1,x')), [
      [1, 2, 'destinaton'],
      [1, 4, 'kg_100'],
      [1, 5, 'notes'],
      [1, null, 'destination'],
    ]);
    assert.deepEqual(at(await refused('origin,destination,min_charge\nairport:FRA,city:DE-6,1')), [[1, null, null]]);
    assert.deepEqual(at(await refused('origin,destination,kg_0\nairport:FRA,city:DE-6,1')), [
      [1, 3, 'kg_0'],
      [1, null, null],
    ]);
  });

  test('empty, header only, unreadable CSV', async () => {
    assert.deepEqual(at(await refused('')), [[null, null, 'file']]);
    assert.deepEqual(at(await refused('origin,destination,kg_100\n')), [[2, null, null]]);
    const problems = await refused('origin,destination,kg_100\n"airport:FRA,city:DE-6,1\n');
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.message, /unreadable CSV/);
  });

  test('bad options: currency, visibility, dates, company', async () => {
    const csv = 'origin,destination,kg_100\nairport:FRA,city:DE-6,1';
    assert.deepEqual(at(await refused(csv, { currency: 'EURO', visibility: 'public', validFrom: '2030-02-30', validTo: 'tomorrow' })), [
      [null, null, 'currency'],
      [null, null, 'visibility'],
      [null, null, 'valid_from'],
      [null, null, 'valid_to'],
    ]);
    assert.deepEqual(at(await refused(csv, { validFrom: '2030-02-02', validTo: '2030-02-01' })), [[null, null, 'valid_to']]);
    assert.deepEqual(at(await refused(csv, { companyId: 987654 })), [[null, null, 'company']]);
  });

  test('a problem after several stored batches rolls the whole sheet back', async () => {
    const rows = Array.from({ length: 12000 }, (_, i) => `city:DE-${10000 + i},airport:FRA,1`);
    rows.push('city:DE-1,airport:FRA,oops');
    const problems = await refused(`origin,destination,kg_100\n${rows.join('\n')}`);
    assert.deepEqual(at(problems), [[12002, 3, 'kg_100']]);
  });
});

describe('handover to freights', () => {
  test('searchForFreight: the company’s own search only; inches converted to cm', async () => {
    const res = await app.post('/pricing/search/results.json', {
      token: carrier.token,
      json: {
        origin: 'city:DE-60311',
        destination: 'airport:FRA',
        weight: '120.5',
        unitOfLength: 'in',
        pieces_json: [{ pieces: 2, depth: 10, width: '20', height: 1.5, weight: 60 }, { weight: 0.5 }],
      },
    });
    const id = res.body.data.searchEntity.id;
    assert.deepEqual(await searchForFreight(app.services.db, carrier.company, id), {
      origin: 'city:DE-60311',
      destination: 'airport:FRA',
      weight: '120.5',
      pieces: [{ pieces: 2, depth: '25.4', width: '50.8', height: '3.81', weight: '60' }, { weight: '0.5' }],
    });
    assert.equal(await searchForFreight(app.services.db, other.company, id), null);
    assert.equal(await searchForFreight(app.services.db, carrier.company, 99999999), null);
  });

  test('rateLineForBooking: own lines, exchange and public_search lines; never another’s private line', async () => {
    const csv = 'origin,destination,transit_days,kg_100\ncity:DE-60,airport:FRA,2,1';
    const lineOf = async (sheetId: number) =>
      (await app.services.db.selectFrom('rate_lines').select('id').where('sheet_id', '=', sheetId).executeTakeFirstOrThrow()).id;
    const priv = await lineOf(
      (await importRateSheet(app.services.db, { companyId: carrier.company, csvText: csv, visibility: 'private' })).sheetId,
    );
    const pub = await lineOf(
      (await importRateSheet(app.services.db, { companyId: carrier.company, csvText: csv, visibility: 'public_search' })).sheetId,
    );
    const exchangeSheet = (await importRateSheet(app.services.db, { companyId: carrier.company, csvText: csv, visibility: 'exchange' }))
      .sheetId;
    const exch = await lineOf(exchangeSheet);
    assert.deepEqual(await rateLineForBooking(app.services.db, other.company, exch), {
      id: exch,
      sheetId: exchangeSheet,
      company: carrier.company,
      origin: 'city:DE-60',
      destination: 'airport:FRA',
      transitDays: 2,
    });
    assert.equal((await rateLineForBooking(app.services.db, other.company, pub))?.id, pub);
    assert.equal(await rateLineForBooking(app.services.db, other.company, priv), null);
    assert.equal((await rateLineForBooking(app.services.db, carrier.company, priv))?.id, priv);
    assert.equal(await rateLineForBooking(app.services.db, carrier.company, 99999999), null);
  });
});
