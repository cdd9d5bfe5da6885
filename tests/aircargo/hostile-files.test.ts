// Security review, item 1: a pushed status file costs work in proportion to its size, whatever its
// shape. Nesting, attributes and kinds of child beyond what any Cargo-XML message has are refused
// at once (406, nothing stored, the line and element path named); long lines are read in bounded
// work. No test here measures time: the parser's work is counted instead.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SaxesParser } from 'saxes';
import { MAX_FILE_BYTES } from '../../src/files/content.ts';
import { MAX_ATTRIBUTES, MAX_CHILD_NAMES, MAX_DEPTH } from '../../src/files/xfsu.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { counts } from '../preview/fixtures.ts';
import { NOW, trio, xfsuMessage } from './samples.ts';

let app: TestApp;
let handler: Actor;

before(async () => {
  app = await startTestApp();
  app.setNow(NOW);
  handler = await app.actor('Handler');
});
after(() => app.close());

const push = (action: string, content: string) =>
  app.post('/files/push.json', { token: handler.token, json: { action, encoding: 'plain', content, name: `${action}.txt` } });

/** A refused push: 406, the message matching, nothing stored. */
async function refused(action: string, content: string, message: RegExp): Promise<string> {
  const before = await counts(app);
  const res = await push(action, content);
  assert.equal(res.status, 406, res.text.slice(0, 500));
  assert.match(res.body.message, message);
  assert.deepEqual(await counts(app), before);
  return res.body.message;
}

async function accepted(action: string, content: string, records: number) {
  const res = await push(action, content);
  assert.equal(res.status, 200, res.text.slice(0, 500));
  assert.equal(res.body.data.file.records, records);
}

/** The review's shape: `levels` elements nested in the root, all on line 1. */
const nestedInRoot = (levels: number) => `<StatusMessage>${'<a>'.repeat(levels)}${'</a>'.repeat(levels)}</StatusMessage>`;

let awbSeq = 0;
/** A good XFSU message (one RCF event) with `extra` in its AssociatedStatusConsignment (depth 4), after `at`. */
function goodMessage(extra = '', at = '<ram:AssociatedStatusConsignment>') {
  const message = xfsuMessage(
    trio(900 + 3 * awbSeq++).one,
    'RCF',
    [{ pieces: 10, weight: '250.5', flight: 'LH400', location: 'JFK', time: '2026-04-14T16:10:00' }],
    { pieces: 10, weight: '250.5', from: 'FRA', to: 'JFK' },
  );
  assert.equal(message.split(at).length, 2);
  return message.replace(at, `${at}${extra}`);
}

/** The line (1-based) on which the `n`th (1-based) `needle` of `text` starts. */
function lineOf(text: string, needle: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = text.indexOf(needle, at + 1);
  assert.notEqual(at, -1);
  return text.slice(0, at).split('\n').length;
}

/** Characters handed to the XML parser while `run` runs: how far a reading went. */
async function charactersParsed(run: () => Promise<unknown>): Promise<number> {
  const proto = SaxesParser.prototype as unknown as { write(chunk: string | null): unknown };
  const write = proto.write;
  let characters = 0;
  proto.write = function (this: unknown, chunk: string | null) {
    characters += chunk?.length ?? 0;
    return write.call(this, chunk);
  };
  try {
    await run();
  } finally {
    proto.write = write;
  }
  return characters;
}

describe('XFSU: nesting, attributes and kinds of child are bounded', () => {
  test("the review's file (32,000 levels in 218 KB) is refused at the first level too deep, naming line and path", async () => {
    const message = await refused(
      'xfsu',
      nestedInRoot(32_000),
      new RegExp(`line 1, /StatusMessage/a\\[1\\]/a\\[1\\]/.*/a\\[1\\]/a: elements nested deeper than ${MAX_DEPTH} levels`),
    );
    assert.ok(message.length < 600, message); // the path is shortened, not 32,000 segments
  });

  test('a message nested exactly as deep as the bound is read; one level more is refused on the line of that element', async () => {
    const nest = (levels: number) => `${'\n<ram:Remark>'.repeat(levels)}${'</ram:Remark>'.repeat(levels)}`;
    const deepest = MAX_DEPTH - 4; // the consignment is the 4th level
    await accepted('xfsu', goodMessage(nest(deepest)), 1);
    const tooDeep = goodMessage(nest(deepest + 1));
    await refused(
      'xfsu',
      tooDeep,
      new RegExp(
        `line ${lineOf(tooDeep, '<ram:Remark>', deepest + 1)}, /StatusMessage/MasterConsignment\\[1\\]/ReportedStatus\\[1\\]/AssociatedStatusConsignment\\[1\\]/Remark\\[1\\]/.*/Remark: elements nested deeper than ${MAX_DEPTH} levels`,
      ),
    );
  });

  test('a 15 MiB file of the same shape is refused after reading its beginning only', async () => {
    const levels = Math.floor((MAX_FILE_BYTES - 40) / 7);
    const content = nestedInRoot(levels);
    assert.ok(content.length <= MAX_FILE_BYTES && content.length > MAX_FILE_BYTES - 100);
    const parsed = await charactersParsed(() =>
      refused('xfsu', content, /line 1, \/StatusMessage\/a\[1\].*: elements nested deeper than 64 levels/),
    );
    assert.ok(parsed <= 64 * 1024, `${parsed} of ${content.length} characters parsed`);
  });

  test('attributes: as many as the bound on one element are read, one more is refused as soon as it is read', async () => {
    const attributes = (n: number) => Array.from({ length: n }, (_, i) => ` note${i}="x"`).join('');
    // The root declares 4 namespaces already.
    await accepted('xfsu', goodMessage(attributes(MAX_ATTRIBUTES - 4), '<rsm:StatusMessage'), 1);
    const many = goodMessage(`\n<ram:Remark${attributes(100_000)}/>`);
    const parsed = await charactersParsed(() =>
      refused(
        'xfsu',
        many,
        new RegExp(
          `line ${lineOf(many, '<ram:Remark', 1)}, /StatusMessage/MasterConsignment\\[1\\]/ReportedStatus\\[1\\]/AssociatedStatusConsignment\\[1\\]/\\*: an element with more than ${MAX_ATTRIBUTES} attributes`,
        ),
      ),
    );
    assert.ok(parsed <= 64 * 1024, `${parsed} of ${many.length} characters parsed`);
  });

  test('kinds of child: as many as the bound in one element are read, one more is refused on its line', async () => {
    const children = (n: number) => Array.from({ length: n }, (_, i) => `\n<ram:Note${i}/>`).join('');
    const inside = MAX_CHILD_NAMES - 4; // the consignment has 4 kinds of child already; these follow them
    const last = '</ram:SpecifiedLogisticsTransportMovement>';
    await accepted('xfsu', goodMessage(children(inside), last), 1);
    const tooMany = goodMessage(children(inside + 1), last);
    await refused(
      'xfsu',
      tooMany,
      new RegExp(
        `line ${lineOf(tooMany, `<ram:Note${inside}/>`, 1)}, /StatusMessage/MasterConsignment\\[1\\]/ReportedStatus\\[1\\]/AssociatedStatusConsignment\\[1\\]/Note${inside}: more than ${MAX_CHILD_NAMES} different elements`,
      ),
    );
    // Many children of one kind are fine: each is counted.
    await accepted('xfsu', goodMessage('<ram:Note/>'.repeat(50_000)), 1);
  });

  test('long names, values and texts are shortened in the message', async () => {
    const name = 'N'.repeat(100_000);
    const message = await refused('xfsu', `<${name}/>`, /line 1, N{60}: not a Cargo-XML status message/);
    assert.ok(message.length < 300, message);
    const huge = goodMessage(`<ram:Note>${'x'.repeat(1_000_000)}</ram:Note>`);
    await accepted('xfsu', huge, 1);
  });
});

describe('FSU and status CSV: long lines', () => {
  test('FSU: a status line of 100,000 remark elements is read like a short one', async () => {
    const awb = trio(990).one;
    const remarks = 'REMARK/'.repeat(100_000);
    const fsu = `FSU/14\n${awb}FRAJFK/T10K250.5\nDEP/LH400/14APR/FRAJFK/T10K250.5/S1000/A1010/${remarks}\n`;
    await accepted('fsu', fsu, 1);
    const time = await app.services.db.selectFrom('awb_events').select('event_time').where('awb', '=', awb).executeTakeFirstOrThrow();
    assert.equal(time.event_time?.toISOString(), '2026-04-14T08:10:00.000Z'); // A1010 at FRA (UTC+2)
  });

  test('status CSV: a line of two million commas is refused on its line before it is parsed', async () => {
    const header = 'awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location';
    await refused(
      'status',
      `${header}\n020-12345675,RCF,2026-03-02 06:10,FRA,,,,,\n${','.repeat(2_000_000)}\n`,
      /^[^;]*line 3: longer than 10000 characters$/,
    );
    await refused('status', `${header}\r${','.repeat(20_000)}`, /line 2: longer than 10000 characters/);
    // Many short lines, with any line break, are read.
    const rows = Array.from({ length: 3000 }, (_, i) => `020-12345675,RCF,2026-03-02 06:10,FRA,,${i + 1},,,`);
    await accepted('status', [header, ...rows].join('\r\n'), 3000);
    await accepted('status', [header, ...rows.slice(0, 2)].join('\r'), 2);
  });

  test('rate sheets: the same rule (kernel/pace.ts readCsvInSlices), the line named', async () => {
    const header = 'origin,destination,transit_days,min_charge,kg_100';
    const res = await push('rates', `${header}\ncity:DE-60,airport:FRA,1,45.00,0.40\n${','.repeat(2_000_000)}\n`);
    assert.equal(res.status, 406, res.text.slice(0, 300));
    assert.match(res.body.message, /line 3.*longer than 100000 characters/);
  });
});

describe('base64 content', () => {
  test('padding may be followed by line breaks; anything after the padding is refused', async () => {
    const res = await push('notes', 'x');
    assert.equal(res.status, 200);
    const base64 = (content: string) => app.post('/files/push.json', { token: handler.token, json: { action: 'notes', content } });
    assert.equal((await base64('QUI=\r\n')).body.data.file.size, 2);
    assert.equal((await base64('QQ= =\n')).body.data.file.size, 1);
    assert.equal((await base64(`QUJD${' \n'.repeat(500_000)}`)).body.data.file.size, 3);
    for (const content of ['QQ=A', 'Q===', `=${' '.repeat(1_000_000)}QUJD`, 'QUJ=\nQUJD'])
      assert.equal((await base64(content)).status, 406, JSON.stringify(content.slice(0, 20)));
  });
});
