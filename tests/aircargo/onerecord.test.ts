import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import jsonld from 'jsonld';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { fsuSample, NOW, push, trio } from './samples.ts';

const CARGO = 'https://onerecord.iata.org/ns/cargo#';
const API = 'https://onerecord.iata.org/ns/api#';
const STATUS = 'https://onerecord.iata.org/ns/code-lists/StatusCode#';

let app: TestApp;
let forwarder: Actor;
let trucker: Actor;
let stranger: Actor;
const awbs = trio(700);
let splitId: number;
let oneId: number;

/** GET with the token; the JSON-LD parsed. */
async function ld(url: string, actor: Actor | null = forwarder, headers: Record<string, string> = {}) {
  const res = await app.get(url, { token: actor?.token, headers });
  const body = res.text ? JSON.parse(res.text) : null;
  return { status: res.status, type: String(res.headers['content-type'] ?? ''), body };
}

/** Expanded JSON-LD (no remote contexts are loaded: the context is inline). */
async function expand(doc: unknown) {
  return jsonld.expand(
    doc as jsonld.JsonLdDocument,
    {
      documentLoader: async (url: string) => {
        throw new Error(`no remote context expected: ${url}`);
      },
    } as jsonld.Options.Expand,
  );
}

const ids = (node: Record<string, unknown>, property: string) => ((node[property] ?? []) as Array<{ '@id': string }>).map((v) => v['@id']);

before(async () => {
  app = await startTestApp();
  app.setNow(NOW);
  forwarder = await app.actor('Forwarder');
  trucker = await app.actor('Trucker');
  stranger = await app.actor('Stranger');
  const res = await push(app, forwarder, 'fsu', fsuSample(awbs));
  assert.equal(res.status, 200, res.text);
  const rows = await app.services.db
    .selectFrom('milkrun_shipments')
    .select(['id', 'awb'])
    .where('company_id', '=', forwarder.company)
    .execute();
  splitId = rows.find((r) => r.awb === awbs.split)!.id;
  oneId = rows.find((r) => r.awb === awbs.one)!.id;
});
after(() => app.close());

describe("ONE Record: a company's shipments as logistics objects in JSON-LD", () => {
  test('the shipment list and a shipment: application/ld+json, ONE Record IRIs kept when expanded', async () => {
    const list = await ld('/onerecord/shipments');
    assert.equal(list.status, 200);
    assert.match(list.type, /^application\/ld\+json/);
    const [collection] = await expand(list.body);
    assert.deepEqual(collection!['@type'], [`${API}Collection`]);
    const listed = ids(collection!, `${API}hasItem`);
    assert.equal(listed.length, 3);
    const base = 'http://localhost:80/onerecord/logistics-objects';
    assert.ok(listed.includes(`${base}/shipment-${splitId}`), listed.join(' '));

    const shipment = await ld(`/onerecord/logistics-objects/shipment-${splitId}`);
    assert.equal(shipment.status, 200);
    assert.match(shipment.type, /^application\/ld\+json/);
    const [node] = await expand(shipment.body);
    assert.equal(node!['@id'], `${base}/shipment-${splitId}`);
    assert.deepEqual(node!['@type'], [`${CARGO}Shipment`]);
    assert.deepEqual(ids(node!, `${CARGO}waybill`), [`${base}/waybill-${splitId}`]);
    assert.equal(ids(node!, `${CARGO}pieces`).length, 10);
    assert.equal(ids(node!, `${CARGO}pieces`)[9], `${base}/piece-${splitId}-10`);
    const weight = (node![`${CARGO}totalGrossWeight`] as Array<Record<string, any>>)[0]!;
    assert.deepEqual(weight[`${CARGO}numericalValue`], [{ '@value': 500 }]);
    assert.deepEqual(ids(weight, `${CARGO}unit`), ['https://onerecord.iata.org/ns/code-lists/MeasurementUnitCode#KGM']);
    const events = ids(node!, `${CARGO}events`);
    assert.equal(events.length, 7);
    assert.ok(events.every((iri) => iri.startsWith(`${base}/shipment-${splitId}/logistics-events/`)));
  });

  test('the waybill and a piece link back to their shipment', async () => {
    const base = 'http://localhost:80/onerecord/logistics-objects';
    const [waybill] = await expand((await ld(`/onerecord/logistics-objects/waybill-${splitId}`)).body);
    assert.deepEqual(waybill!['@type'], [`${CARGO}Waybill`]);
    assert.deepEqual(ids(waybill!, `${CARGO}waybillType`), [`${CARGO}MASTER`]);
    assert.deepEqual(waybill![`${CARGO}waybillPrefix`], [{ '@value': '020' }]);
    assert.deepEqual(waybill![`${CARGO}waybillNumber`], [{ '@value': awbs.split.slice(4) }]);
    assert.deepEqual(ids(waybill!, `${CARGO}shipment`), [`${base}/shipment-${splitId}`]);
    const [piece] = await expand((await ld(`/onerecord/logistics-objects/piece-${splitId}-3`)).body);
    assert.deepEqual(piece!['@type'], [`${CARGO}Piece`]);
    assert.deepEqual(ids(piece!, `${CARGO}ofShipment`), [`${base}/shipment-${splitId}`]);
    assert.equal((await ld(`/onerecord/logistics-objects/piece-${splitId}-11`)).status, 404);
  });

  test('events: linked to their shipment, status code IRIs, times, partial parts flagged', async () => {
    const base = 'http://localhost:80/onerecord/logistics-objects';
    const res = await ld(`/onerecord/logistics-objects/shipment-${splitId}/logistics-events`);
    assert.equal(res.status, 200);
    const [collection] = await expand(res.body);
    const items = collection![`${API}hasItem`] as Array<Record<string, any>>;
    assert.equal(items.length, 7);
    for (const e of items) {
      assert.deepEqual(e['@type'], [`${CARGO}LogisticsEvent`]);
      assert.deepEqual(ids(e, `${CARGO}eventFor`), [`${base}/shipment-${splitId}`]);
      assert.deepEqual(ids(e, `${CARGO}eventTimeType`), [`${CARGO}ACTUAL`]);
    }
    assert.deepEqual(
      items.map((e) => ids(e, `${CARGO}eventCode`)[0]),
      ['RCS', 'DEP', 'DEP', 'RCF', 'RCF', 'NFD', 'DLV'].map((c) => `${STATUS}${c}`),
    );
    // 23:50 at HKG is 15:50 UTC.
    assert.deepEqual(items[1]![`${CARGO}eventDate`], [
      { '@type': 'http://www.w3.org/2001/XMLSchema#dateTime', '@value': '2026-04-13T15:50:00.000Z' },
    ]);
    assert.deepEqual(
      items.map((e) => e[`${CARGO}partialEventIndicator`][0]['@value']),
      [false, true, true, true, true, false, true],
    );
    const location = items[0]![`${CARGO}eventLocation`][0];
    assert.deepEqual(location[`${CARGO}locationCodes`][0][`${CARGO}code`], [{ '@value': 'HKG' }]);

    const one = items[6]!['@id'] as string;
    const single = await ld(one.replace('http://localhost:80', ''));
    assert.equal(single.status, 200);
    const [event] = await expand(single.body);
    assert.equal(event!['@id'], one);
    assert.deepEqual(ids(event!, `${CARGO}eventCode`), [`${STATUS}DLV`]);
  });

  test('another company gets 404 for every object; no token is 401; the API is read-only', async () => {
    const paths = [
      `/onerecord/logistics-objects/shipment-${oneId}`,
      `/onerecord/logistics-objects/waybill-${oneId}`,
      `/onerecord/logistics-objects/piece-${oneId}-1`,
      `/onerecord/logistics-objects/shipment-${oneId}/logistics-events`,
    ];
    const events = (await ld(`${paths[3]}`)).body['api:hasItem'] as Array<{ '@id': string }>;
    paths.push(events[0]!['@id'].replace('http://localhost:80', ''));
    for (const path of paths) {
      assert.equal((await ld(path)).status, 200, path);
      const foreign = await ld(path, stranger);
      assert.equal(foreign.status, 404, path);
      assert.match(foreign.type, /^application\/ld\+json/);
      const [error] = await expand(foreign.body);
      assert.deepEqual(error!['@type'], [`${API}Error`]);
      assert.equal((await ld(path, null)).status, 401, path);
    }
    assert.equal(((await ld('/onerecord/shipments', stranger)).body['api:hasItem'] as unknown[]).length, 0);
    assert.equal((await ld('/onerecord/logistics-objects/shipment-999999')).status, 404);
    assert.equal((await ld('/onerecord/logistics-objects/nonsense')).status, 404);
    assert.equal((await ld('/onerecord/logistics-objects/shipment-1/logistics-events/abc')).status, 404);
    // A ONE Record client sends its token as a bearer token.
    assert.equal((await ld(paths[0]!, null, { authorization: `Bearer ${forwarder.token}` })).status, 200);
    const post = await app.post(paths[0]!, { token: forwarder.token, json: {} });
    assert.equal(post.status, 405);
  });

  test('the trucker the shipment was dispatched to sees it, as in the milk-run lists', async () => {
    const path = `/onerecord/logistics-objects/shipment-${oneId}`;
    assert.equal((await ld(path, trucker)).status, 404);
    // Delivered shipments cannot be dispatched: a fresh one.
    const fresh = trio(750);
    await push(app, forwarder, 'fsu', `FSU/14\n${fresh.one}FRAJFK/T1K5\nRCF/LH400/14APR1610/JFK\n`);
    const row = await app.services.db.selectFrom('milkrun_shipments').select('id').where('awb', '=', fresh.one).executeTakeFirstOrThrow();
    assert.equal((await app.post(`/milkrun/select/${row.id}.json`, { token: forwarder.token })).body.status, 'success');
    assert.equal(
      (await app.post(`/milkrun/dispatch/${row.id}.json`, { token: forwarder.token, json: { carrier: trucker.company } })).body.status,
      'success',
    );
    const seen = await ld(`/onerecord/logistics-objects/shipment-${row.id}`, trucker);
    assert.equal(seen.status, 200);
    assert.equal((await ld(`/onerecord/logistics-objects/shipment-${row.id}`, stranger)).status, 404);
  });
});
