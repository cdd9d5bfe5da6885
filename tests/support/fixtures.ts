import assert from 'node:assert/strict';
import { startTestApp, type Actor, type TestApp, type TestAppOptions } from './harness.ts';

/**
 * What most suites start from, written once: the actors (a shipper, a carrier, and one who takes
 * no part), a published freight, an award, a delivered freight. Each goes through the API as a
 * client would, and asserts each step, so a suite that starts from one fails where the exchange
 * went wrong, not later.
 *
 *   let app: TestApp;
 *   let shipper: Actor, carrier: Actor, outsider: Actor;
 *   before(async () => ({ app, shipper, carrier, outsider } = await startWorld()));
 *   after(() => app.close());
 */

/** Two companies that deal with each other: the freight's owner and the carrier. */
export interface Pair {
  app: TestApp;
  /** company `Shipper`, created first */
  shipper: Actor;
  /** company `Carrier`, created second */
  carrier: Actor;
}

/** The pair and a company that takes no part (it may see the market, never their deal). */
export interface World extends Pair {
  /** company `Outsider`, created third */
  outsider: Actor;
}

/** An app with `Shipper` and `Carrier` (in that order; a suite creates its further actors after them). */
export async function startPair(options: TestAppOptions = {}): Promise<Pair> {
  const app = await startTestApp(options);
  const shipper = await app.actor('Shipper');
  const carrier = await app.actor('Carrier');
  return { app, shipper, carrier };
}

/** An app with `Shipper`, `Carrier` and `Outsider` (in that order). */
export async function startWorld(options: TestAppOptions = {}): Promise<World> {
  const pair = await startPair(options);
  return { ...pair, outsider: await pair.app.actor('Outsider') };
}

/**
 * An app with the actors named, created in that order, for a suite whose cast is not the world's:
 *   ({ app, actors: [owner, carrierA] } = await startWith(['Owner', 'CarrierA']));
 */
export async function startWith<const Names extends readonly string[]>(
  names: Names,
  options: TestAppOptions = {},
): Promise<{ app: TestApp; actors: { -readonly [K in keyof Names]: Actor } }> {
  const app = await startTestApp(options);
  const actors: Actor[] = [];
  for (const name of names) actors.push(await app.actor(name));
  return { app, actors: actors as { -readonly [K in keyof Names]: Actor } };
}

/** The freight fields a fixture sends unless told otherwise: Frankfurt airport to a Frankfurt postal code, 100 kg. */
export const FREIGHT = { from: 'airport:FRA', to: 'city:60311', weight: 100 } as const;

/** A draft of `owner` (POST /freights/add.json); answers its id. */
export async function draftFreight(app: TestApp, owner: Actor, fields: Record<string, unknown> = {}, query = ''): Promise<number> {
  const res = await app.post(`/freights/add.json${query}`, { token: owner.token, json: { ...FREIGHT, ...fields } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data.id as number;
}

/** A freight of `owner` in the market: created and published (the publish answers 302, as always). */
export async function publishedFreight(
  app: TestApp,
  owner: Actor,
  fields: Record<string, unknown> = {},
  publish: Record<string, unknown> = {},
): Promise<number> {
  const id = await draftFreight(app, owner, fields);
  const res = await app.post(`/freights/view/${id}.json`, { token: owner.token, json: { action: 'publish', ...publish } });
  assert.equal(res.status, 302, res.text);
  return id;
}

/** A bid of `carrier` on a freight (POST /quotes/add.json); answers the bid as the API shows it. */
export async function bidOn(
  app: TestApp,
  carrier: Actor,
  freight: number,
  amount = '950.00',
): Promise<{ id: number } & Record<string, unknown>> {
  const res = await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount, currency_code: 'EUR' } });
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data.bid;
}

/** Awards a bid: the owner confirms (302), then the bidder (success): the freight is taken. */
export async function confirmBoth(app: TestApp, owner: Actor, carrier: Actor, bid: number): Promise<void> {
  const first = await app.post(`/quotes/confirm/${bid}.json`, { token: owner.token });
  assert.equal(first.status, 302, first.text);
  const second = await app.post(`/quotes/confirm/${bid}.json`, { token: carrier.token });
  assert.equal(second.body.status, 'success', second.text);
}

/** A published freight of `owner` awarded to `carrier` at `amount` (bid, both confirmations): status taken. */
export async function awardedFreight(
  app: TestApp,
  owner: Actor,
  carrier: Actor,
  fields: Record<string, unknown> = {},
  amount = '950.00',
): Promise<{ id: number; bid: number }> {
  const id = await publishedFreight(app, owner, fields);
  const bid = await bidOn(app, carrier, id, amount);
  await confirmBoth(app, owner, carrier, bid.id);
  return { id, bid: bid.id };
}

/** An awarded freight the carrier delivered (delivery_status 3): status closed. Answers its id. */
export async function deliveredFreight(app: TestApp, owner: Actor, carrier: Actor, fields: Record<string, unknown> = {}): Promise<number> {
  const { id } = await awardedFreight(app, owner, carrier, fields);
  const res = await app.post(`/freights/delivery/${id}.json`, { token: carrier.token, json: { delivery_status: 3 } });
  assert.equal(res.body.status, 'success', res.text);
  assert.equal(res.body.data.route.status, 'closed');
  return id;
}

/**
 * The cross-border deal of the page suites (the transport order, the e-CMR, the deal room): a
 * furniture house in Köln sends a load to Łódź. The freight's places, with their addresses.
 */
export const KOELN_TO_LODZ = {
  from: 'city:50667',
  from_country: 'DE',
  from_addr: 'Domstraße 3, Köln',
  to: 'city:90-001',
  to_country: 'PL',
  to_addr: 'ul. Piotrkowska 5, Łódź',
} as const;

/** Its two companies in one language: `Möbelhaus Rhein <suffix>` (the shipper), then `Przewozy Łódź <suffix>` (the carrier). */
export async function crossBorderPair(app: TestApp, language: string, suffix: string): Promise<{ shipper: Actor; carrier: Actor }> {
  const shipper = await app.actor(`Möbelhaus Rhein ${suffix}`, { language });
  const carrier = await app.actor(`Przewozy Łódź ${suffix}`, { language });
  return { shipper, carrier };
}

/** A deal of the page suites: its two companies and the shipper's freight. */
export interface Deal {
  shipper: Actor;
  carrier: Actor;
  freight: number;
}

/**
 * One cross-border deal per case (a language and a viewport), each with companies of its own:
 * the pair named `suffix(case)` in the case's language, then the freight `freight` makes of it
 * (published, or awarded too). Answered by `<language>-<width>`, in the cases' order.
 */
export async function crossBorderDeals<C extends readonly [string, { width: number }]>(
  app: TestApp,
  cases: readonly C[],
  suffix: (c: C) => string,
  freight: (pair: { shipper: Actor; carrier: Actor }, c: C) => Promise<number>,
): Promise<Map<string, Deal>> {
  const deals = new Map<string, Deal>();
  for (const c of cases) {
    const pair = await crossBorderPair(app, c[0], suffix(c));
    deals.set(`${c[0]}-${c[1].width}`, { ...pair, freight: await freight(pair, c) });
  }
  return deals;
}
