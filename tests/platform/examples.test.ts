// Issue 25: one request and one response example per operation and one delivered event per event
// type, recorded from a test run (npm run examples:generate; tests/support/api-examples.ts),
// attached to the description, and valid against its schemas: answers with the same contract
// checker that checks real answers; requests (JSON and form), path and query values and events
// against their own schemas.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import recordedEvents from '../../src/openapi/event-examples.json' with { type: 'json' };
import recorded from '../../src/openapi/examples.json' with { type: 'json' };
import { operationsOf, type EventExamples, type Examples } from '../support/api-examples.ts';
import { Contract } from '../support/contract.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const examples = recorded as unknown as Examples;
const eventExamples = recordedEvents as unknown as EventExamples;

/** A validator of the document's schemas: a schema with `#/components/…` references resolved in the document. */
function validator(): (schema: Record<string, any>, value: unknown) => string | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  return (schema, value) => {
    const validate = ajv.compile({ ...schema, components: doc.components });
    return validate(value) ? undefined : ajv.errorsText(validate.errors);
  };
}

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
    const invalid = validator();
    const problems: string[] = [];
    for (const { id, method, path, op } of operationsOf(doc)) {
      const example = examples[id];
      if (!example) continue;
      const answer = Object.values<any>(op.responses['200'].content ?? {})[0];
      if (example.response !== undefined) {
        assert.ok(answer?.examples?.recorded, `${id}: no response example`);
        problems.push(...contract.check(method, example.url, 200, answer.examples.recorded.value));
      } else assert.ok(op.responses['302'], `${id}: no answer recorded, and its success is no redirect`);
      // The request as JSON and as a form (the same parameters, written with bracket keys): each against its media type's schema.
      const body = op.requestBody?.content['application/json'];
      for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {})) {
        if (!example.request) continue;
        assert.ok(media.examples?.recorded, `${id}: no request example as ${type}`);
        const problem = invalid(media.schema, media.examples.recorded.value);
        if (problem) problems.push(`${id} request (${type}): ${problem}`);
      }
      if (body?.schema.required?.length) assert.ok(example.request, `${id}: takes a body, none recorded`);
      // Path and query values as recorded: every required one has its example, and each validates against its parameter's schema.
      for (const p of op.parameters ?? []) {
        if (p.required && p.in !== 'header') assert.ok(p.examples?.recorded, `${id}: ${p.name}`);
        if (!p.examples?.recorded) continue;
        const problem = invalid(p.schema, p.examples.recorded.value);
        if (problem) problems.push(`${id} parameter ${p.name} (${p.in}) = ${JSON.stringify(p.examples.recorded.value)}: ${problem}`);
      }
      assert.ok(example.url.endsWith('.json') || !path.endsWith('.json'), id);
    }
    assert.deepEqual(problems, []);
  });

  test('every event type shows a delivery recorded from the outbox, and it validates against the event’s schema', () => {
    const invalid = validator();
    const types = Object.keys(doc.webhooks);
    assert.deepEqual(Object.keys(eventExamples), types, 'one example per event type, in the document’s order: npm run examples:generate');
    const problems: string[] = [];
    for (const type of types) {
      const media = doc.webhooks[type].post.requestBody.content['application/json'];
      const value: any = media.examples?.recorded?.value;
      assert.deepEqual(eventExamples[type], value, `${type}: the description shows the recorded event`);
      assert.equal(value.type, type);
      assert.match(value.id, /^evt_/);
      assert.ok(Number.isInteger(value.company), `${type}: delivered to a company`);
      const problem = invalid(media.schema, value);
      if (problem) problems.push(`${type}: ${problem}`);
    }
    assert.deepEqual(problems, []);
  });

  test('no token or password is recorded', () => {
    const text = JSON.stringify(examples) + JSON.stringify(eventExamples);
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
