import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiResponse, RequestOptions, TestApp } from './harness.ts';
import { Contract } from './contract.ts';
import { openFreight } from '../freights/helpers.ts';
import { buildWorld, type World } from '../reliability/world.ts';

/**
 * One request and one response example per operation of the API description (issue 25),
 * recorded from real answers: the isolation tests' world (tests/reliability/world.ts: freights
 * in every state, bids, booking requests, rate sheets, searches, files, milk run, cases, tours,
 * saved searches, webhooks) is built through the API on a test app, and then every operation
 * not yet answered is asked with the world's ids. Tokens and passwords are replaced by
 * placeholders; ids and timestamps stay as recorded. The events the world's changes wrote to the
 * outbox give one delivered example per event type. `npm run examples:generate` writes the
 * results to src/openapi/examples.json and event-examples.json, which the description attaches
 * to its operations and to its webhooks.
 */

export interface OperationExample {
  method: string;
  /** the request path as sent, `.json` included */
  url: string;
  /** the JSON body (POST) or the query parameters (GET), when the request had any */
  request?: Record<string, unknown>;
  /** the 200 answer; none when the operation's success is a 302 (publish, confirm) */
  response?: unknown;
}

export type Examples = Record<string, OperationExample>;

/** One delivered event per type (the outbox's exact body, as its recipient company receives it), by event type. */
export type EventExamples = Record<string, Record<string, unknown>>;

/** What a recording produces: the operations' examples (src/openapi/examples.json) and the events' (event-examples.json). */
export interface Recorded {
  operations: Examples;
  events: EventExamples;
}

export const TOKEN_PLACEHOLDER = '<API_TOKEN>';
export const PASSWORD_PLACEHOLDER = '<PASSWORD>';

type Json = Record<string, any>;

/** Every operation of the document: id, method, path (OpenAPI form). */
export function operationsOf(doc: Json): Array<{ id: string; method: string; path: string; op: Json }> {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ id: String(op.operationId), method, path, op })),
  );
}

/** Replaces every secret (tokens, passwords) wherever it appears in a value. */
function scrub(value: unknown, secrets: Map<string, string>): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const [secret, placeholder] of secrets) out = out.split(secret).join(placeholder);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, secrets));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, secrets)]));
  return value;
}

/**
 * Records the examples on a test app (its clock fixed, so that the timestamps are stable): an
 * operation's first success, and each event type's first delivery body from the outbox (the
 * `events` table holds the exact JSON a webhook receives; a market row, written for every company
 * that may see a freight, is no delivery and is passed over).
 */
export async function recordExamples(app: TestApp): Promise<Recorded> {
  app.setNow(new Date('2031-03-01T09:00:00Z'));
  const doc = (await app.get('/openapi.json')).body as Json;
  const contract = new Contract(doc);
  const ids = new Map<string, string>();
  for (const o of operationsOf(doc)) ids.set(`${o.method} ${o.path}`, o.id);
  const recorded: Examples = {};
  const secrets = new Map<string, string>();
  const original = app.request;
  const record = async (method: string, url: string, options: RequestOptions = {}): Promise<ApiResponse> => {
    const res = await original(method, url, options);
    const found = contract.operation(method, url);
    if (!found) return res;
    const id = ids.get(`${method.toLowerCase()} ${found.path}`);
    const media = !found.path.endsWith('.json');
    const ok = res.status === 200 && (media || (res.body && typeof res.body === 'object' && res.body.status === 'success'));
    // An operation whose success is a redirect (publish, confirm): its request, and no answer to show.
    const redirect = res.status === 302 && !!id && !!(found.op.responses as Json)['302'];
    if (!id || !(ok || redirect) || (recorded[id] && recorded[id]!.response !== undefined)) return res;
    const [path, search] = url.split('?') as [string, string | undefined];
    const query = { ...Object.fromEntries(new URLSearchParams(search ?? '')), ...options.query };
    const request = method.toUpperCase() === 'GET' ? (Object.keys(query).length ? query : undefined) : (options.json as Json | undefined);
    recorded[id] = {
      method: method.toLowerCase(),
      url: path,
      ...(request ? { request } : {}),
      // A media answer that is no JSON (a document's download) is shown as its text.
      ...(ok ? { response: media ? (/json/.test(String(res.headers['content-type'])) ? JSON.parse(res.text) : res.text) : res.body } : {}),
    };
    return res;
  };
  app.request = record;
  app.get = (url, o) => record('GET', url, o);
  app.post = (url, o) => record('POST', url, o);
  try {
    const world = await buildWorld(app, { endpoints: app.endpoints, bystander: await app.actor('Bystander') });
    for (const actor of [world.shipper, world.carrier]) {
      secrets.set(actor.token, TOKEN_PLACEHOLDER);
      secrets.set(actor.password, PASSWORD_PLACEHOLDER);
    }
    await more(app, world);
    const stream = ids.get('get /events/stream');
    if (stream) recorded[stream] = { method: 'get', url: '/events/stream', response: await streamExample(app, world.carrier.token) };
    await sweep(app, world, doc, recorded);
  } finally {
    app.request = original;
  }
  const ordered: Examples = {};
  for (const o of operationsOf(doc)) if (recorded[o.id]) ordered[o.id] = scrub(recorded[o.id], secrets) as OperationExample;
  return { operations: ordered, events: scrub(await deliveredEvents(app, Object.keys(doc.webhooks ?? {})), secrets) as EventExamples };
}

/** The first delivery body of each event type the description lists, in its order (a type never written is left out). */
async function deliveredEvents(app: TestApp, types: readonly string[]): Promise<EventExamples> {
  const rows = await app.services.db
    .selectFrom('events')
    .select(['type', 'body'])
    .where('company_id', 'is not', null)
    .where('type', 'in', types.length ? [...types] : [''])
    .orderBy('seq')
    .execute();
  const first = new Map<string, Record<string, unknown>>();
  for (const row of rows) if (!first.has(row.type)) first.set(row.type, JSON.parse(row.body));
  return Object.fromEntries(types.flatMap((type) => (first.has(type) ? [[type, first.get(type)!]] : [])));
}

/**
 * GET /events/stream (docs/reference.md#live-board): an answer that never ends, so it is read on a socket of
 * its own until its first two events (what the carrier missed in the last 24 hours: the stream is
 * opened with an unknown Last-Event-ID), then closed. Routed into the app without listening, so
 * nothing that runs only while the server listens (deliveries, expiry) changes the world.
 */
async function streamExample(app: TestApp, token: string): Promise<string> {
  const server = http.createServer((req, res) => app.http.routing(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await new Promise<string>((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      const req = http.get(
        `http://127.0.0.1:${port}/events/stream`,
        { headers: { authorization: `TokenPass ${token}`, 'last-event-id': 'evt_0' }, agent: false },
        (res) => {
          let text = '';
          const done = () => {
            clearTimeout(timer);
            req.destroy();
            resolve(text);
          };
          const timer = setTimeout(done, 5000);
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            const events = text.split('\n\n').filter((block) => block.includes('\ndata: '));
            if (events.length >= 2) {
              text = `${text.slice(0, text.indexOf(events[1]!) + events[1]!.length)}\n\n`;
              done();
            }
          });
        },
      );
      req.on('error', reject);
    });
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

/** Operations the world does not call: each once, as its owner would. */
async function more(app: TestApp, world: World): Promise<void> {
  const S = { token: world.shipper.token };
  const C = { token: world.carrier.token };
  const id = (kind: string) => world.ids.find((i) => i.kind === kind)?.id;
  await app.post('/users/login.json', { json: { auth: { user: world.shipper.email, password: world.shipper.password } } });
  await app.get('/users/me.json', S);
  await app.post('/users/settings.json', { ...C, json: { email: { alerts: 'instant', documents: 'daily' } } });
  await app.get('/users/settings.json', C);
  await app.get('/freights/counts.json', C);
  await app.get(`/freights/view/${world.freights.open}.json`, S);
  await app.get(`/freights/edit/${world.freights.draft}.json`, S);
  await app.post(`/freights/edit/${world.freights.draft}.json`, { ...S, json: { weight: 1300, refs: { customer: 'PO-4711' } } });
  await app.get('/freights/enlist/8.json', { ...C, query: { limit: '2' } });
  for (const list of [51, 52, 53]) await app.get(`/freights/enlist/${list}.json`, C);
  await app.get('/routes/enlist/53.json', C);
  await app.get('/places/suggest.json', { ...S, query: { q: 'Frank' } });
  await app.get('/pricing/search/results.json', { ...S, query: { origin: 'city:DE-60311', destination: 'airport:FRA', weight: '512' } });
  await app.post(`/pricing/public-search/${world.carrier.company}/results.json`, {
    json: { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 512 },
  });
  await app.get('/pricing/search/history.json', S);
  await app.get('/pricing/search/location/Frank/city.json', S);
  await app.get('/pricing/search/location/FRA/airport.json', S);
  // A stored rate search asked again by its company (the world holds one of each party's).
  for (const search of world.ids.filter((i) => i.kind === 'search')) {
    for (const who of [S, C]) await app.get('/pricing/search/results.json', { ...who, query: { search_id: String(search.id) } });
  }
  await app.get('/flights/index.json', S);
  await app.get('/templates/index.json', S);
  await app.get('/cdr/cases/index.json', S);
  const tour = id('tour');
  if (tour) {
    await app.get(`/tours/view/${tour}.json`, C);
    await app.post(`/tours/edit/${tour}.json`, { ...C, json: { name: 'Monday run', date: '2031-03-10' } });
  }
  const saved = id('saved_search');
  if (saved) await app.post(`/searches/edit/${saved}.json`, { ...C, json: { name: 'Frankfurt loads', alert: 1 } });
  await app.get('/searches/index.json', C);
  // An alert to read: the carrier watches loads from Germany, then the shipper publishes one there.
  await app.post('/searches/add.json', { ...C, json: { name: 'Loads from Germany', params: { from: 'DE' }, alert: 1 } });
  const alerted = await openFreight(app, world.shipper, { from: 'city:DE-60311', to: 'airport:FRA', weight: 800, etd: '2031-03-12 08:00' });
  await app.get('/notifications/index.json', C);
  // The carrier hides that load from its market, lists what it hides, and shows it again (issue 47, item 11).
  await app.post(`/freights/hide/${alerted}.json`, C);
  await app.get('/freights/hidden.json', { ...C, query: { page: '1', limit: '20' } });
  await app.post(`/freights/unhide/${alerted}.json`, C);
  // Trust (docs/reference.md#trust): profiles, ratings after delivery, replies, blocks.
  await app.post('/companies/edit.json', {
    ...C,
    json: { country: 'DE', city: 'Leipzig', postcode: '04109', vat_id: 'DE136695976', website: 'https://carrier.example', fleet_size: 24 },
  });
  await app.get(`/companies/view/${world.carrier.company}.json`, S);
  const closed = world.freights.closed;
  if (closed !== undefined) {
    const rated = await app.post(`/companies/rate/${closed}.json`, {
      ...S,
      json: { score: 5, comment: 'On time, careful with the pallets.' },
    });
    const ratingId = rated.body?.data?.rating?.id;
    if (ratingId) await app.post(`/companies/reply/${ratingId}.json`, { ...C, json: { reply: 'Thank you, glad to drive for you again.' } });
  }
  await app.get(`/companies/ratings/${world.carrier.company}.json`, { ...S, query: { page: '1', limit: '20' } });
  const bystander = await app.company('Blocked Haulage');
  await app.post(`/companies/block/${bystander.id}.json`, S);
  await app.get('/companies/blocked.json', S);
  await app.post(`/companies/unblock/${bystander.id}.json`, S);
  await app.get('/notifications/unread.json', C);
  for (const token of [C.token, S.token]) {
    const list = await app.get('/notifications/index.json', { token });
    const first = JSON.stringify(list.body?.data ?? {}).match(/"id":(\d+)/)?.[1];
    if (first) await app.post(`/notifications/read/${first}.json`, { token });
  }
  await vehicleSpace(app, world);
  // The deal room (docs/reference.md#deal-room): the carrier's unread answer, its conversation, the documents and one download.
  if (world.freights.taken !== undefined) {
    await app.get('/messages/unread.json', C);
    await app.get(`/freights/messages/${world.freights.taken}.json`, C);
    await app.get(`/freights/documents/${world.freights.taken}.json`, S);
    const document = id('document');
    if (document) await app.get(`/freights/document/${document}`, S);
    await app.get(`/freights/order/${world.freights.taken}.json`, C);
  }
  await app.get('/webhooks/index.json', S);
  const hook = id('webhook');
  if (hook) {
    await app.post(`/webhooks/test/${hook}.json`, S);
    await app.get(`/webhooks/deliveries/${hook}.json`, S);
  }
  const milkrun = id('milkrun');
  if (milkrun) {
    for (const list of FILTER_IDS) await app.get(`/milkrun/import/short/${list}.json`, S);
    await app.post(`/milkrun/select/${milkrun}.json`, S);
    await app.post(`/milkrun/deselect/${milkrun}.json`, S);
    await app.post(`/milkrun/follow-up/${milkrun}.json`, S);
    await app.post(`/milkrun/select/${milkrun}.json`, S);
    await app.post(`/milkrun/dispatch/${milkrun}.json`, { ...S, json: { carrier: world.carrier.company } });
    await app.post(`/milkrun/deliver/${milkrun}.json`, S);
  }
  const word = world.words[0];
  if (word) await app.get(`/freights/track/${word}.json`, S);
  const shipments = await app.get('/onerecord/shipments', S);
  const object = String(shipments.text).match(/logistics-objects\/([\w-]+)/)?.[1];
  if (object) {
    await app.get(`/onerecord/logistics-objects/${object}`, S);
    const events = await app.get(`/onerecord/logistics-objects/${object}/logistics-events`, S);
    const event = String(events.text).match(/logistics-events\/([\w-]+)/)?.[1];
    if (event) await app.get(`/onerecord/logistics-objects/${object}/logistics-events/${event}`, S);
  }
  await lanePrices(app, world);
  await tracking(app, world);
  await oneStepDeals(app, world);
  await tenders(app, world);
  await app.post('/users/password.json', {
    ...S,
    json: { current_password: world.shipper.password, password: world.shipper.password, password_repeat: world.shipper.password },
  });
}

/**
 * Deals in one step (docs/reference.md#one-step): a freight booked at its Book Now price, a counter-offer
 * accepted, a waterfall offered to two carriers of which the first passes and the second books.
 */
async function oneStepDeals(app: TestApp, world: World): Promise<void> {
  const S = { token: world.shipper.token };
  const C = { token: world.carrier.token };
  const road = { from: 'city:DE-60311', to: 'city:AT-6020', weight: 8000, etd: '2031-03-05 08:00' };
  const priced = await openFreight(app, world.shipper, { ...road, book_now: '912.50', auto_award: '850.00' });
  await app.post(`/quotes/book/${priced}.json`, C);
  const countered = await openFreight(app, world.shipper, road);
  const bid = await app.post('/quotes/add.json', { ...C, json: { route: countered, amount: '1100.00', currency_code: 'EUR' } });
  const bidId = bid.body?.data?.bid?.id;
  if (bidId) {
    await app.post(`/quotes/counter/${bidId}.json`, { ...S, json: { amount: '1040.00', note: 'Our budget for this lane' } });
    await app.post(`/quotes/accept/${bidId}.json`, C);
  }
  const alpen = await app.actor('Alpen Cargo');
  const draft = await app.post('/freights/add.json', { ...S, json: road });
  const id = draft.body?.data?.id;
  if (id) {
    await app.post(`/freights/waterfall/${id}.json`, {
      ...S,
      // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
      json: { carriers: [alpen.company, world.carrier.company], price: '905.00', currency: 'EUR', minutes: 60, then: 'market' },
    });
    await app.post(`/quotes/decline/${id}.json`, { token: alpen.token });
    await app.get(`/freights/view/${id}.json`, C);
  }
}

/**
 * Lane prices (docs/reference.md#lane-prices): five road freights Frankfurt -> Paris of five shippers awarded
 * to five carriers (the world's carrier the last) this month, so that the month shows its figures
 * (no company takes part in two awards of the batch: lanes/cells.ts), then the lane asked.
 */
async function lanePrices(app: TestApp, world: World): Promise<void> {
  const owners = [world.shipper];
  const carriers = [];
  for (const name of ['Rhein', 'Main', 'Mosel', 'Lahn']) {
    owners.push(await app.actor(`${name} Logistik`));
    carriers.push(await app.actor(`${name} Haulage`));
  }
  carriers.push(world.carrier);
  let delivered: number | undefined;
  const awarded: number[] = [];
  for (const [i, amount] of ['1150.00', '1180.00', '1195.50', '1240.00', '1275.00'].entries()) {
    const owner = owners[i]!;
    const carrier = carriers[i]!;
    const freight = await openFreight(app, owner, {
      from: 'city:60311',
      from_country: 'DE',
      from_latitude: 50.1109,
      from_longitude: 8.6821,
      to: 'city:75001',
      to_country: 'FR',
      to_latitude: 48.8566,
      to_longitude: 2.3522,
      weight: 12000,
      etd: '2031-03-04 08:00',
    });
    const bid = await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount, currency_code: 'EUR' } });
    const bidId = bid.body?.data?.bid?.id;
    if (!bidId) continue;
    await app.post(`/quotes/confirm/${bidId}.json`, { token: owner.token });
    await app.post(`/quotes/confirm/${bidId}.json`, { token: carrier.token });
    awarded.push(freight);
    delivered = freight;
  }
  await app.get('/market/prices.json', { token: world.carrier.token, query: { from: 'DE-60', to: 'FR-75', months: '3' } });
  // The e-CMR of the last of them (docs/reference.md#ecmr): the carrier and the sender sign at loading, the note is read and checked.
  if (delivered !== undefined) {
    const C = { token: world.carrier.token };
    // The carrier gives plate and driver first (a new version of the order, which the unsigned note follows).
    await app.post(`/freights/order-transport/${delivered}.json`, {
      ...C,
      json: { plate: 'F-RH 1234 / F-RH 567', driver: 'Jan Kowalski', driver_phone: '+49 69 1234 567' },
    });
    await app.post(`/freights/cmr-sign/${delivered}.json`, {
      ...C,
      json: { role: 'carrier', name: 'Jan Kowalski', reservations: 'One pallet’s wrap torn' },
    });
    await app.post(`/freights/cmr-sign/${delivered}.json`, { token: owners[4]!.token, json: { role: 'sender', name: 'Anna Lahn' } });
    const cmr = (await app.get(`/freights/cmr/${delivered}.json`, C)).body?.data?.cmr;
    if (cmr) await app.get(`/cmr/verify/${cmr.number}.json`, { query: { hash: cmr.hash } });
  }
  // The one before it is delivered by its consignee through the link its carrier issued.
  const signedAtDelivery = awarded.at(-2);
  if (signedAtDelivery !== undefined) {
    const i = awarded.length - 2;
    await app.post(`/freights/cmr-sign/${signedAtDelivery}.json`, {
      token: carriers[i]!.token,
      json: { role: 'carrier', name: 'Piotr Zieliński' },
    });
    await app.post(`/freights/cmr-sign/${signedAtDelivery}.json`, {
      token: owners[i]!.token,
      json: { role: 'sender', name: 'Karl Mosel' },
    });
    const link = (await app.post(`/freights/cmr-link/${signedAtDelivery}.json`, { token: carriers[i]!.token })).body?.data?.link;
    const token = typeof link?.url === 'string' ? link.url.split('/').at(-1) : undefined;
    if (token) {
      await app.get(`/cmr/consignee/${token}.json`, { query: { lang: 'deu' } });
      await app.post(`/cmr/consignee/${token}.json`, { json: { name: 'Marie Dubois', reservations: 'Palette 2: Folie eingerissen' } });
    }
  }
  // The carrier delivers the last of them with its proof of delivery (a small PDF).
  if (delivered !== undefined) {
    const pod = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
    await app.post(`/freights/pod/${delivered}.json`, {
      token: world.carrier.token,
      json: { name: 'POD signed.pdf', content: pod.toString('base64') },
    });
  }
}

/**
 * Lane tenders (docs/reference.md#tenders): the shipper tenders two lanes to the carrier, which bids; past
 * the deadline the shipper reads every bid and awards; both read their contracts; a draft on the
 * contract lane goes down the routing guide (a waterfall with `guide` = 1). The clock returns after.
 */
async function tenders(app: TestApp, world: World): Promise<void> {
  const S = { token: world.shipper.token };
  const C = { token: world.carrier.token };
  const now = app.services.clock.now();
  const other = await app.actor('Spedition Nord');
  const made = await app.post('/tenders/add.json', {
    ...S,
    json: {
      name: 'Road lanes 2031/32',
      valid_from: '2031-04-01',
      valid_to: '2032-03-31',
      deadline: '2031-03-15 12:00',
      currency: 'EUR',
      invited: [world.carrier.company, other.company],
      lanes: [
        { from: 'DE-60', to: 'FR-75', loads: 12, weight: 24000, body: 'tautliner' },
        { from: 'DE-8', to: 'IT-20', loads: 4, body: 'reefer', note: 'ramp 3, slot booking' },
      ],
    },
  });
  const tender = made.body?.data?.tender;
  if (!tender) return;
  await app.post(`/tenders/publish/${tender.id}.json`, S);
  await app.get('/tenders/index.json', C);
  await app.post(`/tenders/bid/${tender.id}.json`, {
    ...C,
    json: {
      bids: tender.lanes.map((l: { id: number }, i: number) => ({ lane: l.id, price: i === 0 ? '1180.00' : '1420.50', capacity: 10 })),
    },
  });
  await app.post(`/tenders/bid/${tender.id}.json`, {
    token: other.token,
    json: { bids: [{ lane: tender.lanes[0].id, price: '1265.00', capacity: 6 }] },
  });
  await app.get(`/tenders/view/${tender.id}.json`, C);
  app.setNow(new Date('2031-03-16T09:00:00Z'));
  await app.tenders.sweep();
  await app.get(`/tenders/view/${tender.id}.json`, S);
  await app.post(`/tenders/award/${tender.id}.json`, {
    ...S,
    json: { awards: [{ lane: tender.lanes[0].id, company: world.carrier.company, rank: 1 }] },
  });
  await app.get('/contracts/index.json', C);
  const draft = await app.post('/freights/add.json', {
    ...S,
    json: { from: 'city:DE-60311', to: 'city:FR-75001', weight: 8000, etd: '2031-05-05 08:00', from_addr: 'Dock 1', to_addr: 'Dock 2' },
  });
  const id = draft.body?.data?.id;
  // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
  if (id) await app.post(`/freights/waterfall/${id}.json`, { ...S, json: { guide: 1, minutes: 60, then: 'market' } });
  app.setNow(now);
}

/**
 * Tracking by permission (docs/reference.md#tracking): a road freight Frankfurt -> Paris of the shipper awarded
 * to the carrier, whose delivery window ends within the hour: the carrier's positions at the pickup
 * and leaving it (milestones; the ETA after the window: late), both parties' reads, the driver's
 * link, a position from it, the link revoked.
 */
async function tracking(app: TestApp, world: World): Promise<void> {
  const S = { token: world.shipper.token };
  const C = { token: world.carrier.token };
  const stamp = (ms: number) => app.services.clock.format(new Date(app.services.clock.now().getTime() + ms))!;
  const freight = await openFreight(app, world.shipper, {
    from: 'city:60311',
    from_country: 'DE',
    from_latitude: 50.1109,
    from_longitude: 8.6821,
    to: 'city:75001',
    to_country: 'FR',
    to_latitude: 48.8566,
    to_longitude: 2.3522,
    weight: 8000,
    etd: stamp(-3 * 3_600_000),
    eta: stamp(0),
    eta_end: stamp(3_600_000),
  });
  const bid = (await app.post('/quotes/add.json', { ...C, json: { route: freight, amount: '980.00', currency_code: 'EUR' } })).body?.data
    ?.bid?.id;
  if (!bid) return;
  await app.post(`/quotes/confirm/${bid}.json`, S);
  await app.post(`/quotes/confirm/${bid}.json`, C);
  await app.post(`/freights/positions/${freight}.json`, {
    ...C,
    json: {
      positions: [
        { latitude: 50.1112, longitude: 8.6824, at: stamp(-40 * 60_000), speed: 0 },
        { latitude: 50.0901, longitude: 8.5502, at: stamp(-20 * 60_000), speed: 62.5 },
        { latitude: 50.0412, longitude: 8.2313, at: stamp(-60_000), speed: 81 },
      ],
    },
  });
  await app.get(`/freights/positions/${freight}.json`, S);
  await app.get(`/freights/positions/${freight}.json`, C);
  const url = (await app.post(`/freights/tracking-link/${freight}.json`, C)).body?.data?.link?.url;
  const token = typeof url === 'string' ? url.split('/driver/')[1] : undefined;
  if (token)
    await app.post(`/driver/${token}.json`, { json: { positions: [{ latitude: 50.0213, longitude: 8.0102, at: stamp(0), speed: 84 }] } });
  await app.post(`/freights/tracking-link-revoke/${freight}.json`, C);
}

/** Vehicle space (docs/reference.md#vehicles): the carrier's offer, a fitting freight of the shipper, matching both ways, the invitation. */
async function vehicleSpace(app: TestApp, world: World): Promise<void> {
  const S = { token: world.shipper.token };
  const C = { token: world.carrier.token };
  const offer = {
    from: 'city:60311',
    from_country: 'DE',
    from_radius: 100,
    to: 'DE',
    available_from: '2031-03-03 06:00:00',
    available_to: '2031-03-05 18:00:00',
    body: 'tautliner',
    capacity: 24000,
    loading_meters: 13.6,
    price_per_km: 1.1,
    adr: 1,
    note: 'Tail lift',
  };
  const vehicle = (await app.post('/vehicles/add.json', { ...C, json: offer })).body?.data?.vehicle?.id;
  const lane = (
    await app.post('/freights/add.json', {
      ...S,
      json: {
        from: 'city:60311',
        from_country: 'DE',
        from_latitude: 50.1109,
        from_longitude: 8.6821,
        to: 'city:20095',
        to_country: 'DE',
        weight: 12000,
        etd: '2031-03-04 08:00',
        // The load described as trucks are (docs/choices.md, "Loads described as trucks are"): what matching reads.
        body: 'tautliner',
        loading_meters: 9.6,
        adr_class: '3',
        pallet_exchange: 1,
        refs: { customer: 'PO-4712' },
      },
    })
  ).body?.data?.id;
  if (lane)
    await app.post(`/freights/view/${lane}.json`, {
      ...S,
      json: { action: 'publish', visibility: -2, whitelist: [world.carrier.company] },
    });
  if (!vehicle) return;
  await app.get(`/vehicles/view/${vehicle}.json`, S);
  await app.get('/vehicles/index.json', { ...S, query: { from_near: '50.11,8.68', from_radius: '50', pickup_from: '2031-03-04' } });
  await app.get('/vehicles/mine.json', C);
  await app.get(`/vehicles/matches/${vehicle}.json`, C);
  if (lane) {
    await app.get(`/freights/vehicles/${lane}.json`, S);
    await app.post(`/vehicles/invite/${vehicle}.json`, { ...S, json: { freight: lane } });
  }
  await app.post(`/vehicles/edit/${vehicle}.json`, { ...C, json: { capacity: 22000 } });
  const spare = (await app.post('/vehicles/add.json', { ...C, json: { ...offer, note: 'Second truck' } })).body?.data?.vehicle?.id;
  if (spare) await app.post(`/vehicles/withdraw/${spare}.json`, C);
}

const FILTER_IDS = [
  8, 2, 6, 7, 9, 10, 12, 17, 18, 19, 20, 51, 52, 53, 70, 71, 72, 73, 74, 75, 78, 80, 81, 82, 83, 84, 200, 201, 209, 210, 211, 219,
];

/**
 * Every operation still without an example: asked by each party with the world's ids, the GETs
 * first, then the POSTs that take no body (deletions last of all, so the records stay for the others).
 */
async function sweep(app: TestApp, world: World, doc: Json, recorded: Examples): Promise<void> {
  const tokens = [world.shipper.token, world.carrier.token];
  const ids = [...new Set(world.ids.map((i) => i.id))].map(String);
  const order = (o: { method: string; path: string }) => (o.method === 'get' ? 0 : o.path.includes('delete') ? 2 : 1);
  const pending = operationsOf(doc)
    .filter((o) => o.method === 'get' || !o.op.requestBody)
    .sort((a, b) => order(a) - order(b));
  for (const o of pending) {
    if (recorded[o.id]) continue;
    const names = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const candidates = (name: string): string[] =>
      name === 'filterId'
        ? FILTER_IDS.map(String)
        : name === 'query'
          ? world.words
          : name === 'companyId'
            ? [String(world.carrier.company)]
            : name === 'type'
              ? ['origin', 'destination']
              : ids;
    let urls = [o.path];
    for (const name of names) urls = urls.flatMap((u) => candidates(name).map((v) => u.replace(`{${name}}`, encodeURIComponent(v))));
    for (const url of urls.slice(0, 60)) {
      for (const token of tokens) {
        if (!recorded[o.id]) await app.request(o.method.toUpperCase(), url, { token });
      }
      if (recorded[o.id]) break;
    }
  }
}
