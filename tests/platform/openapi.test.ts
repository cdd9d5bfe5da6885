// Shared decisions §10 and issue 15: the OpenAPI 3.1 description is generated from the route
// table, validates, covers every JSON endpoint and nothing else, and real answers conform to it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createConfig, lintFromString } from '@redocly/openapi-core';
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

  test('Redocly’s recommended rules find nothing: no error, no warning (issue 25)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const lines = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
    assert.deepEqual(lines, [], `${lines.length} problems:\n${lines.slice(0, 40).join('\n')}`);
  });

  test('operation ids are unique, every tag is described, the base URL is a variable', () => {
    const ids = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((ops) =>
      Object.values(ops).map((o) => o.operationId),
    );
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(doc.paths['/notifications/read/{id}.json'].post.operationId, 'postNotificationsReadById');
    assert.equal(doc.paths['/notifications/read.json'].post.operationId, 'postNotificationsRead');
    for (const tag of doc.tags) assert.ok(tag.description && tag.description !== tag.name, tag.name);
    assert.equal(doc.servers[0].url, '{baseUrl}');
    assert.ok(doc.servers[0].variables.baseUrl.default);
  });

  test('answers say what the server does: the success’s status mapped, 414, 429 with Retry-After, the form’s bracket keys', () => {
    const login = doc.paths['/users/login.json'].post;
    const answer = login.responses['200'].content['application/json'].schema;
    assert.deepEqual(Object.keys(answer.discriminator.mapping).sort(), ['error', 'success']);
    assert.equal(doc.components.schemas.PostUsersLoginSuccess.properties.status.const, 'success');
    assert.ok(login.responses['429'].headers['Retry-After']);
    assert.deepEqual(login.requestBody.content['application/x-www-form-urlencoded'].encoding.auth, { style: 'deepObject', explode: true });
    assert.ok(doc.paths['/freights/add.json'].post.requestBody.content['application/x-www-form-urlencoded'].encoding.pieces);
    assert.ok(doc.paths['/freights/view/{id}.json'].get.responses['414']);
    assert.ok(doc.paths['/pricing/search/rate-search.json'].post.responses['404']);
    assert.ok(!doc.paths['/freights/view/{id}.json'].post.requestBody.content['application/json'].schema.required?.includes('action'));
    const counts = doc.components.schemas.GetFreightsCountsSuccess.properties.data.properties.counts;
    assert.equal(counts.additionalProperties.type, 'integer');
    const combination = doc.components.schemas.Combination.properties;
    assert.equal(combination.legs.prefixItems.length, 2);
    assert.match('airport:FRA', new RegExp(combination.via.pattern));
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

describe('issue 39: what an integrator’s tools read from the description', () => {
  /** The value a runtime expression `$response.body#/a/b` names in an answer's body (JSON Pointer). */
  const pointer = (body: any, expression: string) => {
    assert.match(expression, /^\$response\.body#\//, expression);
    return expression
      .slice('$response.body#/'.length)
      .split('/')
      .reduce((v, key) => v?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], body);
  };
  const operationById = (id: string) => {
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(ops)) if (op.operationId === id) return { path, method, op };
    return undefined;
  };
  /** Calls a linked operation with the link's parameters and body, read from `body`. */
  const follow = (link: any, body: any, who: Actor) => {
    const target = operationById(link.operationId);
    assert.ok(target, `${link.operationId} is an operation of the description`);
    const url = target.path.replace(/\{(\w+)\}/g, (_m: string, name: string) => {
      assert.ok(link.parameters[name], `the link gives ${name}`);
      return String(pointer(body, link.parameters[name]));
    });
    return app.request(target.method.toUpperCase(), url, {
      token: who.token,
      json: target.method === 'post' ? (link.requestBody ?? {}) : undefined,
    });
  };

  test('links: a created freight to its view, edit and publish; a bid to its confirmation and its freight; followed, each works', async () => {
    const add = doc.paths['/freights/add.json'].post.responses['200'].links;
    assert.deepEqual(Object.keys(add).sort(), ['edit', 'publish', 'read']);
    assert.equal(add.read.operationId, 'getFreightsView');
    assert.equal(add.edit.operationId, 'postFreightsEdit');
    assert.equal(add.publish.operationId, 'postFreightsView');
    const bid = doc.paths['/quotes/add.json'].post.responses['200'].links;
    assert.equal(bid.confirm.operationId, 'postQuotesConfirm');

    const created = await app.post('/freights/add.json', {
      token: shipper.token,
      json: { from: 'airport:FRA', to: 'airport:AMS', weight: 300 },
    });
    const read = await follow(add.read, created.body, shipper);
    assert.equal(read.status, 200);
    assert.equal(read.body.data.route.id, created.body.data.id);
    assert.equal((await follow(add.edit, created.body, shipper)).body.status, 'success');
    assert.equal((await follow(add.publish, created.body, shipper)).status, 302);
    assert.equal((await app.get(`/freights/view/${created.body.data.id}.json`, { token: shipper.token })).body.data.route.status, 'open');

    const placed = await app.post('/quotes/add.json', {
      token: carrier.token,
      json: { route: created.body.data.id, amount: '410.00', currency_code: 'EUR' },
    });
    assert.equal(placed.body.status, 'success', placed.text);
    assert.equal((await follow(bid.freight, placed.body, carrier)).body.data.route.id, created.body.data.id);
    const confirmed = await follow(bid.confirm, placed.body, shipper);
    assert.equal(confirmed.status, 302, 'the owner’s side of the bid’s confirmation');
  });

  test('info.contact, and the description says what a list does with query parameters it does not take or cannot read', () => {
    assert.deepEqual(doc.info.contact, { name: 'The operator of this exchange', url: '/' });
    assert.match(
      doc.info.description,
      /A list \(every `\.json` GET that takes `limit`\) ignores a query parameter it does not take, and one whose value it cannot read/,
    );
  });

  test('a document downloads as application/pdf, image/jpeg or image/png, as described', () => {
    const answer = doc.paths['/freights/document/{id}'].get.responses['200'];
    assert.deepEqual(Object.keys(answer.content), ['application/pdf', 'image/jpeg', 'image/png']);
  });

  test('every list without a path parameter, and the freight lists: an unknown parameter and an unreadable limit and page are ignored and named', async () => {
    const lists: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      const get = ops.get;
      if (!get || !(get.parameters ?? []).some((p: any) => p.in === 'query' && p.name === 'limit')) continue;
      if (path.includes('{') || !path.endsWith('.json')) continue;
      lists.push(path);
    }
    lists.push(
      '/freights/enlist/8.json',
      '/freights/enlist/20.json',
      '/routes/enlist/73.json',
      `/companies/ratings/${carrier.company}.json`,
    );
    assert.ok(lists.length >= 8, lists.join(' '));
    for (const path of lists) {
      const required = (doc.paths[path.replace(/\/\d+\.json$/, '/{x}.json')]?.get ?? doc.paths[path]?.get)?.parameters?.filter(
        (p: any) => p.in === 'query' && p.required,
      );
      const query = new URLSearchParams({ zz_mistyped_limit: '5', limit: 'ten', page: 'second' });
      for (const p of required ?? []) query.set(p.name, 'fr');
      const res = await app.get(`${path}?${query}`, { token: shipper.token });
      assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 300)}`);
      assert.equal(res.body.status, 'success', path);
      const named = (res.body.warnings ?? []).map((w: any) => w.field).sort();
      assert.deepEqual(named, ['limit', 'page', 'zz_mistyped_limit'], `${path}: ${JSON.stringify(res.body.warnings)}`);
    }
    // A list's declared parameters draw no warning of their own.
    const plain = await app.get('/freights/enlist/8.json?limit=5&page=1&sort=Routes.created&direction=asc&from=DE', {
      token: shipper.token,
    });
    assert.equal(plain.body.warnings, undefined, JSON.stringify(plain.body.warnings));
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

    // The TMS lists answer Shipments and Tours, on the freight lists' path and the Shipments' (issue 25).
    const list = async (url: string) => {
      const res = await app.get(url, { token: carrier.token });
      conforms('get', url, res);
      return res.body.data.routes as any[];
    };
    assert.deepEqual(
      (await list('/freights/enlist/51.json')).map((r) => [r.id, 'capacity' in r]),
      [[id, true]],
    );
    const tour = await app.post('/tours/add.json', { token: carrier.token, json: { name: 'Monday', route_ids: [id] } });
    conforms('post', '/tours/add.json', tour);
    assert.equal((await list('/freights/enlist/52.json'))[0].tour_id, tour.body.data.tour.id);
    for (const url of ['/freights/enlist/53.json', '/routes/enlist/53.json']) assert.deepEqual((await list(url))[0].route_ids, [id]);
    await list('/routes/enlist/51.json');
    conforms('get', '/routes/enlist/99999.json', await app.get('/routes/enlist/99999.json', { token: carrier.token }));
    conforms('get', '/freights/counts.json', await app.get('/freights/counts.json', { token: carrier.token }));
  });

  test('refusals: an over-long path parameter (414), feedback on a missing search (404), throttled logins (429)', async () => {
    const long = `/freights/view/${'1'.repeat(600)}.json`;
    const tooLong = await app.get(long, { token: shipper.token });
    assert.equal(tooLong.status, 414);
    conforms('get', long, tooLong);
    const feedback = await app.post('/pricing/search/rate-search.json', { token: shipper.token, json: { search_id: 999999, rating: 1 } });
    assert.equal(feedback.status, 404);
    conforms('post', '/pricing/search/rate-search.json', feedback);
    const wrong = () => app.post('/users/login.json', { json: { auth: { user: carrier.email, password: 'wrong-one' } } });
    let last = await wrong();
    for (let i = 0; i < 12 && last.status !== 429; i++) last = await wrong();
    assert.equal(last.status, 429);
    conforms('post', '/users/login.json', last);
    assert.match(String(last.headers['retry-after']), /^\d+$/);
  });
});
