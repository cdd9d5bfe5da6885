import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_FILE_BYTES, PUSH_BODY_LIMIT } from '../../src/files/content.ts';
import { abandonFile, fileContent, PART_BYTES } from '../../src/files/store.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { b64, counts, pushStatus, statusCsv } from './fixtures.ts';

let app: TestApp;
let handler: Actor;
let other: Actor;

const RATES = [
  'origin,destination,transit_days,min_charge,kg_100,kg_300,kg_500,kg_1000,kg_3000,fsc_pct,ssc_per_kg,uld_price',
  'city:DE-60,airport:FRA,1,45.00,0.40,0.35,0.30,0.25,0.20,12.5,0.05,',
  'airport:FRA,airport:AMS,1,80.00,0.30,0.28,0.26,0.24,0.22,10,0.04,950',
].join('\n');

const push = (actor: Actor, json: Record<string, unknown>) => app.post('/files/push.json', { token: actor.token, json });

before(async () => {
  app = await startTestApp();
  handler = await app.actor('Handler');
  other = await app.actor('Other');
});
after(() => app.close());

/** A refused push: 406 in the envelope, the message names the problem, and nothing is stored. */
async function refused(actor: Actor, json: Record<string, unknown>, message: RegExp) {
  const before = await counts(app);
  const res = await push(actor, json);
  assert.equal(res.status, 406, res.text);
  assert.equal(res.body.status, 'error');
  assert.deepEqual(res.body.data, []);
  assert.match(res.body.message, message);
  assert.deepEqual(await counts(app), before);
}

describe('file push: status', () => {
  test('a base64 status file is stored with its records, events and milk-run shipments', async () => {
    const csv = statusCsv(
      '020-12345675,RCF,2026-03-02 06:10,FRA,LH8401,3,250.5,PER COL,A-12',
      '020 12345675,NFD,2026-03-02 07:00:00,FRA,,,,,',
      '02098765432,RCF,2026-03-02 08:00,FRA,CX0289,1,12,,B-01',
    );
    const res = await pushStatus(app, handler, csv, 'fsu-0302.csv');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success');
    const file = res.body.data.file;
    assert.equal(typeof file.id, 'number');
    assert.equal(file.name, 'fsu-0302.csv');
    assert.equal(file.action, 'status');
    assert.equal(file.records, 3);
    assert.equal(res.body.auth.token, handler.token);

    const db = app.services.db;
    const stored = await db.selectFrom('files').selectAll().where('id', '=', file.id).executeTakeFirstOrThrow();
    assert.equal(stored.company_id, handler.company);
    assert.equal(stored.user_id, handler.user);
    assert.equal(stored.size, Buffer.byteLength(csv));
    assert.equal((await fileContent(db, stored)).toString('utf8'), csv);
    assert.equal(stored.status, 'processed');

    const events = await db.selectFrom('awb_events').selectAll().where('file_id', '=', file.id).orderBy('id').execute();
    assert.equal(events.length, 3);
    assert.deepEqual(
      events.map((e) => e.awb),
      ['020-12345675', '020-12345675', '020-98765432'],
    );
    assert.equal(events[0]!.company_id, handler.company);
    assert.equal(events[0]!.weight, '250.500');
    assert.equal(events[0]!.special_handling_codes, 'PER COL');
    assert.equal(events[1]!.flight_number, null);

    const shipments = await db
      .selectFrom('milkrun_shipments')
      .selectAll()
      .where('company_id', '=', handler.company)
      .orderBy('awb')
      .execute();
    assert.equal(shipments.length, 2);
  });

  test('pushed events feed tracking (GET /freights/track, no token)', async () => {
    await pushStatus(app, handler, statusCsv('020-12345675,DLV,2026-03-02 18:00,FRA,,,,,'));
    const res = await app.get('/freights/track/020-12345675.json');
    assert.equal(res.status, 200, res.text);
    const events = res.body.data.tracking.events as Array<{ code: string; time: string }>;
    assert.deepEqual(
      events.map((e) => e.code),
      ['RCF', 'NFD', 'DLV'],
    );
    assert.equal(events[0]!.time, '2026-03-02 06:10:00');
  });

  test('encoding: absent means base64; plain takes the text as it is', async () => {
    const csv = statusCsv('020-11111111,AWD,2026-03-03 09:00,FRA,,,,,');
    const implicit = await push(handler, { content: b64(csv), action: 'status', name: 'a.csv' });
    assert.equal(implicit.body.data.file.records, 1);
    const plain = await push(handler, { encoding: 'plain', content: csv, action: 'status', name: 'b.csv' });
    assert.equal(plain.status, 200, plain.text);
    assert.equal(plain.body.data.file.records, 1);
    const stored = await app.services.db
      .selectFrom('files')
      .select('encoding')
      .where('id', '=', plain.body.data.file.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.encoding, 'plain');
  });

  test('a header-only file is fine: stored, 0 records', async () => {
    const res = await pushStatus(app, handler, statusCsv());
    assert.equal(res.status, 200);
    assert.equal(res.body.data.file.records, 0);
  });

  test('form encoding works too', async () => {
    const res = await app.post('/files/push.json', {
      token: handler.token,
      form: {
        encoding: 'base64',
        content: b64(statusCsv('020-22222222,RCF,2026-03-03 10:00,AMS,KL1234,1,1,,')),
        action: 'status',
        name: 'form.csv',
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.file.records, 1);
  });
});

describe('file push: refusals (406, nothing stored)', () => {
  test('no content, empty content, blank content', async () => {
    await refused(handler, { action: 'status', name: 'x' }, /no content/);
    await refused(handler, { action: 'status', content: '' }, /no content/);
    await refused(handler, { action: 'status', content: '   ' }, /no content/);
    await refused(handler, { action: 'status', content: '====' }, /base64/);
    await refused(handler, { action: 'status', content: ['a'] }, /no content/);
  });

  test('content that is not valid base64', async () => {
    await refused(handler, { action: 'status', content: 'this is not base64!' }, /base64/);
    await refused(handler, { action: 'status', content: 'abcde' }, /base64/);
    await refused(handler, { action: 'status', content: 'ab=c' }, /base64/);
    // even for an unknown action: the file cannot be read at all
    await refused(handler, { action: 'whatever', content: '***' }, /base64/);
  });

  test('an unsupported encoding', async () => {
    await refused(handler, { action: 'status', encoding: 'gzip', content: b64('x') }, /encoding/);
  });

  test('bad CSV: unclosed quote', async () => {
    await refused(
      handler,
      { action: 'status', content: b64(statusCsv('020-12345675,RCF,"2026-03-02 06:10,FRA,,,,,')) },
      /not readable as CSV/,
    );
  });

  test('missing columns in the header', async () => {
    await refused(
      handler,
      { action: 'status', content: b64('awb,code,time\n020-12345675,RCF,2026-03-02 06:10\n') },
      /missing columns location, flight_number/,
    );
  });

  test('each bad cell is named by line and field; one bad line refuses the whole file', async () => {
    const csv = statusCsv(
      '020-12345675,RCF,2026-03-02 06:10,FRA,LH1,1,1,,',
      '020-1234567,RCF,2026-03-02 06:10,FRA,,,,,',
      '020-12345675,R1,2026-03-02 06:10,FRA,,,,,',
      '020-12345675,NFD,2026-03-02,FRA,,,,,',
      '020-12345675,NFD,2026-13-02 10:00,FRA,,,,,',
      '020-12345675,NFD,2026-03-02 10:00,FRA,,x,-1,,',
      '020-12345675,NFD,2026-03-02 10:00,FRA',
    );
    const before = await counts(app);
    const res = await pushStatus(app, handler, csv);
    assert.equal(res.status, 406);
    const m = res.body.message as string;
    assert.match(m, /line 3, awb: "020-1234567" is not an AWB number/);
    assert.match(m, /line 4, code: "R1" is not a status code/);
    assert.match(m, /line 5, time: "2026-03-02" is not a time/);
    assert.match(m, /line 6, time/);
    assert.match(m, /line 7, pieces/);
    assert.match(m, /more problems/);
    assert.deepEqual(await counts(app), before);
  });

  test('content that is not UTF-8 text', async () => {
    await refused(handler, { action: 'status', content: Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64') }, /UTF-8/);
  });

  test('an empty file (no header)', async () => {
    await refused(handler, { action: 'status', content: b64('\n\n') }, /empty/);
  });
});

describe('file push: rates', () => {
  test("a rate sheet goes through the importer for the caller's company", async () => {
    const res = await push(handler, {
      encoding: 'base64',
      content: b64(RATES),
      name: 'road-2026.csv',
      action: 'rates',
      currency: 'EUR',
      visibility: 'exchange',
    });
    assert.equal(res.status, 200, res.text);
    const file = res.body.data.file;
    assert.equal(file.action, 'rates');
    assert.equal(file.records, 2);
    assert.equal(typeof file.sheet_id, 'number');
    const sheet = await app.services.db.selectFrom('rate_sheets').selectAll().where('id', '=', file.sheet_id).executeTakeFirstOrThrow();
    assert.equal(sheet.company_id, handler.company);
    assert.equal(sheet.name, 'road-2026');
    assert.equal(sheet.visibility, 'exchange');
  });

  test('a sheet with a bad line is refused naming line and column; nothing stored', async () => {
    const bad = `${RATES}\nairport:FRA,airport:AMS,1,abc,0.30,0.28,0.26,0.24,0.22,10,0.04,950\n`;
    await refused(handler, { content: b64(bad), action: 'rates', name: 'bad.csv' }, /line 4.*min_charge/);
  });

  test('bad sheet options are refused too', async () => {
    await refused(handler, { content: b64(RATES), action: 'rates', visibility: 'everyone' }, /visibility/);
  });
});

describe('file push: other actions', () => {
  test('an unknown action is stored with 0 records and not processed', async () => {
    const before = await counts(app);
    const res = await push(handler, { encoding: 'base64', content: b64('anything at all'), name: 'notes.txt', action: 'invoices' });
    assert.equal(res.status, 200);
    assert.deepEqual(
      { ...res.body.data.file, id: 0 },
      { ...res.body.data.file, id: 0, name: 'notes.txt', action: 'invoices', records: 0, status: 'ignored' },
    );
    const after = await counts(app);
    assert.equal(after.files, before.files! + 1);
    assert.equal(after.awb_events, before.awb_events);
  });

  test('no action: stored as well, action null', async () => {
    const res = await push(handler, { content: b64('x') });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.file.action, null);
    assert.equal(res.body.data.file.records, 0);
    assert.equal(res.body.data.file.name, '');
  });

  test('binary content is fine for an unknown action', async () => {
    const res = await push(handler, { content: Buffer.from([0, 1, 2, 255]).toString('base64'), action: 'scan' });
    assert.equal(res.status, 200);
  });
});

describe('file push: limits and authentication', () => {
  test('no token: 401', async () => {
    const res = await app.post('/files/push.json', { json: { content: b64('x') } });
    assert.equal(res.status, 401);
  });

  test('a decoded file over the limit is a 413 in the envelope; nothing stored', async () => {
    const before = await counts(app);
    const res = await push(handler, { encoding: 'plain', content: 'x'.repeat(MAX_FILE_BYTES + 1), action: 'other' });
    assert.equal(res.status, 413);
    assert.equal(res.body.status, 'error');
    assert.match(res.body.message, /too large/);
    assert.deepEqual(await counts(app), before);
  });

  test('a body over the endpoint limit is a 413 from the kernel', async () => {
    const res = await push(handler, { content: 'A'.repeat(PUSH_BODY_LIMIT + 10), action: 'other' });
    assert.equal(res.status, 413);
    assert.equal(res.body.status, 'error');
  });

  test('a file of several MiB (over the default 1 MiB body limit) is accepted', async () => {
    const res = await push(handler, { content: Buffer.alloc(1200 * 1024, 7).toString('base64'), action: 'archive' });
    assert.equal(res.status, 200, res.text.slice(0, 200));
    assert.equal(res.body.data.file.size, 1200 * 1024);
  });
});

describe('file push: companies', () => {
  test("the same AWB pushed by another company is that company's own shipment", async () => {
    const csv = statusCsv('020-55555555,RCF,2026-03-04 06:00,FRA,LH1,1,10,,');
    await pushStatus(app, handler, csv);
    await pushStatus(app, other, csv);
    const rows = await app.services.db.selectFrom('milkrun_shipments').select(['company_id']).where('awb', '=', '020-55555555').execute();
    assert.deepEqual(rows.map((r) => r.company_id).sort(), [handler.company, other.company].sort());
  });
});

describe('file push: large files', () => {
  test('one AWB with hundreds of events (stored over several transactions) folds as one; parts hold the content', async () => {
    // 450 RCFs an hour apart, in reverse order in the file, then NFD and a DLV: more events than one transaction takes.
    const start = Date.UTC(2026, 2, 1, 0, 0);
    const at = (h: number) => new Date(start + h * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    const rows = Array.from(
      { length: 450 },
      (_, i) => `020-77777770,RCF,${at(449 - i)},FRA,LH${449 - i},${449 - i + 1},${449 - i + 0.5},,W${449 - i}`,
    );
    rows.push(`020-77777770,NFD,${at(10)},FRA,,,,,`, `020-77777770,DLV,${at(460)},FRA,,,,,`);
    const csv = statusCsv(...rows);
    const res = await pushStatus(app, handler, csv);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.file.records, 452);
    const shipment = await app.services.db
      .selectFrom('milkrun_shipments')
      .selectAll()
      .where('company_id', '=', handler.company)
      .where('awb', '=', '020-77777770')
      .executeTakeFirstOrThrow();
    assert.equal(shipment.state, 'delivered');
    assert.equal(shipment.flight_number, 'LH449'); // the latest RCF
    assert.equal(shipment.ata?.toISOString(), new Date(start + 449 * 3600_000).toISOString());
    assert.equal(shipment.pieces, 450); // the latest value sent
    assert.equal(shipment.warehouse_location, 'W449');
    assert.equal(shipment.nfd_received?.toISOString(), new Date(start + 10 * 3600_000).toISOString());

    const awb = (i: number) => `020-${7_770_000 + i}${(7_770_000 + i) % 7}`;
    const big = statusCsv(...Array.from({ length: 9000 }, (_, i) => `${awb(i)},RCF,2026-03-05 06:00,FRA,LH1,1,10,,`));
    const pushed = await pushStatus(app, handler, big);
    assert.equal(pushed.status, 200, pushed.text);
    const file = await app.services.db.selectFrom('files').selectAll().where('id', '=', pushed.body.data.file.id).executeTakeFirstOrThrow();
    const parts = await app.services.db.selectFrom('file_parts').select('part').where('file_id', '=', file.id).execute();
    assert.equal(parts.length, Math.ceil(Buffer.byteLength(big) / PART_BYTES));
    assert.ok(parts.length > 1);
    assert.equal((await fileContent(app.services.db, file)).toString('utf8'), big);
  });

  test('an import the database breaks off is removed again and the file marked failed', async () => {
    const res = await pushStatus(app, handler, statusCsv('020-66666660,RCF,2026-03-05 06:00,FRA,LH1,1,10,,'));
    const id = res.body.data.file.id as number;
    await abandonFile(app.services.db, id, 'import failed: test');
    const db = app.services.db;
    assert.equal((await db.selectFrom('awb_events').select('id').where('file_id', '=', id).execute()).length, 0);
    assert.equal((await db.selectFrom('file_parts').select('part').where('file_id', '=', id).execute()).length, 0);
    const file = await db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(file.status, 'failed');
    assert.equal(file.records, 0);
  });
});
