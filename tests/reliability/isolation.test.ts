import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, test } from 'node:test';
import type { Endpoint } from '../../src/kernel/route.tsx';
import { startTestApp, type Actor, type ApiResponse, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { parameterNames } from './fuzzer.ts';
import { buildWorld, expectSuccess, type World } from './world.ts';

/**
 * The isolation matrix, generated from the route table: every endpoint × every id of another
 * company's records (freights in every state, bids, booking requests, templates, flights, rate
 * sheets and lines, searches, feedback, files, milk-run shipments, cases, tours, companies,
 * users, and saved searches and webhooks when they exist), asked by an outsider as JSON and as
 * a page, with the id in the path and in every id-like body field; and every id as each ONE
 * Record logistics object (those routes are outside the table).
 *
 * - No answer (body, Location, cookies) contains anything the other companies typed: names,
 *   refs, addresses, notes, prices.
 * - Nothing of theirs changes (every row they own is compared before and after), and no new row
 *   ties the outsider to a record it may not see.
 * - An id of a record the outsider may not see, in a resource path (`:id`), answers 404 or the
 *   contract's refusal (302 on publish/confirm, `status: error`), never a success.
 *
 * The sequences are spread first, so that every id names exactly one record of one kind, and
 * the outsider's own records (created while the matrix runs) never share an id with them.
 */

let app: TestApp;
let endpoints: readonly Endpoint[];
let world: World;
let outsider: Actor;
let session: { cookie: string; csrf: string };
/** Records of the world the outsider may legitimately reach (the contract makes them public). */
const publicKinds = new Set(['freight:market', 'flight', 'company', 'user', 'rate:exchange', 'sheet:exchange']);
/** Path parameters that are no record of anyone (lists, searches, the entity name). */
const NOT_A_RECORD = new Set(['filterId', 'query', 'type', 'entity', 'companyId']);
/** `:id` paths whose id is a list number, not a record (docs/reference.md#the-api: the milk-run filter ids). */
const LIST_PATHS = new Set(['/milkrun/import/short/:id']);
/**
 * Company profiles are public to every logged-in user (docs/reference.md#trust): a profile, its ratings
 * and the block actions name the company, and the blocked list names what the outsider blocked.
 */
const NAMES_COMPANIES = new Set([
  '/companies/view/:id',
  '/companies/ratings/:id',
  '/companies/block/:id',
  '/companies/unblock/:id',
  '/companies/blocked',
]);
const FILTER_IDS = [
  2, 6, 7, 8, 9, 10, 12, 17, 18, 19, 20, 51, 52, 53, 70, 71, 72, 73, 74, 75, 78, 80, 81, 82, 83, 84, 200, 201, 209, 210, 211, 219,
];
/** Tables whose rows change by themselves or by anyone's login (sessions, throttling, event delivery). */
const VOLATILE = /^(sessions|settings|kysely_.*|.*throttle.*|.*login.*|.*attempt.*|.*deliver.*|events?|.*outbox.*|notifications?)$/;

async function tablesSnapshot(): Promise<Map<string, Map<string, number>>> {
  const tables = await sql<{
    name: string;
  }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(
    app.services.db,
  );
  const out = new Map<string, Map<string, number>>();
  for (const { name } of tables.rows) {
    if (VOLATILE.test(name)) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(app.services.db);
    const counts = new Map<string, number>();
    for (const r of rows.rows) {
      const key = JSON.stringify(r);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    out.set(name, counts);
  }
  return out;
}

/** Every sequence at its own base, so ids never coincide across kinds: an id names one record. */
async function spreadSequences(base: number, step: number) {
  const seqs = await sql<{
    name: string;
  }>`select sequence_name as name from information_schema.sequences where sequence_schema = 'public' order by 1`.execute(app.services.db);
  let at = base;
  for (const { name } of seqs.rows) {
    await sql`select setval(${name}::regclass, ${at})`.execute(app.services.db);
    at += step;
  }
}

before(async () => {
  app = await startTestApp();
  endpoints = app.endpoints;
  await spreadSequences(1000, 1000);
  world = await buildWorld(app, { endpoints });
  // The outsider and everything it creates get ids far above the world's.
  await spreadSequences(1_000_000, 100_000);
  outsider = await app.actor('Outsider');
  // A market freight the outsider bid on and lost: it may see it, masked (docs/reference.md#freights).
  const market = expectSuccess(
    await app.post('/freights/add.json', {
      token: world.shipper.token,
      json: {
        from: 'airport:FRA',
        to: 'airport:AMS',
        weight: 99,
        from_addr: `${world.secrets[0]}-lostaddr`,
        refs: { customer: `${world.secrets[0]}-lostref` },
      },
    }),
    'market freight',
  ).id as number;
  world.secrets.push(`${world.secrets[0]}-lostaddr`, `${world.secrets[0]}-lostref`);
  assert.equal(
    (await app.post(`/freights/view/${market}.json`, { token: world.shipper.token, json: { action: 'publish', deadline: '+30 days' } }))
      .status,
    302,
  );
  expectSuccess(
    await app.post('/quotes/add.json', { token: outsider.token, json: { route: market, amount: '10', currency_code: 'EUR' } }),
    'outsider bid',
  );
  const won = expectSuccess(
    await app.post('/quotes/add.json', { token: world.carrier.token, json: { route: market, amount: '63852.17', currency_code: 'EUR' } }),
    'bid',
  ).bid.id as number;
  world.secrets.push('63852.17');
  assert.equal((await app.post(`/quotes/confirm/${won}.json`, { token: world.shipper.token })).status, 302);
  expectSuccess(await app.post(`/quotes/confirm/${won}.json`, { token: world.carrier.token }), 'award');
  world.ids.push({ kind: 'freight:market_lost', id: market }, { kind: 'bid:accepted', id: won });
  publicKinds.add('freight:market_lost');
  session = await browserSession(app, outsider);
});
after(() => app.close());

interface Probe {
  method: string;
  url: string;
  html: boolean;
  body: Record<string, unknown>;
  /** Path values of records the outsider may not reach (a success on them is a leak). */
  strict: boolean;
  echo: string[];
  /** A ONE Record request: token as for JSON, answer in JSON-LD. */
  oneRecord?: boolean;
}

function send(p: Probe): Promise<ApiResponse> {
  if (p.oneRecord) return app.get(p.url, { token: outsider.token });
  if (p.html) {
    const headers = { cookie: session.cookie, 'x-csrf-token': session.csrf };
    return p.method === 'GET'
      ? app.get(p.url, { headers, query: p.body as Record<string, string> })
      : app.request(p.method, p.url, { headers, form: { ...(p.body as Record<string, string>), _csrf: session.csrf } });
  }
  return p.method === 'GET'
    ? app.get(p.url, { token: outsider.token, query: Object.fromEntries(Object.entries(p.body).map(([k, v]) => [k, String(v)])) })
    : app.request(p.method, p.url, { token: outsider.token, json: p.body });
}

test('isolation matrix: every endpoint × every id of another company answers nothing of theirs and changes nothing', async (t) => {
  const before = await tablesSnapshot();
  const kindOf = new Map(world.ids.map((r) => [r.id, r.kind]));
  assert.equal(kindOf.size, new Set(world.ids.map((r) => `${r.kind}:${r.id}`)).size, 'every id names one record (spread sequences)');
  // One record of each kind and state (the world has a few of some).
  const values = [...new Map(world.ids.map((r) => [r.kind, r.id])).values()];
  // Id-like body fields: everything the server reads that names a record.
  const idKeys = parameterNames().filter(
    (n) =>
      /^(route|route_id|route_ids|whitelist|winner_direct|carrier|carrier_id|display_company_id|obj_id)$|_id$|_ids$/.test(n) && n !== 'id',
  );

  const probes: Probe[] = [];
  for (const e of endpoints) {
    const params = [...e.spec.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
    for (const method of [e.spec.method].flat().map(String)) {
      const pathValues = (v: number | string) =>
        e.spec.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
          if (name === 'entity') return 'ENTITY';
          if (name === 'type') return 'city';
          return encodeURIComponent(String(v));
        });
      const candidates: Array<number | string> = [...values];
      if (params.includes('filterId') || LIST_PATHS.has(e.spec.path)) candidates.push(...FILTER_IDS);
      if (params.includes('query')) candidates.push(...world.words);
      for (const v of params.length ? candidates : values) {
        const kitchenSink: Record<string, unknown> = {
          name: 'outsider probe',
          action: 'publish',
          weight: 1,
          amount: '1',
          currency_code: 'EUR',
          delivery_status: 3,
          rating: 1,
          date: '2031-01-01',
          alert: 1,
        };
        for (const k of idKeys) kitchenSink[k] = /_ids$|^whitelist$/.test(k) ? [v] : v;
        const kind = typeof v === 'number' ? kindOf.get(v) : undefined;
        const entities = params.includes('entity') ? ['rate', 'flight', 'direct'] : [''];
        for (const entity of entities) {
          const path = pathValues(v).replace('ENTITY', entity);
          // Strict where the path names a record the outsider may not reach.
          let strict = false;
          if (kind && !publicKinds.has(kind) && !LIST_PATHS.has(e.spec.path)) {
            strict = params.some((p) => !NOT_A_RECORD.has(p));
          }
          if (params.includes('objId') && kind) {
            const reachable =
              (entity === 'rate' && kind === 'rate:exchange') ||
              (entity === 'flight' && kind === 'flight') ||
              (entity === 'direct' && kind === 'company');
            strict = !reachable;
          }
          const echo = NAMES_COMPANIES.has(e.spec.path) ? [String(v), world.carrier.companyName] : [String(v)];
          probes.push({ method, url: `${path}.json`, html: false, body: kitchenSink, strict, echo });
          // `id` alone (with the others it would be refused first: an update of the caller's own record).
          if (!params.length && method === 'POST')
            probes.push({ method, url: `${path}.json`, html: false, body: { id: v }, strict: false, echo });
          // The pages of records (a page post differs from JSON only in its redirect).
          if (method === 'GET' && params.length) probes.push({ method, url: path, html: true, body: {}, strict, echo });
        }
      }
    }
  }

  // Lane prices (docs/reference.md#lane-prices) are market-wide: any logged-in caller reads them, so a success
  // is no leak; but no answer may carry a deal's price (the world's bid amounts are secrets), on
  // the world's own lane, wider and narrower patterns, the longest window, the page too.
  const lanes = [
    { from: 'airport:FRA', to: 'DE-60' },
    { from: 'airport:FRA,DE', to: 'DE', months: '36' },
    { from: 'FRA', to: 'DE-603', months: '1' },
  ];
  for (const body of lanes) {
    probes.push({ method: 'GET', url: '/market/prices.json', html: false, body, strict: false, echo: [] });
    probes.push({ method: 'GET', url: '/market/prices', html: true, body, strict: false, echo: [] });
  }

  // ONE Record (outside the table: JSON-LD, read-only): every record id as each logistics object.
  if (app.http.hasRoute({ method: 'GET', url: '/onerecord/logistics-objects/:object' })) {
    // The probes name real objects: the owner reads its milk-run shipment as a ONE Record shipment.
    const shipment = world.ids.find((r) => r.kind === 'milkrun')!.id;
    const own = await app.get(`/onerecord/logistics-objects/shipment-${shipment}`, { token: world.shipper.token });
    assert.equal(own.status, 200, own.text.slice(0, 300));
    for (const v of values) {
      const kind = kindOf.get(v)!;
      const strict = !publicKinds.has(kind);
      for (const object of [`shipment-${v}`, `waybill-${v}`, `piece-${v}-1`, `shipment-${v}/logistics-events`]) {
        probes.push({
          method: 'GET',
          url: `/onerecord/logistics-objects/${object}`,
          html: true,
          oneRecord: true,
          body: {},
          strict,
          echo: [String(v)],
        });
      }
    }
  }

  // A document's download (outside the table: the bytes, not the envelope): every record id, by token and as a page.
  if (app.http.hasRoute({ method: 'GET', url: '/freights/document/:id' })) {
    for (const v of values) {
      const strict = !publicKinds.has(kindOf.get(v)!);
      probes.push({ method: 'GET', url: `/freights/document/${v}`, html: false, body: {}, strict, echo: [String(v)] });
      probes.push({ method: 'GET', url: `/freights/document/${v}`, html: true, body: {}, strict, echo: [String(v)] });
    }
  }

  const leaks: string[] = [];
  const tally: Record<string, number> = {};
  const answers = new Map<Probe, ApiResponse>();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < probes.length) {
        const p = probes[next++]!;
        answers.set(p, await send(p));
      }
    }),
  );
  for (const p of probes) {
    const res = answers.get(p)!;
    const status = res.status;
    // A download answers the bytes themselves: any 200 is a success.
    const download = p.url.startsWith('/freights/document/');
    const ok =
      status === 200 && (p.oneRecord || download || (p.html ? !/class="flash error"/.test(res.text) : res.body?.status === 'success'));
    const outcome = status >= 500 ? '5xx' : ok ? 'success' : status === 200 ? 'refused (status error)' : String(status);
    tally[outcome] = (tally[outcome] ?? 0) + 1;
    const label = `${p.method} ${p.url}${p.html ? ' (page)' : ''} body=${JSON.stringify(p.body).slice(0, 120)}`;
    let text = `${res.text}\n${JSON.stringify(res.headers.location ?? '')}\n${JSON.stringify(res.headers['set-cookie'] ?? '')}`;
    for (const e of p.echo) text = text.replaceAll(e, '');
    const found = world.secrets.filter((s) => text.includes(s));
    if (status >= 500) leaks.push(`${label} → ${status} ${res.text.slice(0, 200)}`);
    if (found.length) leaks.push(`${label} → ${status} contains ${found.join(', ')}: ${res.text.slice(0, 300)}`);
    // ISOLATION_DEBUG=1 lists every success, to review what the contract lets an outsider reach.
    if (ok && process.env.ISOLATION_DEBUG)
      console.log(
        `success: ${p.method} ${p.url.replace(/\d{4,}/g, (d) => `${d}[${kindOf.get(Number(d)) ?? '-'}]`)}${p.html ? ' page' : ''}`,
      );
    if (p.strict && ok)
      leaks.push(`${label} → ${status} success on another company's record (${kindOf.get(Number(p.echo[0]))}): ${res.text.slice(0, 300)}`);
  }

  // Nothing of theirs changed; no new row ties the outsider to their records.
  const afterwards = await tablesSnapshot();
  const changed: string[] = [];
  for (const [table, rows] of before) {
    const now = afterwards.get(table) ?? new Map();
    for (const [row, n] of rows) if ((now.get(row) ?? 0) < n) changed.push(`${table}: ${row.slice(0, 300)}`);
    for (const [row] of now) {
      if (rows.has(row)) continue;
      const r = JSON.parse(row) as Record<string, unknown>;
      const refs = Object.entries(r).filter(
        ([k, v]) =>
          /_id$/.test(k) &&
          !['company_id', 'user_id', 'id'].includes(k) &&
          typeof v === 'number' &&
          kindOf.has(v) &&
          !publicKinds.has(kindOf.get(v)!),
      );
      if (refs.length)
        changed.push(
          `new ${table} row refers to ${refs.map(([k, v]) => `${k}=${v} (${kindOf.get(v as number)})`).join(', ')}: ${row.slice(0, 300)}`,
        );
    }
  }

  const size = probes.length;
  const kinds = new Set(world.ids.map((r) => r.kind.split(':')[0])).size;
  t.diagnostic(
    `isolation matrix: ${endpoints.length} endpoints × ${values.length} records of ${kinds} kinds (+ filter ids, free-text values) = ${size} requests; outcomes ${JSON.stringify(tally)}`,
  );
  assert.deepEqual(leaks.slice(0, 40), [], `${leaks.length} leak(s)`);
  assert.deepEqual(changed.slice(0, 40), [], `${changed.length} change(s) to another company's records`);
  // The matrix is real: most probes are refused, and the strict ones exist for every record kind.
  assert.ok((tally['404'] ?? 0) > size / 4, `mostly 404: ${JSON.stringify(tally)}`);
  assert.ok(probes.filter((p) => p.strict).length > 100);
});
