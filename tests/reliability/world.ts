import { randomBytes } from 'node:crypto';
import { sweepExpiredFreights } from '../../src/freights/lifecycle.ts';
import type { Endpoint } from '../../src/kernel/route.tsx';
import type { Actor, ApiResponse, TestApp } from '../support/harness.ts';

/**
 * A small exchange built through the API, with something of every kind the API has an id for:
 * freights in every state, bids, booking requests, templates, flights, rate sheets and their
 * lines, searches, files, milk-run shipments, cases, tours (and saved searches, webhooks and
 * the deal room's messages and documents when the route table has them), and with them the
 * events of a freight's and a bid's life (a bid changed, a deadline passed: `bid.updated`,
 * `freight.expired`; the recorded event examples of the API description come from here). Every
 * text the owners typed carries a distinctive marker, so a test can tell whether an answer to
 * someone else contains any of it.
 */
export interface World {
  shipper: Actor;
  carrier: Actor;
  /** Every id of the world by kind (`freight:taken`, `bid:pending`, `case`, …). */
  ids: Array<{ kind: string; id: number }>;
  /** Texts that belong to the world's companies: names, refs, addresses, notes, prices. */
  secrets: string[];
  /** AWBs and postal zones: the world's free-text path values (tracking, autocomplete). */
  words: string[];
  /** Freight ids by state name, as listed in `ids`. */
  freights: Record<string, number>;
}

export interface WorldOptions {
  /** A company that bids on an open market freight which the carrier then wins: it sees it masked. */
  bystander?: Actor;
  /** The route table, to add the optional kinds (saved searches, webhooks) when they exist. */
  endpoints?: readonly Endpoint[];
}

const hex = () => randomBytes(4).toString('hex');

export function expectSuccess(res: ApiResponse, what: string): any {
  if (res.status !== 200 || res.body?.status !== 'success') throw new Error(`${what}: ${res.status} ${res.text.slice(0, 500)}`);
  return res.body.data;
}

function expectRedirect(res: ApiResponse, what: string): void {
  if (res.status !== 302) throw new Error(`${what}: expected 302, got ${res.status} ${res.text.slice(0, 300)}`);
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export async function buildWorld(app: TestApp, options: WorldOptions = {}): Promise<World> {
  const tag = `zq${hex()}`;
  const shipper = await app.actor(`Shipper ${tag}s`);
  const carrier = await app.actor(`Carrier ${tag}c`);
  const ids: World['ids'] = [];
  const freights: Record<string, number> = {};
  // (The shipper's name is no secret: its market freights carry `_company` to every company.)
  const secrets = [carrier.companyName, shipper.email, carrier.email];
  const S = { token: shipper.token };
  const C = { token: carrier.token };
  let n = 0;
  // A distinctive text per field (markers never repeat, so a hit names its origin).
  const secret = (what: string) => {
    const s = `${tag}${what}${++n}`;
    secrets.push(s);
    return s;
  };
  // Distinctive money: 8 significant digits no other test value has.
  const money = () => {
    const m = `${70000 + Math.floor(Math.random() * 9000)}.${String(10 + Math.floor(Math.random() * 89))}`;
    secrets.push(m);
    return m;
  };

  const newFreight = async (market = false): Promise<number> => {
    const json: Record<string, unknown> = {
      from: 'airport:FRA',
      to: 'city:60311',
      to_country: 'DE',
      weight: 1250.5,
      pieces: [{ pieces: 2, depth: 120, width: 80, height: 100 }],
      from_addr: secret('fromaddr'),
      to_addr: secret('toaddr'),
      refs: { customer: secret('customer'), commodity: secret('commodity') },
    };
    // Fields a market viewer may see carry no marker on market freights.
    if (!market) json.category = secret('category');
    return expectSuccess(await app.post('/freights/add.json', { ...S, json }), 'freight add').id;
  };
  const publish = async (id: number, json: Record<string, unknown>) =>
    expectRedirect(
      await app.post(`/freights/view/${id}.json`, { ...S, json: { action: 'publish', deadline: '+30 days', ...json } }),
      'publish',
    );
  const restricted = { visibility: -2, whitelist: [carrier.company] };
  const bid = async (freight: number, who: Actor = carrier): Promise<{ id: number; amount: string }> => {
    const amount = money();
    const data = expectSuccess(
      await app.post('/quotes/add.json', {
        token: who.token,
        json: { route: freight, amount, currency_code: 'EUR', note: secret('note') },
      }),
      'bid',
    );
    return { id: data.bid.id, amount };
  };
  const confirm = (bidId: number, who: Actor) => app.post(`/quotes/confirm/${bidId}.json`, { token: who.token });
  const add = (kind: string, id: number) => ids.push({ kind, id });
  const freight = (state: string, id: number) => {
    freights[state] = id;
    add(`freight:${state}`, id);
  };

  freight('draft', await newFreight());

  let id = await newFreight();
  await publish(id, restricted);
  freight('open', id);
  const open = await bid(id);
  add('bid:open', open.id);
  // The carrier changes its open bid (`bid.updated`).
  expectSuccess(
    await app.post('/quotes/add.json', {
      ...C,
      json: { id: open.id, route: id, amount: money(), currency_code: 'EUR', note: secret('note') },
    }),
    'bid update',
  );

  id = await newFreight();
  await publish(id, restricted);
  let b = await bid(id);
  expectRedirect(await confirm(b.id, shipper), 'confirm (shipper)');
  freight('pending', id);
  add('bid:pending', b.id);

  const awarded = async (): Promise<number> => {
    const fid = await newFreight();
    await publish(fid, restricted);
    const won = await bid(fid);
    const lost = await bid(fid);
    expectRedirect(await confirm(won.id, shipper), 'confirm (shipper)');
    expectSuccess(await confirm(won.id, carrier), 'confirm (carrier)');
    add('bid:accepted', won.id);
    add('bid:lost', lost.id);
    return fid;
  };
  freight('taken', await awarded());
  id = await awarded();
  expectSuccess(await app.post(`/freights/delivery/${id}.json`, { ...C, json: { delivery_status: 3 } }), 'delivered');
  freight('closed', id);
  id = await awarded();
  expectSuccess(await app.post(`/freights/delivery/${id}.json`, { ...C, json: { delivery_status: 3 } }), 'delivered');
  expectSuccess(await app.post(`/freights/archive/${id}.json`, S), 'archive');
  freight('archived', id);

  id = await newFreight();
  await publish(id, restricted);
  b = await bid(id);
  expectSuccess(await app.post(`/quotes/revoke/${b.id}.json`, C), 'bid revoke');
  add('bid:revoked', b.id);
  expectSuccess(await app.post(`/freights/revoke/${id}.json`, S), 'freight revoke');
  freight('revoked', id);

  id = await newFreight();
  await publish(id, restricted);
  add('bid:expired', (await bid(id)).id);
  // The deadline passed (time is not the API's to move); the server's expiry sweep writes the
  // expiry and its `freight.expired` event, as it does while the server listens.
  await app.services.db
    .updateTable('freights')
    .set({ deadline: new Date(app.services.clock.now().getTime() - 60_000) })
    .where('id', '=', id)
    .execute();
  await sweepExpiredFreights(app.services.db, app.services.clock);
  freight('expired', id);

  // On the market (every company may see it, masked parts aside); a bystander's bid loses.
  id = await newFreight(true);
  await publish(id, {});
  freight('market', id);
  if (options.bystander) {
    const market = await newFreight(true);
    await publish(market, {});
    expectSuccess(
      await app.post('/quotes/add.json', { token: options.bystander.token, json: { route: market, amount: '10', currency_code: 'EUR' } }),
      'bystander bid',
    );
    const won = await bid(market);
    expectRedirect(await confirm(won.id, shipper), 'confirm (shipper)');
    expectSuccess(await confirm(won.id, carrier), 'confirm (carrier)');
    freight('market_lost', market);
  }

  // Rates: a private sheet (its zone and prices are secrets) and one on the exchange.
  const zone = `LI-${9400 + Math.floor(Math.random() * 99)}`;
  const privateCsv = `origin,destination,transit_days,min_charge,kg_100,kg_1000,fsc_pct,ssc_per_kg,uld_price\ncity:${zone},airport:FRA,1,${money()},0.40,0.30,12.5,0.05,\n`;
  const sheet = expectSuccess(
    await app.post('/files/push.json', {
      ...C,
      json: { encoding: 'base64', content: b64(privateCsv), name: `${secret('sheet')}.csv`, action: 'rates', visibility: 'private' },
    }),
    'private rates',
  ).file;
  add('file', sheet.id);
  const exchangeCsv =
    'origin,destination,transit_days,min_charge,kg_100,kg_1000,fsc_pct,ssc_per_kg,uld_price\ncity:DE-60,airport:FRA,1,45.00,0.40,0.30,12.5,0.05,\n';
  add(
    'file',
    expectSuccess(
      await app.post('/files/push.json', {
        ...C,
        json: { encoding: 'base64', content: b64(exchangeCsv), name: 'exchange.csv', action: 'rates' },
      }),
      'rates',
    ).file.id,
  );
  const rateRows = await app.services.db
    .selectFrom('rate_lines')
    .innerJoin('rate_sheets', 'rate_sheets.id', 'rate_lines.sheet_id')
    .select(['rate_lines.id', 'rate_sheets.visibility'])
    .where('rate_sheets.company_id', '=', carrier.company)
    .execute();
  for (const r of rateRows) add(`rate:${r.visibility}`, r.id);
  const sheets = await app.services.db
    .selectFrom('rate_sheets')
    .select(['id', 'visibility'])
    .where('company_id', '=', carrier.company)
    .execute();
  for (const s of sheets) add(`sheet:${s.visibility}`, s.id);

  // The carrier's own search of its private zone, and the shipper's search with feedback.
  const own = expectSuccess(
    await app.post('/pricing/search/results.json', {
      ...C,
      json: { origin: `city:${zone}11`, destination: 'airport:FRA', weight: 4321.987 },
    }),
    'search',
  );
  add('search', own.searchEntity.id);
  secrets.push('4321.987');
  const search = expectSuccess(
    await app.post('/pricing/search/results.json', { ...S, json: { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 512 } }),
    'search',
  );
  add('search', search.searchEntity.id);
  const rateId = search.rates[0]?.id;
  if (!rateId) throw new Error(`the exchange sheet was not found: ${JSON.stringify(search)}`);
  add(
    'feedback',
    expectSuccess(
      await app.post('/pricing/search/rate-search.json', { ...S, json: { search_id: search.searchEntity.id, rating: 1, rate_id: rateId } }),
      'feedback',
    ).feedback.id,
  );

  // Booking requests: from a rate, to a company directly, from a flight (flights are public).
  add(
    'freight:booking',
    expectSuccess(
      await app.post(`/freights/request/rate/${rateId}.json`, { ...S, json: { weight: 300, refs: { customer: secret('booking') } } }),
      'booking',
    ).route.id,
  );
  add(
    'freight:direct',
    expectSuccess(
      await app.post(`/freights/request/direct/${carrier.company}.json`, {
        ...S,
        json: { weight: 300, refs: { customer: secret('direct') } },
      }),
      'direct',
    ).route.id,
  );
  const flight = expectSuccess(
    await app.post('/flights/add.json', {
      ...C,
      json: { from: 'FRA', to: 'AMS', etd: '2031-05-04 08:00', eta: '2031-05-04 09:10', flight_number: 'ZQ123' },
    }),
    'flight',
  ).flight;
  add('flight', flight.id);
  add(
    'freight:flight_booking',
    expectSuccess(
      await app.post(`/freights/request/flight/${flight.id}.json`, {
        ...S,
        json: { weight: 300, refs: { customer: secret('flightbooking') } },
      }),
      'flight booking',
    ).route.id,
  );

  // Template, and a freight created from it (taken, own company carries).
  const template = expectSuccess(
    await app.post('/templates/add.json', {
      ...S,
      json: { name: secret('template'), from: 'airport:FRA', to: 'airport:AMS', weight: 10, refs: { customer: secret('tplref') } },
    }),
    'template',
  ).template;
  add('template', template.id);
  add(
    'freight:from_template',
    expectSuccess(await app.post('/freights/create-from-template.json', { ...S, json: { template_id: template.id } }), 'from template')
      .route_id,
  );

  // Status events: milk-run shipments of the shipper, a file.
  const awb1 = `176-${String(1000000 + Math.floor(Math.random() * 8000000)).slice(0, 7)}`;
  const awbs = [0, 1].map((i) => {
    const serial = String(Number(awb1.slice(4)) + i).padStart(7, '0');
    return `176-${serial}${Number(serial) % 7}`;
  });
  const statusCsv = [
    'awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location',
    `${awbs[0]},RCF,2031-03-02 06:10,FRA,ZQ9901,4,1250.25,PER,${secret('wh')}`,
    `${awbs[1]},NFD,2031-03-02 09:00,FRA,,,,,${secret('wh')}`,
  ].join('\n');
  add(
    'file',
    expectSuccess(
      await app.post('/files/push.json', {
        ...S,
        json: { encoding: 'base64', content: b64(statusCsv), name: `${secret('status')}.csv`, action: 'status' },
      }),
      'status push',
    ).file.id,
  );
  for (const r of await app.services.db.selectFrom('milkrun_shipments').select('id').where('company_id', '=', shipper.company).execute())
    add('milkrun', r.id);

  // A case linking the taken freight; a tour of the carrier's won orders.
  const kase = expectSuccess(await app.post('/cdr/cases/add.json', { ...S, json: { name: secret('case') } }), 'case').case;
  add('case', kase.id);
  expectSuccess(await app.post(`/cdr/cases/link/${kase.id}.json`, { ...S, json: { route_id: freights.taken } }), 'case link');
  const tour = expectSuccess(
    await app.post('/tours/add.json', { ...C, json: { name: secret('tour'), date: '2031-03-09', route_ids: [freights.taken] } }),
    'tour',
  ).tour;
  add('tour', tour.id);

  // Kinds other engineers add: created when their endpoints exist.
  const has = (method: string, path: string) =>
    (options.endpoints ?? []).some((e) => e.spec.path === path && [e.spec.method].flat().includes(method as never));
  if (has('POST', '/searches/add')) {
    const saved = await app.post('/searches/add.json', {
      ...C,
      json: { name: secret('saved'), filter: 8, params: { q: secret('savedq') }, alert: 1 },
    });
    if (saved.body?.data?.search?.id) add('saved_search', saved.body.data.search.id);
  }
  if (has('POST', '/webhooks/add')) {
    const hook = await app.post('/webhooks/add.json', { ...S, json: { url: `http://127.0.0.1:9/${secret('hook')}`, events: ['*'] } });
    if (hook.body?.data?.webhook?.id) add('webhook', hook.body.data.webhook.id);
  }
  if (has('POST', '/freights/messages/:freightId')) {
    // The deal room of the taken freight: a message each way, the carrier's document (and the transport order).
    const taken = freights.taken!;
    const said = await app.post(`/freights/messages/${taken}.json`, { ...C, json: { text: secret('message') } });
    add('message', expectSuccess(said, 'message').message.id);
    const answered = await app.post(`/freights/messages/${taken}.json`, {
      ...S,
      json: { text: secret('answer'), company: carrier.company },
    });
    add('message', expectSuccess(answered, 'answer').message.id);
    const pdf = Buffer.from(`%PDF-1.4\n% ${secret('pdf')}\n%%EOF\n`).toString('base64');
    const doc = await app.post(`/freights/documents/${taken}.json`, {
      ...C,
      json: { kind: 'pod', name: `${secret('document')}.pdf`, content: pdf },
    });
    add('document', expectSuccess(doc, 'document').document.id);
  }
  add('company', shipper.company);
  add('company', carrier.company);
  add('user', shipper.user);
  add('user', carrier.user);
  return { shipper, carrier, ids, secrets, words: [...awbs, zone, `city:${zone}`], freights };
}
