// Security review, item 12: every answer under /onerecord is ONE Record's (application/ld+json,
// api:Error for a failure), while the rest of the app keeps its own; and ONE Record's operations
// are in the API description (GET /openapi.json), which its real answers conform to.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestApp, type Actor, type ApiResponse, type RequestOptions, type TestApp } from '../support/harness.ts';
import { fsuSample, NOW, push, trio } from './samples.ts';

let app: TestApp;
let forwarder: Actor;
let shipmentId: number;

before(async () => {
  app = await startTestApp();
  app.setNow(NOW);
  forwarder = await app.actor('Forwarder');
  assert.equal((await push(app, forwarder, 'fsu', fsuSample(trio(800)))).status, 200);
  const row = await app.services.db
    .selectFrom('milkrun_shipments')
    .select('id')
    .where('company_id', '=', forwarder.company)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  shipmentId = row.id;
});
after(() => app.close());

/** A request with the forwarder's token; the body as sent (`raw`) with its content type. */
const call = (method: string, url: string, raw?: { type: string; body: string }, options: RequestOptions = {}) =>
  app.request(method, url, {
    token: forwarder.token,
    ...(raw ? { form: raw.body, headers: { 'content-type': raw.type } } : {}),
    ...options,
  });

/** ONE Record's error: JSON-LD, api:Error, its detail carrying the status. */
function assertLdError(res: ApiResponse, status: number, label: string) {
  assert.equal(res.status, status, `${label}: ${res.text.slice(0, 200)}`);
  assert.match(String(res.headers['content-type']), /^application\/ld\+json/, label);
  const body = JSON.parse(res.text);
  assert.equal(body['@type'], 'api:Error', label);
  assert.equal(body['@context'].api, 'https://onerecord.iata.org/ns/api#', label);
  assert.equal(body['api:hasErrorDetail'][0]['api:hasCode'], String(status), label);
  assert.equal(typeof body['api:hasErrorDetail'][0]['api:hasMessage'], 'string', label);
}

describe('ONE Record answers every failure in its own error shape', () => {
  test('unknown paths, the bare prefix included: 404', async () => {
    for (const url of ['/onerecord', '/onerecord/', '/onerecord/nothing', '/onerecord/logistics-objects/shipment-1/nothing/here'])
      assertLdError(await call('GET', url), 404, url);
    // A parameter longer than the router takes is no such object either (not the router's 414).
    assertLdError(await call('GET', `/onerecord/logistics-objects/shipment-${'1'.repeat(600)}`), 404, 'long parameter');
  });

  test('a malformed body: 400; a body over the limit: 413; an unreadable content type: 415', async () => {
    assertLdError(await call('POST', '/onerecord/shipments', { type: 'application/json', body: '{"a":' }), 400, 'malformed JSON');
    assertLdError(await call('POST', '/onerecord/shipments', { type: 'application/ld+json', body: '{"a":' }), 400, 'malformed JSON-LD');
    const big = JSON.stringify({ '@id': 'x'.repeat(2 * 1024 * 1024) });
    assertLdError(await call('POST', '/onerecord/shipments', { type: 'application/json', body: big }), 413, 'too large');
    assertLdError(await call('POST', '/onerecord/shipments', { type: '///', body: '{}' }), 415, 'content type');
  });

  test('another method: 405, naming the methods allowed', async () => {
    for (const [method, url] of [
      ['POST', '/onerecord/shipments'],
      ['DELETE', '/onerecord/shipments'],
      ['PATCH', `/onerecord/logistics-objects/shipment-${shipmentId}`],
      ['PUT', '/onerecord'],
    ] as const) {
      const res = await call(method, url, { type: 'application/json', body: '{}' });
      assertLdError(res, 405, `${method} ${url}`);
      assert.equal(res.headers.allow, 'GET, HEAD');
    }
  });

  test('a URL that cannot be decoded: 400', async () => {
    assertLdError(await call('GET', '/onerecord/logistics-objects/%ZZ'), 400, 'bad encoding');
    assertLdError(await call('GET', '/onerecord/%E0%A4%A'), 400, 'bad encoding');
  });

  test('no token: 401; missing object: 404 (as before)', async () => {
    assertLdError(await call('GET', '/onerecord/shipments', undefined, { token: undefined }), 401, 'no token');
    assertLdError(await call('GET', '/onerecord/logistics-objects/shipment-999999999'), 404, 'missing');
  });

  test('the rest of the app keeps its answers', async () => {
    const page = await call('GET', '/nothing');
    assert.equal(page.status, 404);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const json = await call('GET', '/nothing.json');
    assert.deepEqual([json.status, json.body.status, json.body.message], [404, 'error', 'not found']);
    const malformed = await call('POST', '/freights/add.json', { type: 'application/json', body: '{"a":' });
    assert.deepEqual([malformed.status, malformed.body.message], [400, 'the JSON body could not be parsed']);
    const badUrl = await call('GET', '/freights/view/%ZZ');
    assert.equal(badUrl.status, 400);
    assert.match(String(badUrl.headers['content-type']), /^text\/plain/);
    const alike = await call('GET', '/onerecordings');
    assert.equal(alike.status, 404);
    assert.match(String(alike.headers['content-type']), /^text\/html/);
  });
});

describe('ONE Record in the API description', () => {
  test('its four operations are described, answers in application/ld+json, and real answers conform', async () => {
    const doc = (await app.get('/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const conforms = (path: string, res: ApiResponse) => {
      const answer = doc.paths[path]?.get?.responses?.[String(res.status)];
      assert.ok(answer, `${path} ${res.status} not described`);
      const schema = answer.content['application/ld+json']?.schema;
      assert.ok(schema, `${path} ${res.status}: no application/ld+json answer`);
      const validate = ajv.compile({ ...schema, components: doc.components });
      assert.ok(validate(JSON.parse(res.text)), `${path} ${res.status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    };
    const events = `/onerecord/logistics-objects/shipment-${shipmentId}/logistics-events`;
    const list = await call('GET', events);
    const eventId = String(JSON.parse(list.text)['api:hasItem'][0]['@id']).split('/').pop();
    const calls: Array<[string, string]> = [
      ['/onerecord/shipments', '/onerecord/shipments'],
      ['/onerecord/logistics-objects/{object}', `/onerecord/logistics-objects/shipment-${shipmentId}`],
      ['/onerecord/logistics-objects/{object}', `/onerecord/logistics-objects/waybill-${shipmentId}`],
      ['/onerecord/logistics-objects/{object}', `/onerecord/logistics-objects/piece-${shipmentId}-1`],
      ['/onerecord/logistics-objects/{object}', '/onerecord/logistics-objects/shipment-999999999'],
      ['/onerecord/logistics-objects/{object}/logistics-events', events],
      ['/onerecord/logistics-objects/{object}/logistics-events', `/onerecord/logistics-objects/waybill-${shipmentId}/logistics-events`],
      ['/onerecord/logistics-objects/{object}/logistics-events/{event}', `${events}/${eventId}`],
    ];
    for (const [path, url] of calls) conforms(path, await call('GET', url));
    conforms('/onerecord/shipments', await call('GET', '/onerecord/shipments', undefined, { token: undefined }));

    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    const oneRecord = ids.filter((id) => id.startsWith('getOnerecord'));
    assert.equal(new Set(oneRecord).size, 4, oneRecord.join(' '));
    const page = await app.get('/docs');
    assert.match(page.text, /<code>\/onerecord\/logistics-objects\/\{object\}<\/code>/);
    assert.match(page.text, /application\/ld\+json/);
  });
});
