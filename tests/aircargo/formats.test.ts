import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { csvSample, fsuSample, NOW, push, trio, xfsuMessage, xfsuSample, type Trio } from './samples.ts';

let app: TestApp;
let viaCsv: Actor;
let viaFsu: Actor;
let viaXfsu: Actor;
const csvAwbs = trio(100);
const fsuAwbs = trio(200);
const xfsuAwbs = trio(300);

before(async () => {
  app = await startTestApp();
  app.setNow(NOW);
  viaCsv = await app.actor('Csv Handler');
  viaFsu = await app.actor('Fsu Handler');
  viaXfsu = await app.actor('Xfsu Handler');
});
after(() => app.close());

async function counts() {
  const db = app.services.db;
  const out: Record<string, number> = {};
  for (const t of ['files', 'file_parts', 'awb_events', 'milkrun_shipments'] as const) {
    const r = await db
      .selectFrom(t)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[t] = Number(r.n);
  }
  return out;
}

/** The stored events of an AWB, without what differs by construction (ids, file, company, AWB). */
async function storedEvents(awb: string) {
  const rows = await app.services.db
    .selectFrom('awb_events')
    .selectAll()
    .where('awb', '=', awb)
    .orderBy('event_time')
    .orderBy('flight_number')
    .execute();
  return rows.map((r) => ({
    code: r.code,
    time: r.event_time?.toISOString(),
    location: r.location,
    flight: r.flight_number,
    pieces: r.pieces,
    weight: r.weight,
    shc: r.special_handling_codes,
    warehouse: r.warehouse_location,
  }));
}

/** Public tracking of an AWB: the answer's events. */
async function tracking(awb: string) {
  const res = await app.get(`/freights/track/${awb}.json`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.tracking.valid, true);
  return res.body.data.tracking.events;
}

/** Every milk-run list the owner has (70-84), shipments without id and AWB, keyed by which of the trio. */
async function milkrun(actor: Actor, awbs: Trio) {
  const names = new Map([
    [awbs.one, 'one'],
    [awbs.split, 'split'],
    [awbs.pounds, 'pounds'],
  ]);
  const out: Record<string, unknown[]> = {};
  for (const list of [70, 71, 72, 78, 80, 81, 82, 83, 84]) {
    const res = await app.get(`/milkrun/import/short/${list}.json`, { token: actor.token });
    assert.equal(res.status, 200, res.text);
    out[list] = (res.body.data.shipments as Array<Record<string, unknown>>).map(({ id: _id, awb, ...rest }) => ({
      which: names.get(String(awb)),
      ...rest,
    }));
  }
  return out;
}

describe('FSU and XFSU give the status events the CSV gives', () => {
  before(async () => {
    const csv = await push(app, viaCsv, 'status', csvSample(csvAwbs), 'status.csv');
    assert.equal(csv.status, 200, csv.text);
    assert.equal(csv.body.data.file.records, 16);
    const fsu = await push(app, viaFsu, 'fsu', fsuSample(fsuAwbs), 'fsu.txt');
    assert.equal(fsu.status, 200, fsu.text);
    assert.equal(fsu.body.data.file.action, 'fsu');
    assert.equal(fsu.body.data.file.records, 16);
    for (const message of xfsuSample(xfsuAwbs)) {
      const res = await push(app, viaXfsu, 'xfsu', message, 'xfsu.xml');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.file.status, 'processed');
    }
  });

  test('the same events are stored: times from airport-local clocks, parts, pounds in kg', async () => {
    for (const key of ['one', 'split', 'pounds'] as const) {
      const expected = await storedEvents(csvAwbs[key]);
      assert.ok(expected.length >= 2);
      assert.deepEqual(await storedEvents(fsuAwbs[key]), expected, `FSU ${key}`);
      assert.deepEqual(await storedEvents(xfsuAwbs[key]), expected, `XFSU ${key}`);
    }
    const split = await storedEvents(fsuAwbs.split);
    assert.deepEqual(
      split.filter((e) => e.code === 'DEP').map((e) => [e.flight, e.pieces, e.weight]),
      [
        ['CX289', 6, '300.000'],
        ['CX291', 4, '200.000'],
      ],
    );
    assert.equal((await storedEvents(xfsuAwbs.pounds))[0]!.weight, '49.986');
  });

  test('public tracking reads the same', async () => {
    for (const key of ['one', 'split', 'pounds'] as const) {
      const expected = await tracking(csvAwbs[key]);
      assert.deepEqual(await tracking(fsuAwbs[key]), expected, `FSU ${key}`);
      assert.deepEqual(await tracking(xfsuAwbs[key]), expected, `XFSU ${key}`);
    }
    const one = await tracking(fsuAwbs.one);
    assert.deepEqual(
      one.map((e: { code: string }) => e.code),
      ['RCS', 'DEP', 'ARR', 'RCF', 'NFD', 'AWD', 'DLV'],
    );
    // 16:10 at JFK (EDT) is 20:10 UTC, the exchange's time zone in tests.
    assert.deepEqual(one[3], { code: 'RCF', time: '2026-04-14 20:10:00', location: 'JFK', flight_number: 'LH400' });
  });

  test('the milk-run lists read the same', async () => {
    const expected = await milkrun(viaCsv, csvAwbs);
    assert.equal((expected[84] as unknown[]).length, 3, 'all three delivered');
    assert.deepEqual(await milkrun(viaFsu, fsuAwbs), expected);
    assert.deepEqual(await milkrun(viaXfsu, xfsuAwbs), expected);
    const split = (expected[84] as Array<Record<string, unknown>>).find((s) => s.which === 'split')!;
    assert.equal(split.flight_number, 'CX291'); // the latest RCF
    assert.equal(split.ata, '2026-04-14 07:15:00');
  });
});

describe('FSU dates have no year', () => {
  test('the latest year at most a month after the push: last December in January, this March in November, a booking next month', async () => {
    const year = async (now: string, date: string, code = 'RCS') => {
      app.setNow(new Date(now));
      const a = trio(800 + Math.floor(Math.random() * 100_000)).one;
      const line = code === 'BKD' ? `BKD/LH400/${date}/FRAJFK/T1K5` : `${code}/${date}0930/FRA/T1K5`;
      const res = await push(app, viaFsu, 'fsu', `FSU/14\n${a}FRAJFK/T1K5\n${line}\n`);
      assert.equal(res.status, 200, res.text);
      const row = await app.services.db.selectFrom('awb_events').select('event_time').where('awb', '=', a).executeTakeFirstOrThrow();
      return row.event_time!.toISOString().slice(0, 10);
    };
    try {
      assert.equal(await year('2026-01-05T12:00:00Z', '15DEC'), '2025-12-15');
      assert.equal(await year('2026-11-23T12:00:00Z', '02MAR'), '2026-03-02');
      assert.equal(await year('2026-11-23T12:00:00Z', '10DEC', 'BKD'), '2026-12-09'); // 00:00 at FRA is 23:00 UTC the day before
      assert.equal(await year('2026-11-23T12:00:00Z', '28FEB'), '2026-02-28');
    } finally {
      app.setNow(NOW);
    }
  });
});

describe('a message that cannot be read is refused whole (406, line and reason, nothing stored)', () => {
  async function refused(action: string, content: string, message: RegExp) {
    const before = await counts();
    const res = await push(app, viaFsu, action, content);
    assert.equal(res.status, 406, res.text);
    assert.equal(res.body.status, 'error');
    assert.match(res.body.message, message);
    assert.deepEqual(await counts(), before);
  }

  test('FSU: a malformed line among good ones names its line and field', async () => {
    const good = fsuSample(trio(400)).split('\r\n');
    const bad = [...good];
    bad[12] = 'RCF/LH400/32APR1610/JFK/T10K250.5'; // the 13th line: no 32nd of April
    await refused('fsu', bad.join('\n'), /line 13, date: "32APR1610" is not a date/);
    await refused(
      'fsu',
      good.join('\n').replace('DLV/15APR1500/JFK', 'DLV/15APR/JFK'),
      /line 18, date: "15APR" is not a date and time DDMMMHHMM/,
    );
    await refused(
      'fsu',
      good.join('\n').replace('RCS/13APR1800/HKG', 'RCS/13APR1800/QQQ'),
      /line 24, airport: "QQQ" is not a known airport/,
    );
    await refused('fsu', good.join('\n').replace('P6K300T10', 'P6X300'), /line 25, quantity: "P6X300" is not a quantity/);
    await refused(
      'fsu',
      good.join('\n').replace('NFD/14APR1000', 'XYZ/14APR1000'),
      /line 31, status: "XYZ" is not a status code read from FSU/,
    );
    await refused('fsu', `FSU/14\n020-5000404FRAJFK/T1K1\nRCS/14APR0930/FRA\n`, /line 2, awb: .* is not a consignment line/);
    await refused('fsu', `FSU/14\n${trio(400).one}FRAJFK/T1K1\n`, /line 2, status: the message has no status line/);
    await refused('fsu', 'awb,code,time\n1,2,3\n', /line 1: .* comes before any FSU message/);
    await refused('fsu', '\n\n', /no FSU message in the file/);
  });

  test('XFSU: not well-formed, unreadable values and unknown codes name the line and XML path', async () => {
    const a = trio(500);
    const ok = xfsuMessage(a.one, 'RCF', [{ pieces: 10, weight: '250.5', flight: 'LH400', location: 'JFK', time: '2026-04-14T16:10:00' }], {
      pieces: 10,
      weight: '250.5',
      from: 'FRA',
      to: 'JFK',
    });
    await refused('xfsu', ok.replace('</ram:PieceQuantity>', '</ram:PieceQuantit>'), /line \d+, XML: not well-formed XML/);
    await refused(
      'xfsu',
      ok.replace('<ram:PieceQuantity>10<', '<ram:PieceQuantity>ten<'),
      /line 24, \/StatusMessage\/MasterConsignment\[1\]\/ReportedStatus\[1\]\/AssociatedStatusConsignment\[1\]\/PieceQuantity\[1\]: "ten" is not a number of pieces/,
    );
    await refused(
      'xfsu',
      ok.replace('2026-04-14T16:10:00', '14.04.2026 16:10'),
      /OccurrenceDateTime\[1\]: "14.04.2026 16:10" is not a date and time/,
    );
    await refused(
      'xfsu',
      ok.replace('<ram:ReasonCode>RCF<', '<ram:ReasonCode>XXX<'),
      /ReasonCode\[1\]: "XXX" is not a status code read from XFSU/,
    );
    await refused(
      'xfsu',
      ok.replace(
        'unitCode="KGM">250.5</ram:GrossWeightMeasure>\n        <ram:Piece',
        'unitCode="TNE">250.5</ram:GrossWeightMeasure>\n        <ram:Piece',
      ),
      /unitCode "TNE" is not a weight unit/,
    );
    await refused(
      'xfsu',
      ok.replace(`<ram:ID>${a.one}</ram:ID><ram:Name>`, '<ram:ID>not an awb</ram:ID><ram:Name>'),
      /TransportContractDocument\[1\]\/ID\[1\]: "not an awb" is not an AWB number/,
    );
    await refused(
      'xfsu',
      `<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]>\n<rsm:StatusMessage xmlns:rsm="iata:statusmessage:1"/>`,
      /line 2, XML: a DOCTYPE is not accepted/,
    );
    await refused('xfsu', '<Waybill/>', /not a Cargo-XML status message/);
    await refused('xfsu', 'RCS/14APR0930/FRA', /XML/);
  });
});
