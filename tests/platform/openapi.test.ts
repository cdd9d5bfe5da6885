// Shared decisions §10 and issue 15: the OpenAPI 3.1 description is generated from the route
// table, validates, covers every JSON endpoint and nothing else, and real answers conform to it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { Contract } from '../support/contract.ts';

let app: TestApp;
let doc: Record<string, any>;
let contract: Contract;
let shipper: Actor;
let carrier: Actor;

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  const res = await app.get('/openapi.json');
  assert.equal(res.status, 200);
  doc = res.body;
  contract = new Contract(doc);
});
after(() => app.close());

/** Every registered JSON route: method and `.json` path, as the description writes them. */
function routeTable(): Set<string> {
  const routes = new Set<string>();
  for (const e of app.endpoints) {
    if (e.spec.json === false) continue;
    const path = `${e.spec.path === '/' ? '/index' : e.spec.path.replace(/:(\w+)/g, '{$1}')}.json`;
    for (const m of [e.spec.method].flat()) routes.add(`${m.toLowerCase()} ${path}`);
  }
  return routes;
}

describe('the API description', () => {
  test('GET /openapi.json is a valid OpenAPI 3.1 document', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    assert.ok(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  });

  test('every registered JSON route appears, and nothing else does', async () => {
    const described = new Set(
      Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)),
    );
    const registered = routeTable();
    // Routes outside the envelope that describe themselves (ONE Record's JSON-LD): no `.json`, served by Fastify.
    for (const route of described) {
      const [method, path] = route.split(' ') as [string, string];
      if (!path.endsWith('.json') && app.http.hasRoute({ method: method.toUpperCase() as 'GET', url: path.replace(/\{(\w+)\}/g, ':$1') }))
        registered.add(route);
    }
    assert.deepEqual(
      [...registered].filter((r) => !described.has(r)),
      [],
      'registered but not described',
    );
    assert.deepEqual(
      [...described].filter((r) => !registered.has(r)),
      [],
      'described but not registered',
    );
    // Form pages without a JSON counterpart stay out.
    assert.ok(!described.has('get /freights/add.json'));
  });

  test('every operation has its own summary, the token scheme and the contract’s answers', () => {
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        assert.ok(op.summary && !op.summary.startsWith(method.toUpperCase()), `${method} ${path} declares no doc`);
        assert.ok(op.responses['200'], `${method} ${path}`);
        if (op.security.length) assert.ok(op.responses['401'], `${method} ${path}: 401`);
      }
    }
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['TokenPass', 'auth_token']);
    const publish = doc.paths['/freights/view/{id}.json'].post;
    assert.match(publish.responses['302'].description, /verify/i);
    assert.ok(doc.paths['/files/push.json'].post['x-preview']);
  });

  test('GET /docs is a readable reference served by this server, nothing from outside', async () => {
    const page = await app.get('/docs');
    assert.equal(page.status, 200);
    assert.match(page.text, /<code>\/freights\/view\/\{id\}\.json<\/code>/);
    assert.match(page.text, /id="schema-Freight"/);
    assert.doesNotMatch(page.text, /(src|href)="https?:\/\//);
    assert.equal((await app.get('/docs.json')).status, 404);
  });
});

describe('real answers conform to the description', () => {
  const conforms = (method: string, url: string, res: { status: number; body: unknown }) =>
    assert.deepEqual(contract.check(method, url, res.status, res.body), []);

  test('login, freight add, view, publish, list, bid, confirm, revoke', async () => {
    const login = await app.post('/users/login.json', { json: { auth: { user: shipper.email, password: shipper.password } } });
    conforms('post', '/users/login.json', login);
    conforms(
      'post',
      '/users/login.json',
      await app.post('/users/login.json', { json: { auth: { user: shipper.email, password: 'wrong-one' } } }),
    );

    const add = await app.post('/freights/add.json', {
      token: shipper.token,
      json: {
        from: 'city:DE-60311',
        to: 'airport:AMS',
        weight: '1250,5',
        etd_range: '2031-05-04 08:00 to 2031-05-04 12:00',
        pieces: [{ pieces: 3, depth: 120 }],
        refs: { customer: 'PO-1' },
        bogus: 1,
      },
    });
    conforms('post', '/freights/add.json', add);
    const id = add.body.data.id;
    const publish = await app.post(`/freights/view/${id}.json`, { token: shipper.token, json: { action: 'publish' } });
    assert.equal(publish.status, 302);
    conforms('get', `/freights/view/${id}.json`, await app.get(`/freights/view/${id}.json`, { token: carrier.token }));
    conforms('get', '/freights/enlist/8.json', await app.get('/freights/enlist/8.json', { token: carrier.token }));
    conforms('get', '/freights/view/999999.json', await app.get('/freights/view/999999.json', { token: carrier.token }));
    const bid = await app.post('/quotes/add.json', { token: carrier.token, json: { route: id, amount: 480.5, currency_code: 'EUR' } });
    conforms('post', '/quotes/add.json', bid);
    conforms('post', '/quotes/add.json', await app.post('/quotes/add.json', { token: carrier.token, json: { route: id } }));
    assert.equal((await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: shipper.token })).status, 302);
    const award = await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: carrier.token });
    conforms('post', '/quotes/confirm/{id}.json', award);
    conforms('get', `/freights/view/${id}.json`, await app.get(`/freights/view/${id}.json`, { token: shipper.token }));
    conforms('get', '/users/me.json', await app.get('/users/me.json'));
  });
});
