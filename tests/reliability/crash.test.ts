import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_DB } from '../support/databases.ts';
import { serverDatabase, startServer, type ServerActor, type ServerDatabase, type ServerProcess } from './server-process.ts';

/**
 * Crash test: a real server process is killed with SIGKILL while clients create, publish, bid
 * and confirm; after each restart everything it acknowledged (a 2xx, or the contract's 302 on
 * publish and on the first confirmation) is there, and no freight was ever awarded twice.
 * Several cycles on the engine under test; bounded in time (no fixed sleeps beyond the kill point).
 */

const CYCLES = 3;
const CLIENTS = 6;

interface BidEntry {
  id: number;
  bidder: ServerActor;
  amount: string;
  ownerConfirmed: boolean;
}
interface FreightEntry {
  id: number;
  tag: string;
  published: boolean;
  bids: BidEntry[];
  /** Bids whose award the server acknowledged (200 on the second confirmation). */
  awards: number[];
}

let database: ServerDatabase;
let shipper: ServerActor;
let carriers: ServerActor[];
let server: ServerProcess | undefined;
const ledger = new Map<number, FreightEntry>();

before(async () => {
  database = await serverDatabase(['Shipper', 'CarrierA', 'CarrierB']);
  [shipper, ...carriers] = database.actors as [ServerActor, ...ServerActor[]];
});
after(async () => {
  await server?.kill('SIGKILL');
  await database.drop();
});

interface Answer {
  status: number;
  body: any;
}

/** One call; a network failure (the server died) is `null`: not acknowledged. */
async function call(base: string, method: string, path: string, who: ServerActor, json?: unknown): Promise<Answer | null> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      redirect: 'manual',
      headers: { authorization: `TokenPass ${who.token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let body: any = null;
    try {
      body = JSON.parse(text);
    } catch {
      /* 302 stubs */
    }
    return { status: res.status, body };
  } catch {
    return null;
  }
}

const cents = (v: unknown) => Number(v).toFixed(2);

/** create → publish → two bids → the owner confirms both → both carriers confirm (one award). */
async function exchangeFlow(base: string, tag: string, stats: { acks: number; awards: number }): Promise<boolean> {
  const add = await call(base, 'POST', '/freights/add.json', shipper, {
    from: 'airport:FRA',
    to: 'city:60311',
    to_country: 'DE',
    weight: 1000,
    refs: { customer: tag },
  });
  if (add?.status !== 200 || add.body?.status !== 'success') return false;
  const freight: FreightEntry = { id: add.body.data.id, tag, published: false, bids: [], awards: [] };
  ledger.set(freight.id, freight);
  stats.acks++;
  const pub = await call(base, 'POST', `/freights/view/${freight.id}.json`, shipper, { action: 'publish', deadline: '+30 days' });
  if (pub?.status !== 302) return false;
  freight.published = true;
  stats.acks++;
  await Promise.all(
    carriers.map(async (carrier, i) => {
      const amount = `${100 + freight.id}.${10 + i * 11}`;
      const res = await call(base, 'POST', '/quotes/add.json', carrier, { route: freight.id, amount, currency_code: 'EUR' });
      if (res?.status === 200 && res.body?.status === 'success') {
        freight.bids.push({ id: res.body.data.bid.id, bidder: carrier, amount, ownerConfirmed: false });
        stats.acks++;
      }
    }),
  );
  if (freight.bids.length === 0) return false;
  await Promise.all(
    freight.bids.map(async (bid) => {
      const res = await call(base, 'POST', `/quotes/confirm/${bid.id}.json`, shipper);
      if (res?.status === 302) {
        bid.ownerConfirmed = true;
        stats.acks++;
      }
    }),
  );
  // The carriers race to confirm: exactly one award may be acknowledged.
  await Promise.all(
    freight.bids.map(async (bid) => {
      const res = await call(base, 'POST', `/quotes/confirm/${bid.id}.json`, bid.bidder);
      if (res?.status === 200 && res.body?.status === 'success') {
        freight.awards.push(bid.id);
        stats.acks++;
        stats.awards++;
      }
    }),
  );
  return true;
}

/** Everything acknowledged is there; at most one award per freight, and it is the acknowledged one. */
async function verify(base: string): Promise<string[]> {
  const problems: string[] = [];
  for (const f of ledger.values()) {
    if (f.awards.length > 1) problems.push(`freight ${f.id}: ${f.awards.length} awards acknowledged (bids ${f.awards.join(', ')})`);
    const res = await call(base, 'GET', `/freights/view/${f.id}.json`, shipper);
    const route = res?.body?.data?.route;
    if (res?.status !== 200 || !route) {
      problems.push(`freight ${f.id} (acknowledged) is gone: ${res?.status}`);
      continue;
    }
    if (route.refs?.customer !== f.tag) problems.push(`freight ${f.id}: refs ${JSON.stringify(route.refs)} instead of ${f.tag}`);
    if (f.published && route.status === 'draft') problems.push(`freight ${f.id}: published (302) but draft again`);
    const bids: any[] = Array.isArray(route._bids) ? route._bids : [];
    if (f.published && !Array.isArray(route._bids)) problems.push(`freight ${f.id}: status ${route.status} shows no bids`);
    const accepted = bids.filter((b) => b.status === 'accepted');
    if (accepted.length > 1) problems.push(`freight ${f.id}: ${accepted.length} accepted bids`);
    if ((route.status === 'taken') !== (accepted.length === 1))
      problems.push(`freight ${f.id}: status ${route.status} with ${accepted.length} accepted bids`);
    for (const b of f.bids) {
      const found = bids.find((x) => x.id === b.id);
      if (!found) {
        problems.push(`freight ${f.id}: acknowledged bid ${b.id} is gone`);
        continue;
      }
      if (cents(found.amount) !== cents(b.amount)) problems.push(`bid ${b.id}: amount ${found.amount} instead of ${b.amount}`);
      // A confirmation the server acknowledged holds until an award returns it to open.
      if (b.ownerConfirmed && route.status !== 'taken' && found.status !== 'pending')
        problems.push(`bid ${b.id}: confirmed by the owner (302) but ${found.status} on a ${route.status} freight`);
    }
    if (f.awards.length >= 1) {
      const won = f.bids.find((b) => b.id === f.awards[0])!;
      if (route.status !== 'taken') problems.push(`freight ${f.id}: award acknowledged but status ${route.status}`);
      if (route.winner !== won.bidder.company) problems.push(`freight ${f.id}: winner ${route.winner} instead of ${won.bidder.company}`);
      if (cents(route.price) !== cents(won.amount)) problems.push(`freight ${f.id}: price ${route.price} instead of ${won.amount}`);
      if (accepted[0]?.id !== won.id)
        problems.push(`freight ${f.id}: accepted bid ${accepted[0]?.id} instead of the acknowledged ${won.id}`);
    }
  }
  return problems;
}

/** After a restart, the losers confirm again: a taken freight never gets a second award. */
async function secondAwardsRefused(base: string): Promise<string[]> {
  const problems: string[] = [];
  const taken = [...ledger.values()].filter((f) => f.awards.length === 1 && f.bids.length > 1).slice(-5);
  for (const f of taken) {
    for (const b of f.bids.filter((x) => x.id !== f.awards[0])) {
      const owner = await call(base, 'POST', `/quotes/confirm/${b.id}.json`, shipper);
      const bidder = await call(base, 'POST', `/quotes/confirm/${b.id}.json`, b.bidder);
      if (owner?.status === 200 || bidder?.status === 200)
        problems.push(`freight ${f.id}: bid ${b.id} was awarded after bid ${f.awards[0]}`);
    }
  }
  return problems;
}

test(`SIGKILL while creating, publishing, bidding and confirming loses nothing acknowledged (${CYCLES} cycles, ${TEST_DB})`, async (t) => {
  const totals = { acks: 0, awards: 0 };
  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    server = await startServer(database.env);
    const base = server.base;
    if (cycle > 1) {
      assert.deepEqual(await verify(base), [], `after restart ${cycle - 1}`);
      assert.deepEqual(await secondAwardsRefused(base), [], `second awards after restart ${cycle - 1}`);
    }
    // Load until a few awards went through in this cycle (after 8 s one is enough; a busy machine
    // gets up to 30 s for it), then kill at a random moment.
    const stats = { acks: 0, awards: 0 };
    let stop = false;
    let seq = 0;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (!stop) if (!(await exchangeFlow(base, `crash-${cycle}-${++seq}`, stats)) && stop) break;
    });
    const start = Date.now();
    const loaded = () => stats.awards >= 3 || (stats.awards >= 1 && Date.now() - start > 8000) || Date.now() - start > 30_000;
    while (!loaded()) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 250)));
    const code = await server.kill('SIGKILL');
    stop = true;
    await Promise.all(clients);
    t.diagnostic(
      `cycle ${cycle}: killed (${code}) after ${Date.now() - start} ms with ${stats.acks} acknowledged answers, ${stats.awards} awards`,
    );
    assert.ok(stats.awards >= 1, `cycle ${cycle}: the load made progress before the kill (${stats.acks} acknowledged)`);
    totals.acks += stats.acks;
    totals.awards += stats.awards;
  }
  server = await startServer(database.env);
  assert.deepEqual(await verify(server.base), [], `after the last restart`);
  assert.deepEqual(await secondAwardsRefused(server.base), [], 'second awards after the last restart');
  assert.equal(await server.kill('SIGTERM'), 0, 'a graceful stop after the crashes');
  server = undefined;

  // The database agrees: one accepted bid at most per freight, and it is the freight's winner.
  const rows = await database.inspect((db) =>
    db
      .selectFrom('bids')
      .innerJoin('freights', 'freights.id', 'bids.freight_id')
      .select(['bids.freight_id', 'bids.company_id', 'freights.winner_id', 'freights.status'])
      .where('bids.status', '=', 'accepted')
      .execute(),
  );
  const perFreight = new Map<number, number>();
  for (const r of rows) {
    perFreight.set(r.freight_id, (perFreight.get(r.freight_id) ?? 0) + 1);
    assert.equal(r.winner_id, r.company_id, `freight ${r.freight_id}: winner is the accepted bidder`);
    assert.equal(r.status, 'taken');
  }
  assert.deepEqual(
    [...perFreight].filter(([, n]) => n > 1),
    [],
  );
  t.diagnostic(
    `crash test (${TEST_DB}): ${CYCLES} SIGKILL cycles, ${ledger.size} freights, ${totals.acks} acknowledged answers, ${totals.awards} awards, nothing lost`,
  );
});
