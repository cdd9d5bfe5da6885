// Issue 25, machine-readable errors: every `status` = `error` answer carries a stable `code`
// beside its message, listed in the API description. The table below names, for every documented
// code, a request that produces it; the test asserts the answer's status and code, and that the
// table's codes are exactly the documented ones (none documented that no request produces, none
// answered that is not documented).
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ERROR_CODES } from '../../src/app.ts';
import { MAX_FILE_BYTES } from '../../src/files/content.ts';
import { MAX_SAVED_SEARCHES } from '../../src/searches/routes.tsx';
import { MAX_BLOCKS } from '../../src/accounts/blocks.ts';
import { MAX_HIDDEN } from '../../src/freights/marks.ts';
import { sql } from 'kysely';
import { MAX_WEBHOOKS } from '../../src/webhooks/manage.ts';
import { MAX_DOCUMENT_BYTES } from '../../src/deals/tables.ts';
import { MAX_STREAMS_PER_USER } from '../../src/live/hub.ts';
import { openStream, type SseStream } from '../live/support.ts';
import { addFreight, publish } from '../freights/helpers.ts';
import { Contract } from '../support/contract.ts';
import { startTestApp, type Actor, type ApiResponse, type RequestOptions, type TestApp } from '../support/harness.ts';
import { insertFreight, pushStatus, statusCsv } from '../preview/fixtures.ts';

let app: TestApp;
let contract: Contract;
let documented: string[];
let errorEnvelope: ValidateFunction;
let shipper: Actor;
let carrier: Actor;
let base: URL;
/** The slow request of `request.timeout`, sent in `before` and answered after its server's next connection check. */
let slowAnswer: Promise<string>;
/** The server of the slow request: the app's routes and its answer to client errors, its connections checked every 100 ms. */
let slowServer: http.Server;

before(async () => {
  // Webhook receivers must be public here, so that `webhooks.url_private` and `url_unresolvable` can be met.
  app = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  const doc = (await app.get('/openapi.json')).body;
  contract = new Contract(doc);
  documented = doc.components.schemas.ErrorCode.enum;
  errorEnvelope = new Ajv2020({ strict: false, allErrors: true }).compile({
    $ref: '#/components/schemas/ErrorEnvelope',
    components: doc.components,
  });
  base = new URL(await app.listen());
  // A request whose body never arrives: Node cuts it off once it is older than requestTimeout,
  // which it checks every connectionsCheckingInterval (30 s by default: here 100 ms, on a server
  // of its own that hands requests to the app's routes and client errors to the app's handler,
  // kernel/http.tsx answerClientError); the other cases run meanwhile.
  slowServer = http.createServer({ requestTimeout: 1000, connectionsCheckingInterval: 100 }, (req, res) => app.http.routing(req, res));
  for (const listener of app.http.server.listeners('clientError')) slowServer.on('clientError', listener as () => void);
  await new Promise<void>((resolve) => slowServer.listen(0, '127.0.0.1', resolve));
  slowAnswer = raw(
    'POST /quotes/add.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ro',
    (slowServer.address() as net.AddressInfo).port,
  );
});
after(async () => {
  slowServer.closeAllConnections();
  await new Promise((resolve) => slowServer.close(resolve));
  await app.close();
});

/** Sends bytes on a real connection and answers everything the server writes until it closes. */
function raw(request: string, port = Number(base.port)): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, base.hostname, () => socket.write(request));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** A raw HTTP answer as the harness's answers: status and parsed JSON body. */
function parseRaw(answer: string): ApiResponse {
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);
  const text = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  return { status, headers: {}, text, body: JSON.parse(text) };
}

/** An API request, checked against its operation's described answer too. */
interface ApiCase {
  status: number;
  method: 'GET' | 'POST';
  url: string;
  /** the token of this actor (default: none) */
  as?: () => Actor;
  options?: RequestOptions;
  /** what the case needs first (its freight in a state, a filled limit); answers extra options */
  setup?: () => Promise<Partial<ApiCase> | undefined>;
}
/** A request the API description cannot describe (a refusal before any route): sent by `run`. */
interface RawCase {
  status: number;
  run: () => Promise<ApiResponse>;
}
type Case = ApiCase | RawCase;

const post = (url: string, json: unknown, as: () => Actor = () => shipper): ApiCase => ({
  status: 200,
  method: 'POST',
  url,
  as,
  options: { json },
});
const get = (url: string, as: () => Actor = () => shipper): ApiCase => ({ status: 200, method: 'GET', url, as });
const withSetup = (c: ApiCase, setup: ApiCase['setup']): ApiCase => ({ ...c, setup });

/** A lane tender of the shipper inviting the carrier (docs/reference.md#tenders); published, with the carrier's bid, past its deadline, as asked. */
async function tenderWith(o: { publish?: boolean; bid?: boolean; past?: boolean; award?: boolean } = {}) {
  const d = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const deadline = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
  const made = await app.post('/tenders/add.json', {
    token: shipper.token,
    json: {
      name: 'Codes',
      valid_from: d(1),
      valid_to: d(300),
      deadline,
      invited: [carrier.company],
      lanes: [{ from: 'DE-60', to: 'FR', loads: 2 }],
    },
  });
  assert.equal(made.body.status, 'success', made.text);
  const tender = made.body.data.tender;
  const lane = tender.lanes[0].id as number;
  if (o.publish || o.bid || o.past)
    assert.equal((await app.post(`/tenders/publish/${tender.id}.json`, { token: shipper.token })).body.status, 'success');
  if (o.bid) {
    const res = await app.post(`/tenders/bid/${tender.id}.json`, {
      token: carrier.token,
      json: { bids: [{ lane, price: 900, capacity: 2 }] },
    });
    assert.equal(res.body.status, 'success', res.text);
  }
  if (o.past)
    await app.services.db
      .updateTable('tenders')
      .set({ deadline: new Date(Date.now() - 1000) })
      .where('id', '=', tender.id)
      .execute();
  if (o.award) {
    const res = await app.post(`/tenders/award/${tender.id}.json`, {
      token: shipper.token,
      json: { awards: [{ lane, company: carrier.company, rank: 1 }] },
    });
    assert.equal(res.body.status, 'success', res.text);
  }
  return { id: tender.id as number, lane };
}

/** A freight of the shipper in a state, written directly (the transitions are tested elsewhere). */
const freightIn = (status: 'draft' | 'open' | 'pending' | 'taken' | 'closed', extra: { delivery_status?: number } = {}) =>
  insertFreight(app, shipper, { status, winner: status === 'taken' || status === 'closed' ? carrier : null }).then(async (id) => {
    if (extra.delivery_status !== undefined)
      await app.services.db.updateTable('freights').set({ delivery_status: extra.delivery_status }).where('id', '=', id).execute();
    return id;
  });

/** A PDF's first bytes, base64: a document the deal room accepts. */
const DOC = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');

const bid = (route: number, extra: Record<string, unknown> = {}) => ({ route, amount: '900', currency_code: 'EUR', ...extra });

/** A bid of the carrier on an open freight of the shipper, through the API. */
async function carrierBid(): Promise<{ freight: number; bid: number }> {
  const freight = await freightIn('open');
  const res = await app.post('/quotes/add.json', { token: carrier.token, json: bid(freight) });
  assert.equal(res.body.status, 'success', res.text);
  return { freight, bid: res.body.data.bid.id };
}

async function milkrunShipment(owner: Actor, awb: string): Promise<number> {
  const res = await pushStatus(app, owner, statusCsv(`${awb},RCF,2026-03-02 06:10,FRA,EK9901,4,1250,,`));
  assert.equal(res.body.status, 'success', res.text);
  const row = await app.services.db
    .selectFrom('milkrun_shipments')
    .select('id')
    .where('awb', '=', awb)
    .where('company_id', '=', owner.company)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An open vehicle offer of `who` (docs/reference.md#vehicles), withdrawn when asked. */
async function offerOf(who: Actor, withdrawn = false): Promise<number> {
  const res = await app.post('/vehicles/add.json', {
    token: who.token,
    json: { from: 'airport:FRA', available_from: '2030-05-04 06:00', available_to: '2030-05-06 18:00', body: 'box', capacity: 9000 },
  });
  assert.equal(res.body.status, 'success', res.text);
  const id = res.body.data.vehicle.id as number;
  if (withdrawn) await app.post(`/vehicles/withdraw/${id}.json`, { token: who.token });
  return id;
}

/** An invitation of the carrier's offer (withdrawn when asked) into a freight of the shipper. */
const invite = (freight: () => Promise<number>, withdrawn = false) =>
  withSetup(post('/vehicles/invite/0.json', {}), async () => ({
    url: `/vehicles/invite/${await offerOf(carrier, withdrawn)}.json`,
    options: { json: { freight: await freight() } },
  }));

/** The recluse blocks the shipper (once; a second block is the same). */
const recluseBlocksShipper = () =>
  app.services.db
    .insertInto('company_blocks')
    .values({ blocker_id: mine.recluse.company, blocked_id: shipper.company, created: new Date() })
    .onConflict((oc) => oc.doNothing())
    .execute();

/** A freight of the shipper in a state with a Book Now price (docs/reference.md#one-step). */
async function priced(status: 'open' | 'taken'): Promise<number> {
  const id = await freightIn(status);
  await app.services.db.updateTable('freights').set({ book_now: '900' }).where('id', '=', id).execute();
  return id;
}

/** A waterfall (docs/reference.md#one-step) of the shipper's new draft, with `json`. */
const waterfall = (json: Record<string, unknown>) =>
  withSetup(post('/freights/waterfall/0.json', json), async () => ({ url: `/freights/waterfall/${await freightIn('draft')}.json` }));

let seq = 0;
/** A public receiver address (an IP literal: no DNS lookup), distinct per call. */
const publicHook = () => `https://8.8.8.8/hooks/${++seq}`;

const CASES: Record<string, Case> = {
  // The kernel: refusals before or around any endpoint.
  'auth.unauthorized': { status: 401, method: 'GET', url: '/freights/enlist/8.json' },
  not_found: { status: 404, method: 'GET', url: '/freights/view/99999999.json', as: () => shipper },
  'request.unreadable': {
    status: 400,
    method: 'POST',
    url: '/quotes/add.json',
    as: () => shipper,
    options: { form: '{"route": 1,', headers: { 'content-type': 'application/json' } },
  },
  'request.too_large': {
    status: 413,
    method: 'POST',
    url: '/quotes/add.json',
    as: () => shipper,
    options: { json: { note: 'x'.repeat(1024 * 1024) } },
  },
  // The router's refusal, before any route: the description does not say it per operation yet.
  'request.path_too_long': { status: 414, run: () => app.get(`/freights/track/${'1'.repeat(600)}.json`) },
  'request.headers_too_large': {
    status: 431,
    run: async () => parseRaw(await raw(`GET /freights/view/1.json?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)),
  },
  'request.timeout': { status: 408, run: async () => parseRaw(await slowAnswer) },
  // The live board's stream answers outside the envelope (an event stream) until it refuses one more.
  'live.too_many_streams': {
    status: 429,
    async run() {
      const user = await app.actor('Many tabs');
      const open: SseStream[] = [];
      try {
        for (let i = 0; i < MAX_STREAMS_PER_USER; i++) open.push(await openStream(base.origin, { token: user.token }));
        const refused = await openStream(base.origin, { token: user.token });
        return { status: refused.status, headers: {}, text: JSON.stringify(refused.refusal), body: refused.refusal };
      } finally {
        for (const s of open) s.close();
      }
    },
  },
  internal: {
    status: 500,
    // A database that is gone: the request fails where no rule expects it.
    async run() {
      const broken = await startTestApp();
      const someone = await broken.actor('Someone');
      await broken.database.close();
      try {
        return await broken.get('/freights/enlist/8.json', { token: someone.token });
      } finally {
        await broken.http.close();
      }
    },
  },
  'login.failed': {
    ...post('/users/login.json', { auth: { user: 'nobody@example.test', password: 'wrong-one' } }),
    status: 401,
    as: undefined,
  },
  'login.throttled': withSetup(
    { ...post('/users/login.json', { auth: { user: 'throttled@example.test', password: 'wrong-one' } }), status: 429, as: undefined },
    async () => {
      for (let i = 0; i < 10; i++)
        await app.post('/users/login.json', { json: { auth: { user: 'throttled@example.test', password: 'wrong-one' } } });
      return undefined;
    },
  ),

  // accounts: the password change (each case its own user: a wrong password counts as a failed login)
  'password.wrong_current': post('/users/password.json', { current_password: 'not-mine', password: 'new-password' }, () => mine.wrong),
  'password.mismatch': post('/users/password.json', {}, () => mine.mismatch),
  'password.length': post('/users/password.json', {}, () => mine.length),

  // cases
  'cases.name_required': post('/cdr/cases/add.json', { name: ' ' }),
  'cases.name_too_long': post('/cdr/cases/add.json', { name: 'x'.repeat(201) }),
  'cases.route_required': withSetup(post('/cdr/cases/link/0.json', {}), async () => ({ url: `/cdr/cases/link/${await newCase()}.json` })),
  'cases.route_not_found': withSetup(post('/cdr/cases/link/0.json', { route_id: 99999999 }), async () => ({
    url: `/cdr/cases/link/${await newCase()}.json`,
  })),

  // file push
  'files.refused': { ...post('/files/push.json', { encoding: 'base64', action: 'status' }), status: 406 },
  'files.too_large': {
    ...post('/files/push.json', { encoding: 'plain', content: 'x'.repeat(MAX_FILE_BYTES + 1), action: 'other' }),
    status: 413,
  },

  // flights, templates, tracking
  'flight.invalid': post('/flights/add.json', { from: 'FRA' }),
  'template.name_required': post('/templates/add.json', { from: 'airport:FRA' }),
  'tracking.unsupported_type': { ...get('/freights/track/176-12345675.json?type=hawb'), as: undefined },

  // vehicle offers (docs/reference.md#vehicles)
  'vehicle.invalid': post('/vehicles/add.json', { from: 'airport:FRA', body: 'rocket' }, () => carrier),
  'vehicle.edit.not_open': withSetup(
    post('/vehicles/edit/0.json', { capacity: 5 }, () => carrier),
    async () => ({
      url: `/vehicles/edit/${await offerOf(carrier, true)}.json`,
    }),
  ),
  'vehicle.withdraw.not_open': withSetup(
    post('/vehicles/withdraw/0.json', {}, () => carrier),
    async () => ({
      url: `/vehicles/withdraw/${await offerOf(carrier, true)}.json`,
    }),
  ),
  'vehicle.invite.freight_required': withSetup(post('/vehicles/invite/0.json', {}), async () => ({
    url: `/vehicles/invite/${await offerOf(carrier)}.json`,
  })),
  'vehicle.invite.own_offer': withSetup(post('/vehicles/invite/0.json', {}), async () => ({
    url: `/vehicles/invite/${await offerOf(shipper)}.json`,
    options: { json: { freight: await freightIn('open') } },
  })),
  'vehicle.invite.not_in_market': invite(() => freightIn('draft')),
  'vehicle.invite.offer_closed': invite(() => freightIn('open'), true),
  // the offer's company (the recluse) blocked the shipper: no invitation from it (docs/reference.md#trust)
  'vehicle.invite.blocked': withSetup(post('/vehicles/invite/0.json', {}), async () => {
    await recluseBlocksShipper();
    return { url: `/vehicles/invite/${await offerOf(mine.recluse)}.json`, options: { json: { freight: await freightIn('open') } } };
  }),
  'vehicle.invite.own_company_only': invite(async () => {
    const id = await freightIn('open');
    await app.services.db.updateTable('freights').set({ visibility: -1 }).where('id', '=', id).execute();
    return id;
  }),

  // freights
  'freight.edit.not_allowed': withSetup(post('/freights/edit/0.json', { weight: 5 }), async () => ({
    url: `/freights/edit/${await freightIn('pending')}.json`,
  })),
  'freight.edit.waterfall_running': withSetup(post('/freights/edit/0.json', { visibility: 0 }), async () => {
    // A draft offered in a waterfall (docs/reference.md#one-step): its audience moves with the turns.
    const id = await freightIn('draft');
    const started = await app.post(`/freights/waterfall/${id}.json`, {
      token: shipper.token,
      json: { carriers: [carrier.company], price: 900, minutes: 30 },
    });
    assert.equal(started.body.status, 'success', started.text);
    return { url: `/freights/edit/${id}.json` };
  }),
  'freight.revoke.not_allowed': withSetup(post('/freights/revoke/0.json', {}), async () => ({
    url: `/freights/revoke/${await freightIn('closed')}.json`,
  })),
  'freight.archive.not_allowed': withSetup(post('/freights/archive/0.json', {}), async () => ({
    url: `/freights/archive/${await freightIn('open')}.json`,
  })),
  'freight.delivery.not_taken': withSetup(post('/freights/delivery/0.json', { delivery_status: 1 }), async () => ({
    url: `/freights/delivery/${await freightIn('open')}.json`,
  })),
  'freight.delivery.bad_value': withSetup(post('/freights/delivery/0.json', { delivery_status: 7 }), async () => ({
    url: `/freights/delivery/${await freightIn('taken')}.json`,
  })),
  'freight.delivery.backwards': withSetup(post('/freights/delivery/0.json', { delivery_status: 1 }), async () => ({
    url: `/freights/delivery/${await freightIn('taken', { delivery_status: 2 })}.json`,
  })),
  'freight.enlist.unknown_filter': get('/freights/enlist/4711.json'),
  // Hidden loads (issue 47, item 11): the own company's freight is in no market of its own; a user hides at most MAX_HIDDEN.
  'freight.hide.own': withSetup(post('/freights/hide/0.json', {}), async () => ({ url: `/freights/hide/${await freightIn('open')}.json` })),
  'freight.hide.too_many': withSetup(post('/freights/hide/0.json', {}), async () => {
    const hider = await app.actor('Hider');
    const id = await freightIn('open');
    // MAX_HIDDEN copies of that market load, each hidden by the hider, written directly.
    const columns = (
      await sql<{ c: string }>`select string_agg(quote_ident(column_name), ', ' order by ordinal_position) as c
        from information_schema.columns where table_schema = current_schema() and table_name = 'freights' and column_name <> 'id'
          and is_generated = 'NEVER'`.execute(app.services.db)
    ).rows[0]!.c;
    await sql`with copy as (insert into freights (${sql.raw(columns)})
        select ${sql.raw(columns)} from freights, generate_series(1, ${MAX_HIDDEN}) where freights.id = ${id} returning id)
      insert into freight_marks (user_id, freight_id, hidden) select ${hider.user}, copy.id, now() from copy`.execute(app.services.db);
    return { url: `/freights/hide/${id}.json`, as: () => hider };
  }),

  // milk-run
  'milkrun.unknown_list': get('/milkrun/import/short/4711.json'),
  'milkrun.move_not_allowed': withSetup(post('/milkrun/deliver/0.json', {}), async () => ({
    url: `/milkrun/deliver/${await milkrunShipment(shipper, '176-20000013')}.json`,
  })),
  'milkrun.carrier_required': withSetup(post('/milkrun/dispatch/0.json', {}), async () => {
    const id = await milkrunShipment(shipper, '176-20000024');
    await app.post(`/milkrun/select/${id}.json`, { token: shipper.token });
    return { url: `/milkrun/dispatch/${id}.json` };
  }),
  'milkrun.carrier_unknown': withSetup(post('/milkrun/dispatch/0.json', { carrier: 99999999 }), async () => {
    const id = await milkrunShipment(shipper, '176-20000035');
    await app.post(`/milkrun/select/${id}.json`, { token: shipper.token });
    return { url: `/milkrun/dispatch/${id}.json` };
  }),

  // place suggestions
  'places.query_short': get('/places/suggest.json?q=F'),
  'places.input_unknown': get('/places/suggest.json?q=Frankfurt&for=nowhere'),

  // rate search
  'pricing.search_invalid': post('/pricing/search/results.json', { origin: 'airport:FRA', destination: 'city:DE-60311', weight: { a: 1 } }),
  'pricing.search_id_required': get('/pricing/search/results.json'),
  'pricing.type_unknown': get('/pricing/search/location/FRA/harbour.json'),
  'pricing.query_short': get('/pricing/search/location/F/airport.json'),
  'pricing.rating_invalid': withSetup(post('/pricing/search/rate-search.json', {}), async () => ({
    options: { json: { search_id: await storedSearch(), rating: 5 } },
  })),
  'pricing.rate_id_invalid': withSetup(post('/pricing/search/rate-search.json', {}), async () => ({
    options: { json: { search_id: await storedSearch(), rating: 1, rate_id: 'first' } },
  })),
  'pricing.rate_unknown': withSetup(post('/pricing/search/rate-search.json', {}), async () => ({
    options: { json: { search_id: await storedSearch(), rating: 1, rate_id: 99999999 } },
  })),

  // bids
  'quotes.route_required': post('/quotes/add.json', { amount: '900', currency_code: 'EUR' }, () => carrier),
  'quotes.amount_required': withSetup(
    post('/quotes/add.json', {}, () => carrier),
    async () => ({
      options: { json: { route: await freightIn('open'), currency_code: 'EUR' } },
    }),
  ),
  'quotes.currency_required': withSetup(
    post('/quotes/add.json', {}, () => carrier),
    async () => ({
      options: { json: { route: await freightIn('open'), amount: '900' } },
    }),
  ),
  'quotes.note_too_long': withSetup(
    post('/quotes/add.json', {}, () => carrier),
    async () => ({
      options: { json: bid(await freightIn('open'), { note: 'x'.repeat(2001) }) },
    }),
  ),
  'quotes.route_mismatch': withSetup(
    post('/quotes/add.json', {}, () => carrier),
    async () => {
      const first = await carrierBid();
      return { options: { json: bid(await freightIn('open'), { id: first.bid }) } };
    },
  ),
  'quotes.freight_not_biddable': withSetup(
    post('/quotes/add.json', {}, () => carrier),
    async () => ({
      options: { json: bid(await freightIn('taken')) },
    }),
  ),
  'quotes.bid_not_open': withSetup(
    post('/quotes/add.json', {}, () => carrier),
    async () => {
      const placed = await carrierBid();
      // The owner's confirmation makes the bid pending: its terms are what was confirmed.
      assert.equal((await app.post(`/quotes/confirm/${placed.bid}.json`, { token: shipper.token })).status, 302);
      return { options: { json: bid(placed.freight, { id: placed.bid, amount: '950' }) } };
    },
  ),
  'quotes.bid_not_revocable': withSetup(
    post('/quotes/revoke/0.json', {}, () => carrier),
    async () => {
      const placed = await carrierBid();
      assert.equal((await app.post(`/quotes/revoke/${placed.bid}.json`, { token: carrier.token })).body.status, 'success');
      return { url: `/quotes/revoke/${placed.bid}.json` };
    },
  ),

  'quotes.bidder_blocked': withSetup(
    post('/quotes/add.json', {}, () => mine.pest),
    async () => {
      const freight = await freightIn('open');
      await app.services.db
        .insertInto('company_blocks')
        .values({ blocker_id: shipper.company, blocked_id: mine.pest.company, created: new Date() })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return { options: { json: bid(freight) } };
    },
  ),

  // deals in one step (docs/reference.md#one-step): Book Now, counters, waterfalls
  'quotes.book.no_price': withSetup(
    post('/quotes/book/0.json', {}, () => carrier),
    async () => ({
      url: `/quotes/book/${await freightIn('open')}.json`,
    }),
  ),
  'quotes.book.own_freight': withSetup(post('/quotes/book/0.json', {}), async () => ({ url: `/quotes/book/${await priced('open')}.json` })),
  'quotes.book.not_available': withSetup(
    post('/quotes/book/0.json', {}, () => carrier),
    async () => ({
      url: `/quotes/book/${await priced('taken')}.json`,
    }),
  ),
  'quotes.counter.not_open': withSetup(post('/quotes/counter/0.json', { amount: 800 }), async () => {
    const placed = await carrierBid();
    assert.equal((await app.post(`/quotes/revoke/${placed.bid}.json`, { token: carrier.token })).body.status, 'success');
    return { url: `/quotes/counter/${placed.bid}.json` };
  }),
  'quotes.counter.own_bid': withSetup(post('/quotes/counter/0.json', { amount: 800 }), async () => {
    const own = await app.post('/quotes/add.json', { token: shipper.token, json: bid(await freightIn('open')) });
    return { url: `/quotes/counter/${own.body.data.bid.id}.json` };
  }),
  'quotes.counter.amount': withSetup(post('/quotes/counter/0.json', { amount: 0 }), async () => ({
    url: `/quotes/counter/${(await carrierBid()).bid}.json`,
  })),
  'quotes.counter.note': withSetup(post('/quotes/counter/0.json', { amount: 800, note: 'x'.repeat(2001) }), async () => ({
    url: `/quotes/counter/${(await carrierBid()).bid}.json`,
  })),
  'quotes.accept.no_counter': withSetup(
    post('/quotes/accept/0.json', {}, () => carrier),
    async () => ({
      url: `/quotes/accept/${(await carrierBid()).bid}.json`,
    }),
  ),
  'quotes.decline.not_your_turn': withSetup(post('/quotes/decline/0.json', {}), async () => ({
    url: `/quotes/decline/${await freightIn('open')}.json`,
  })),
  'quotes.one_step.blocked': withSetup(post('/quotes/counter/0.json', { amount: 800 }), async () => {
    const pair = await app.actor('Pair');
    const placed = await app.post('/quotes/add.json', { token: pair.token, json: bid(await freightIn('open')) });
    await app.services.db
      .insertInto('company_blocks')
      .values({ blocker_id: shipper.company, blocked_id: pair.company, created: new Date() })
      .execute();
    return { url: `/quotes/counter/${placed.body.data.bid.id}.json` };
  }),
  'freight.waterfall.carriers': waterfall({ carriers: [], price: 900, minutes: 30 }),
  'freight.waterfall.price': waterfall({ carriers: [1], price: 0, minutes: 30 }),
  'freight.waterfall.currency': waterfall({ carriers: [1], price: 900, currency: 'EURO', minutes: 30 }),
  'freight.waterfall.minutes': waterfall({ carriers: [1], price: 900, minutes: 1441 }),
  // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
  'freight.waterfall.then': waterfall({ carriers: [1], price: 900, minutes: 30, then: 'later' }),
  'freight.waterfall.no_contracts': waterfall({ guide: 1, minutes: 30 }),
  'freight.waterfall.bad_carrier': waterfall({ carriers: [99_999_999], price: 900, minutes: 30 }),
  'freight.waterfall.not_draft': withSetup(post('/freights/waterfall/0.json', {}), async () => ({
    url: `/freights/waterfall/${await freightIn('open')}.json`,
    options: { json: { carriers: [carrier.company], price: 900, minutes: 30 } },
  })),

  // lane prices (docs/reference.md#lane-prices): a lane has two ends; what the query read otherwise comes along in `data.warnings`
  'prices.lane_required': get('/market/prices.json?from=DE-60&months=many'),

  // trust (docs/reference.md#trust): profiles, ratings, blocks
  'companies.invalid': post('/companies/edit.json', { vat_id: 'DE136695977' }),
  'companies.block_self': withSetup(post('/companies/block/0.json', {}), async () => ({ url: `/companies/block/${shipper.company}.json` })),
  'companies.too_many_blocks': withSetup(
    post('/companies/block/0.json', {}, () => mine.blocker),
    async () => {
      const many = await app.services.db
        .insertInto('companies')
        .values(Array.from({ length: MAX_BLOCKS }, (_, i) => ({ name: `Blocked ${i}` })))
        .returning('id')
        .execute();
      await app.services.db
        .insertInto('company_blocks')
        .values(many.map((c) => ({ blocker_id: mine.blocker.company, blocked_id: c.id, created: new Date() })))
        .execute();
      return { url: `/companies/block/${shipper.company}.json` };
    },
  ),
  'ratings.not_delivered': withSetup(post('/companies/rate/0.json', { score: 4 }), async () => ({
    url: `/companies/rate/${await freightIn('taken')}.json`,
  })),
  'ratings.self': withSetup(post('/companies/rate/0.json', { score: 4 }), async () => {
    const id = await insertFreight(app, shipper, { status: 'closed', winner: shipper });
    await app.services.db.updateTable('freights').set({ delivery_status: 3 }).where('id', '=', id).execute();
    return { url: `/companies/rate/${id}.json` };
  }),
  'ratings.score_invalid': withSetup(post('/companies/rate/0.json', { score: 6 }), async () => ({
    url: `/companies/rate/${await freightIn('closed', { delivery_status: 3 })}.json`,
  })),
  'ratings.comment_too_long': withSetup(post('/companies/rate/0.json', { score: 4, comment: 'x'.repeat(1001) }), async () => ({
    url: `/companies/rate/${await freightIn('closed', { delivery_status: 3 })}.json`,
  })),
  'ratings.comment_invalid': withSetup(post('/companies/rate/0.json', { score: 4, comment: ['On time.'] }), async () => ({
    url: `/companies/rate/${await freightIn('closed', { delivery_status: 3 })}.json`,
  })),
  'ratings.already_rated': withSetup(post('/companies/rate/0.json', { score: 4 }), async () => {
    const id = await freightIn('closed', { delivery_status: 3 });
    assert.equal((await app.post(`/companies/rate/${id}.json`, { token: shipper.token, json: { score: 5 } })).body.status, 'success');
    return { url: `/companies/rate/${id}.json` };
  }),
  'ratings.reply_required': withSetup(
    post('/companies/reply/0.json', { reply: '' }, () => carrier),
    async () => ({
      url: `/companies/reply/${await ratingOfCarrier()}.json`,
    }),
  ),
  'ratings.already_replied': withSetup(
    post('/companies/reply/0.json', { reply: 'Again.' }, () => carrier),
    async () => {
      const id = await ratingOfCarrier();
      assert.equal(
        (await app.post(`/companies/reply/${id}.json`, { token: carrier.token, json: { reply: 'Thanks.' } })).body.status,
        'success',
      );
      return { url: `/companies/reply/${id}.json` };
    },
  ),

  // the deal room (docs/reference.md#deal-room): messages and documents beside a freight
  'messages.text_invalid': withSetup(
    post('/freights/messages/0.json', { text: '' }, () => carrier),
    async () => ({
      url: `/freights/messages/${await freightIn('open')}.json`,
    }),
  ),
  'messages.company_required': withSetup(post('/freights/messages/0.json', { text: 'To whom?' }), async () => ({
    url: `/freights/messages/${await freightIn('open')}.json`,
  })),
  'messages.company_not_audience': withSetup(post('/freights/messages/0.json', { text: 'Hello' }), async () => {
    const id = await freightIn('open');
    await app.services.db.updateTable('freights').set({ visibility: -1 }).where('id', '=', id).execute();
    return { url: `/freights/messages/${id}.json`, options: { json: { text: 'Hello', company: carrier.company } } };
  }),
  // the shipper writes to a company that may see its freight but blocked it
  'messages.blocked': withSetup(post('/freights/messages/0.json', { text: 'Hello' }), async () => {
    await recluseBlocksShipper();
    return {
      url: `/freights/messages/${await freightIn('open')}.json`,
      options: { json: { text: 'Hello', company: mine.recluse.company } },
    };
  }),
  'documents.kind_invalid': withSetup(post('/freights/documents/0.json', { kind: 'passport', name: 'a.pdf', content: DOC }), async () => ({
    url: `/freights/documents/${await freightIn('open')}.json`,
  })),
  'documents.kind_reserved': withSetup(post('/freights/documents/0.json', { kind: 'order', name: 'a.pdf', content: DOC }), async () => ({
    url: `/freights/documents/${await freightIn('open')}.json`,
  })),
  'documents.name_invalid': withSetup(post('/freights/documents/0.json', { kind: 'cmr', name: '', content: DOC }), async () => ({
    url: `/freights/documents/${await freightIn('open')}.json`,
  })),
  'documents.content_invalid': withSetup(post('/freights/documents/0.json', { kind: 'cmr', name: 'a.pdf', content: '%%%' }), async () => ({
    url: `/freights/documents/${await freightIn('open')}.json`,
  })),
  'documents.type_refused': withSetup(
    post('/freights/documents/0.json', { kind: 'cmr', name: 'a.gif', content: Buffer.from('GIF89a').toString('base64') }),
    async () => ({ url: `/freights/documents/${await freightIn('open')}.json` }),
  ),
  'documents.too_large': withSetup(
    post('/freights/documents/0.json', {
      kind: 'cmr',
      name: 'a.pdf',
      // A PDF one byte too large (its first bytes are read before its size is known: a file that is no PDF is type_refused).
      content: Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(MAX_DOCUMENT_BYTES - 4, 0x25)]).toString('base64'),
    }),
    async () => ({ url: `/freights/documents/${await freightIn('open')}.json` }),
  ),
  // a proof of delivery for a freight that is not taken (open: nothing to deliver yet)
  'pod.not_taken': withSetup(post('/freights/pod/0.json', { name: 'pod.pdf', content: DOC }), async () => ({
    url: `/freights/pod/${await freightIn('open')}.json`,
  })),

  // tracking by permission (docs/reference.md#tracking): the carrier's positions of a freight it won
  ...Object.fromEntries(
    (
      [
        ['positions.count', []],
        ['positions.item_invalid', [7]],
        ['positions.latitude_invalid', [{ latitude: 91, longitude: 8, at: '2031-01-01 10:00' }]],
        ['positions.longitude_invalid', [{ latitude: 50, longitude: 181, at: '2031-01-01 10:00' }]],
        ['positions.at_invalid', [{ latitude: 50, longitude: 8, at: '9999-01-01 10:00' }]],
        ['positions.speed_invalid', [{ latitude: 50, longitude: 8, at: '2020-01-01 10:00', speed: 999 }]],
      ] as const
    ).map(([code, positions]) => [
      code,
      withSetup(
        post('/freights/positions/0.json', { positions }, () => carrier),
        async () => ({
          url: `/freights/positions/${await freightIn('taken')}.json`,
        }),
      ),
    ]),
  ),
  // positions of a freight before its award; and by its owner, who does not drive it
  'positions.not_underway': withSetup(post('/freights/positions/0.json', { positions: [] }), async () => ({
    url: `/freights/positions/${await freightIn('open')}.json`,
  })),
  'positions.winner_only': withSetup(post('/freights/tracking-link/0.json', {}), async () => ({
    url: `/freights/tracking-link/${await freightIn('taken')}.json`,
  })),
  // the e-CMR (docs/reference.md#ecmr), on a freight awarded through the API (its note is issued with the award)
  'cmr.role_invalid': withSetup(post('/freights/cmr-sign/0.json', { role: 'driver', name: 'Anna' }), async () => ({
    url: `/freights/cmr-sign/${await awardedRoad()}.json`,
  })),
  'cmr.name_invalid': withSetup(post('/freights/cmr-sign/0.json', { role: 'sender', name: ' ' }), async () => ({
    url: `/freights/cmr-sign/${await awardedRoad()}.json`,
  })),
  'cmr.reservations_invalid': withSetup(
    post('/freights/cmr-sign/0.json', { role: 'sender', name: 'Anna', reservations: 'x'.repeat(2001) }),
    async () => ({
      url: `/freights/cmr-sign/${await awardedRoad()}.json`,
    }),
  ),
  'cmr.wrong_party': withSetup(post('/freights/cmr-sign/0.json', { role: 'carrier', name: 'Anna' }), async () => ({
    url: `/freights/cmr-sign/${await awardedRoad()}.json`,
  })),
  'cmr.consignee_by_link': withSetup(post('/freights/cmr-sign/0.json', { role: 'consignee', name: 'Anna' }), async () => ({
    url: `/freights/cmr-sign/${await awardedRoad()}.json`,
  })),
  'cmr.already_signed': withSetup(post('/freights/cmr-sign/0.json', { role: 'sender', name: 'Anna' }), async () => {
    const id = await awardedRoad();
    assert.equal(
      (await app.post(`/freights/cmr-sign/${id}.json`, { token: shipper.token, json: { role: 'sender', name: 'Anna' } })).body.status,
      'success',
    );
    return { url: `/freights/cmr-sign/${id}.json` };
  }),
  'cmr.link_by_carrier': withSetup(post('/freights/cmr-link/0.json', {}), async () => ({
    url: `/freights/cmr-link/${await awardedRoad()}.json`,
  })),
  // the transport order's versions (docs/choices.md, "The transport order in versions"): the carrier's plate and driver
  ...Object.fromEntries(
    (
      [
        ['order.plate_invalid', { plate: 'x', driver: 'Jan' }],
        ['order.driver_invalid', { plate: 'EL 12345', driver: ' ' }],
        ['order.phone_invalid', { plate: 'EL 12345', driver: 'Jan', driver_phone: 'call me' }],
      ] as const
    ).map(([code, json]) => [
      code,
      withSetup(
        post('/freights/order-transport/0.json', json, () => carrier),
        async () => ({
          url: `/freights/order-transport/${await awardedRoad()}.json`,
        }),
      ),
    ]),
  ),
  'order.carrier_only': withSetup(post('/freights/order-transport/0.json', { plate: 'EL 12345', driver: 'Jan' }), async () => ({
    url: `/freights/order-transport/${await awardedRoad()}.json`,
  })),
  'order.not_taken': withSetup(
    post('/freights/order-transport/0.json', { plate: 'EL 12345', driver: 'Jan' }, () => carrier),
    async () => {
      const id = await awardedRoad();
      const done = await app.post(`/freights/delivery/${id}.json`, { token: shipper.token, json: { delivery_status: 3 } });
      assert.equal(done.body.status, 'success', done.text);
      return { url: `/freights/order-transport/${id}.json` };
    },
  ),
  'order.unchanged': withSetup(
    post('/freights/order-transport/0.json', { plate: 'EL 12345', driver: 'Jan' }, () => carrier),
    async () => {
      const id = await awardedRoad();
      const url = `/freights/order-transport/${id}.json`;
      assert.equal((await app.post(url, { token: carrier.token, json: { plate: 'EL 12345', driver: 'Jan' } })).body.status, 'success');
      return { url };
    },
  ),
  // the consignee through its link before sender and carrier signed
  'cmr.not_loaded': withSetup(
    { status: 200, method: 'POST', url: '/cmr/consignee/x.json', options: { json: { name: 'Eva' } } },
    async () => {
      const id = await awardedRoad();
      const link = (await app.post(`/freights/cmr-link/${id}.json`, { token: carrier.token })).body.data.link;
      return { url: `/cmr/consignee/${link.url.split('/').at(-1)}.json` };
    },
  ),
  // delivered (by the winner's delivery status) before the sender signed
  'cmr.not_taken': withSetup(post('/freights/cmr-sign/0.json', { role: 'sender', name: 'Anna' }), async () => {
    const id = await awardedRoad();
    const res = await app.post(`/freights/delivery/${id}.json`, { token: carrier.token, json: { delivery_status: 3 } });
    assert.equal(res.body.status, 'success', res.text);
    return { url: `/freights/cmr-sign/${id}.json` };
  }),

  // lane tenders (docs/reference.md#tenders)
  'tenders.name_invalid': post('/tenders/add.json', {
    name: '',
    valid_from: '2031-01-01',
    valid_to: '2031-12-31',
    deadline: '2030-12-01 10:00',
    lanes: [],
  }),
  'tenders.period_invalid': post('/tenders/add.json', {
    name: 'T',
    valid_from: '2031-12-31',
    valid_to: '2031-01-01',
    deadline: '2030-12-01 10:00',
  }),
  'tenders.deadline_invalid': post('/tenders/add.json', {
    name: 'T',
    valid_from: '2031-01-01',
    valid_to: '2031-12-31',
    deadline: '2001-01-01 10:00',
  }),
  'tenders.currency_invalid': post('/tenders/add.json', {
    name: 'T',
    valid_from: '2031-01-01',
    valid_to: '2031-12-31',
    deadline: '2030-12-01 10:00',
    currency: 'EURO',
  }),
  'tenders.invited_invalid': post('/tenders/add.json', {
    name: 'T',
    valid_from: '2031-01-01',
    valid_to: '2031-12-31',
    deadline: '2030-12-01 10:00',
    invited: ['me'],
  }),
  'tenders.lanes_invalid': post('/tenders/add.json', {
    name: 'T',
    valid_from: '2031-01-01',
    valid_to: '2031-12-31',
    deadline: '2030-12-01 10:00',
    lanes: [],
  }),
  'tenders.lane_invalid': post('/tenders/add.json', {
    name: 'T',
    valid_from: '2031-01-01',
    valid_to: '2031-12-31',
    deadline: '2030-12-01 10:00',
    lanes: [{ from: 'DE', to: 'Mars', loads: 1 }],
  }),
  'tenders.not_draft': withSetup(post('/tenders/publish/0.json', {}), async () => ({
    url: `/tenders/publish/${(await tenderWith({ publish: true })).id}.json`,
  })),
  'tenders.own_tender': withSetup(post('/tenders/bid/0.json', {}), async () => {
    const t = await tenderWith({ publish: true });
    return { url: `/tenders/bid/${t.id}.json`, options: { json: { bids: [{ lane: t.lane, price: 5, capacity: 1 }] } } };
  }),
  'tenders.closed': withSetup(
    post('/tenders/bid/0.json', {}, () => carrier),
    async () => {
      const t = await tenderWith({ past: true });
      return { url: `/tenders/bid/${t.id}.json`, options: { json: { bids: [{ lane: t.lane, price: 5, capacity: 1 }] } } };
    },
  ),
  'tenders.bids_invalid': withSetup(
    post('/tenders/bid/0.json', { bids: [] }, () => carrier),
    async () => ({
      url: `/tenders/bid/${(await tenderWith({ publish: true })).id}.json`,
    }),
  ),
  'tenders.bid_invalid': withSetup(
    post('/tenders/bid/0.json', {}, () => carrier),
    async () => {
      const t = await tenderWith({ publish: true });
      return { url: `/tenders/bid/${t.id}.json`, options: { json: { bids: [{ lane: t.lane, price: -5, capacity: 1 }] } } };
    },
  ),
  'tenders.not_closed': withSetup(post('/tenders/award/0.json', {}), async () => {
    const t = await tenderWith({ bid: true });
    return { url: `/tenders/award/${t.id}.json`, options: { json: { awards: [{ lane: t.lane, company: carrier.company, rank: 1 }] } } };
  }),
  'tenders.already_awarded': withSetup(post('/tenders/award/0.json', {}), async () => {
    const t = await tenderWith({ bid: true, past: true, award: true });
    return { url: `/tenders/award/${t.id}.json`, options: { json: { awards: [{ lane: t.lane, company: carrier.company, rank: 1 }] } } };
  }),
  'tenders.awards_invalid': withSetup(post('/tenders/award/0.json', { awards: [] }), async () => ({
    url: `/tenders/award/${(await tenderWith({ bid: true, past: true })).id}.json`,
  })),
  'tenders.award_invalid': withSetup(post('/tenders/award/0.json', {}), async () => {
    const t = await tenderWith({ bid: true, past: true });
    return { url: `/tenders/award/${t.id}.json`, options: { json: { awards: [{ lane: t.lane, company: shipper.company, rank: 1 }] } } };
  }),

  // saved searches
  'searches.name_required': post('/searches/add.json', { filter: 8 }),
  'searches.filter_unknown': post('/searches/add.json', { name: 'Mine', filter: 4711 }),
  'searches.params_invalid': post('/searches/add.json', { name: 'Mine', filter: 8, params: '{not json' }),
  'searches.duplicate': withSetup(post('/searches/add.json', { name: 'Again', filter: 8, params: { to: 'PL', from: 'DE' } }), async () => {
    const res = await app.post('/searches/add.json', {
      token: shipper.token,
      json: { name: 'DE to PL', filter: 8, params: { from: 'DE', to: 'PL' } },
    });
    assert.equal(res.body.status, 'success', res.text);
    return undefined;
  }),
  'searches.too_many': withSetup(
    post('/searches/add.json', { name: 'One too many', filter: 8 }, () => mine.searcher),
    async () => {
      for (let i = 0; i < MAX_SAVED_SEARCHES; i++) {
        const res = await app.post('/searches/add.json', {
          token: mine.searcher.token,
          json: { name: `Search ${i}`, filter: 8, params: { q: `load ${i}` } },
        });
        assert.equal(res.body.status, 'success', res.text);
      }
      return undefined;
    },
  ),

  // Shipments lists
  'shipments.unknown_list': get('/routes/enlist/4711.json'),

  // tours
  'tms.name_required': post('/tours/add.json', { date: '2031-05-04' }, () => carrier),
  'tms.name_too_long': post('/tours/add.json', { name: 'x'.repeat(201) }, () => carrier),
  'tms.date_invalid': post('/tours/add.json', { name: 'Monday', date: '2031-02-30' }, () => carrier),
  'tms.route_ids_invalid': post('/tours/add.json', { name: 'Monday', route_ids: ['first'] }, () => carrier),
  'tms.too_many_routes': post(
    '/tours/add.json',
    { name: 'Monday', route_ids: Array.from({ length: 501 }, (_, i) => i + 1) },
    () => carrier,
  ),
  'tms.not_won_orders': withSetup(
    post('/tours/add.json', {}, () => carrier),
    async () => ({
      options: { json: { name: 'Monday', route_ids: [await freightIn('open')] } },
    }),
  ),
  'tms.on_other_tour': withSetup(
    post('/tours/add.json', {}, () => carrier),
    async () => {
      const order = await freightIn('taken');
      const first = await app.post('/tours/add.json', { token: carrier.token, json: { name: 'Monday', route_ids: [order] } });
      assert.equal(first.body.status, 'success', first.text);
      return { options: { json: { name: 'Tuesday', route_ids: [order] } } };
    },
  ),

  // webhooks
  'webhooks.url_required': post('/webhooks/add.json', { events: ['*'] }),
  'webhooks.url_invalid': post('/webhooks/add.json', { url: 'not an address', events: ['*'] }),
  'webhooks.url_scheme': post('/webhooks/add.json', { url: 'ftp://8.8.8.8/hook', events: ['*'] }),
  'webhooks.url_credentials': post('/webhooks/add.json', { url: 'https://user:secret@8.8.8.8/hook', events: ['*'] }),
  'webhooks.url_private': post('/webhooks/add.json', { url: 'http://127.0.0.1:9/hook', events: ['*'] }),
  'webhooks.url_unresolvable': post('/webhooks/add.json', { url: 'https://no-such-host.invalid/hook', events: ['*'] }),
  'webhooks.url_duplicate': withSetup(
    post('/webhooks/add.json', {}, () => mine.twins),
    async () => {
      const url = publicHook();
      assert.equal(
        (await app.post('/webhooks/add.json', { token: mine.twins.token, json: { url, events: ['*'] } })).body.status,
        'success',
      );
      return { options: { json: { url, events: ['bid.created'] } } };
    },
  ),
  'mail.email_invalid': post('/users/settings.json', { email: 'daily' }),
  'mail.mode_invalid': post('/users/settings.json', { email: { alerts: 'hourly' } }),
  'webhooks.events_required': post('/webhooks/add.json', { url: 'https://8.8.8.8/hook', events: [] }),
  'webhooks.events_too_many': post('/webhooks/add.json', { url: 'https://8.8.8.8/hook', events: Array.from({ length: 100 }, () => '*') }),
  'webhooks.event_unknown': post('/webhooks/add.json', { url: 'https://8.8.8.8/hook', events: ['freight.teleported'] }),
  'webhooks.too_many': withSetup(
    post('/webhooks/add.json', {}, () => mine.hooks),
    async () => {
      for (let i = 0; i < MAX_WEBHOOKS; i++) {
        const res = await app.post('/webhooks/add.json', { token: mine.hooks.token, json: { url: publicHook(), events: ['*'] } });
        assert.equal(res.body.status, 'success', res.text);
      }
      return { options: { json: { url: publicHook(), events: ['*'] } } };
    },
  ),
};

/**
 * Actors of their own for the cases that change what they are or fill a limit. The webhooks'
 * companies do nothing else, so no event is ever delivered to their (public) addresses.
 */
const mine = {} as Record<'wrong' | 'mismatch' | 'length' | 'searcher' | 'hooks' | 'twins' | 'blocker' | 'pest' | 'recluse', Actor>;

/** A road freight of the shipper awarded to the carrier through the API (bid, both confirmations): its e-CMR is issued. */
async function awardedRoad(): Promise<number> {
  const id = await addFreight(app, shipper, { from: 'city:10115', from_country: 'DE', to: 'city:60311', to_country: 'DE' });
  await publish(app, shipper, id);
  const bid = (await app.post('/quotes/add.json', { token: carrier.token, json: { route: id, amount: '500.00', currency_code: 'EUR' } }))
    .body.data.bid;
  await app.post(`/quotes/confirm/${bid.id}.json`, { token: shipper.token });
  assert.equal((await app.post(`/quotes/confirm/${bid.id}.json`, { token: carrier.token })).body.status, 'success');
  return id;
}

/** A rating of the carrier by the shipper on a delivered freight; answers its id. */
async function ratingOfCarrier(): Promise<number> {
  const id = await freightIn('closed', { delivery_status: 3 });
  const res = await app.post(`/companies/rate/${id}.json`, { token: shipper.token, json: { score: 3 } });
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data.rating.id;
}

async function newCase(): Promise<number> {
  const res = await app.post('/cdr/cases/add.json', { token: shipper.token, json: { name: 'Damaged pallet' } });
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data.case.id;
}

async function storedSearch(): Promise<number> {
  const res = await app.post('/pricing/search/results.json', {
    token: shipper.token,
    json: { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 100 },
  });
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data.searchEntity.id;
}

/** A test app answering on a socket of its own through its routes only (nothing that runs while it listens), its database then closed. */
async function brokenApp(): Promise<{ base: string; actors: Actor[]; close: () => Promise<void> }> {
  const broken = await startTestApp();
  const actors = [await broken.actor('One')];
  const server = http.createServer((req, res) => broken.http.routing(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await broken.database.close();
  return {
    base: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    actors,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await broken.http.close();
    },
  };
}

describe('error codes', () => {
  before(async () => {
    for (const key of ['wrong', 'mismatch', 'length', 'searcher', 'hooks', 'twins', 'blocker', 'pest', 'recluse'] as const)
      mine[key] = await app.actor(key);
    // The password cases that need the right current password: it is known only now.
    (CASES['password.mismatch'] as ApiCase).options = {
      json: { current_password: mine.mismatch.password, password: 'new-password', password_repeat: 'other-password' },
    };
    (CASES['password.length'] as ApiCase).options = { json: { current_password: mine.length.password, password: 'abc' } };
  });

  test('the table names exactly the documented codes, and the documented codes are app.ts ERROR_CODES', () => {
    assert.deepEqual(Object.keys(CASES).sort(), [...documented].sort());
    assert.deepEqual([...documented].sort(), Object.keys(ERROR_CODES).sort());
    assert.deepEqual(documented, [...documented].sort(), 'the enum is sorted');
  });

  for (const [code, c] of Object.entries(CASES)) {
    test(`${code}: ${c.status}`, async () => {
      let res: ApiResponse;
      let described: { method: string; url: string } | undefined;
      if ('run' in c) res = await c.run();
      else {
        const more = (await c.setup?.()) ?? {};
        const { method, url, as, options } = { ...c, ...more };
        res = await app.request(method, url, { ...options, token: as?.().token });
        described = { method, url };
      }
      assert.equal(res.status, c.status, res.text.slice(0, 300));
      assert.equal(res.body.status, 'error', res.text.slice(0, 300));
      assert.equal(res.body.code, code, res.text.slice(0, 300));
      assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
      // `code` follows everything the envelope had before (docs/reference.md#the-api's fields keep their places).
      assert.deepEqual(Object.keys(res.body), ['data', 'status', 'auth', 'message', 'code']);
      // The body is the documented error envelope (its code one of the enum), and an operation of
      // the description names this status among its answers.
      assert.ok(errorEnvelope(res.body), JSON.stringify(errorEnvelope.errors));
      const operation = described && contract.operation(described.method, described.url);
      if (operation) assert.ok(operation.op.responses[String(res.status)], `${operation.path}: ${res.status} not described`);
    });
  }

  test('a refused query’s data is the documented envelope: the lane keeps the warnings of what it read otherwise', async () => {
    const res = await app.get('/market/prices.json?from=DE-60&months=many', { token: shipper.token });
    assert.equal(res.body.code, 'prices.lane_required');
    assert.deepEqual(
      res.body.data.warnings.map((w: { field: string }) => w.field),
      ['months'],
    );
    assert.ok(errorEnvelope(res.body), JSON.stringify(errorEnvelope.errors));
    assert.deepEqual(contract.check('get', '/market/prices.json', res.status, res.body), []);
  });

  test('the routes outside the envelope fail in it: a download’s over-long id (414); 500 on a broken database, or a stream that cannot start', async () => {
    const long = `/freights/document/${'1'.repeat(600)}`;
    const tooLong = await app.get(long, { token: shipper.token });
    assert.equal(tooLong.status, 414);
    assert.equal(tooLong.body.code, 'request.path_too_long');
    assert.deepEqual(contract.check('get', long, 414, tooLong.body), []);
    const internal = async (res: Response, what: string) => {
      assert.equal(res.status, 500, what);
      assert.match(String(res.headers.get('content-type')), /^application\/json/, what);
      const body = await res.json();
      assert.equal(body.code, 'internal', what);
      assert.ok(errorEnvelope(body), JSON.stringify(errorEnvelope.errors));
    };
    const broken = await brokenApp();
    try {
      for (const url of ['/freights/document/1', '/events/stream'])
        await internal(await fetch(`${broken.base}${url}`, { headers: { authorization: `TokenPass ${broken.actors[0]!.token}` } }), url);
    } finally {
      await broken.close();
    }
    // The caller is known, and the stream fails as it opens (its answer not begun yet).
    const open = app.live.open;
    app.live.open = async () => {
      throw new Error('the stream cannot start');
    };
    try {
      await internal(await fetch(new URL('/events/stream', base), { headers: { authorization: `TokenPass ${carrier.token}` } }), 'stream');
    } finally {
      app.live.open = open;
    }
  });
});
