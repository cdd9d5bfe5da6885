// Issue 25: one request and one response example per operation, recorded from a test run
// (npm run examples:generate; tests/support/api-examples.ts), attached to the description,
// and valid against its schemas: the same contract checker that checks real answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import recorded from '../../src/openapi/examples.json' with { type: 'json' };
import { operationsOf, type Examples } from '../support/api-examples.ts';
import { Contract } from '../support/contract.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const examples = recorded as unknown as Examples;

let app: TestApp;
let doc: Record<string, any>;
let contract: Contract;

before(async () => {
  app = await startTestApp();
  doc = (await app.get('/openapi.json')).body;
  contract = new Contract(doc);
});
after(() => app.close());

describe('the examples of the API description', () => {
  test('the committed file covers exactly the current operations', () => {
    const ids = operationsOf(doc).map((o) => o.id);
    assert.deepEqual(
      Object.keys(examples).filter((id) => !ids.includes(id)),
      [],
      'examples of operations that no longer exist: npm run examples:generate',
    );
    assert.deepEqual(
      ids.filter((id) => !examples[id]),
      [],
      'operations without an example: npm run examples:generate',
    );
  });

  test('every operation shows its recorded request and answer, and they validate against its schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const problems: string[] = [];
    for (const { id, method, path, op } of operationsOf(doc)) {
      const example = examples[id];
      if (!example) continue;
      const answer = Object.values<any>(op.responses['200'].content ?? {})[0];
      if (example.response !== undefined) {
        assert.ok(answer?.examples?.recorded, `${id}: no response example`);
        problems.push(...contract.check(method, example.url, 200, answer.examples.recorded.value));
      } else assert.ok(op.responses['302'], `${id}: no answer recorded, and its success is no redirect`);
      const body = op.requestBody?.content['application/json'];
      if (body && example.request) {
        assert.ok(body.examples?.recorded, `${id}: no request example`);
        const validate = ajv.compile({ ...body.schema, components: doc.components });
        if (!validate(body.examples.recorded.value)) problems.push(`${id} request: ${ajv.errorsText(validate.errors)}`);
      }
      if (body?.schema.required?.length) assert.ok(example.request, `${id}: takes a body, none recorded`);
      for (const p of op.parameters ?? []) if (p.required && p.in !== 'header') assert.ok(p.examples?.recorded, `${id}: ${p.name}`);
      assert.ok(example.url.endsWith('.json') || !path.endsWith('.json'), id);
    }
    assert.deepEqual(problems, []);
  });

  test('no token or password is recorded', () => {
    const text = JSON.stringify(examples);
    assert.doesNotMatch(text, /"pw-[0-9a-f]{8}"/);
    assert.match(text, /<API_TOKEN>/);
  });

  test('the TMS lists answer as described (their rows: Freight, Shipment, Tour)', async () => {
    const lists = examples.getFreightsEnlist;
    assert.ok(lists);
    for (const url of ['/freights/enlist/51.json', '/freights/enlist/52.json', '/freights/enlist/53.json', '/routes/enlist/53.json']) {
      const carrier = await app.actor('Carrier');
      const res = await app.get(url, { token: carrier.token });
      assert.deepEqual(contract.check('get', url, res.status, res.body), []);
    }
  });
});
