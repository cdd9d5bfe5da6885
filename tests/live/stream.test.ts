import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_STREAMS_PER_USER } from '../../src/live/hub.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { Contract } from '../support/contract.ts';
import { addFreight, openFreight, publish } from '../freights/helpers.ts';
import { about, openStream, type SseEvent, type SseStream } from './support.ts';

/**
 * docs/reference.md#live-board: GET /events/stream gives each company the events of §8 it is entitled to,
 * masked as it sees the freight (the same bodies a webhook receives), plus `freight.published`
 * of every market freight it may see; `Last-Event-ID` replays what was missed; no login, no stream.
 */

const SECRET_FROM = 'Secret Dock 7, Frankfurt';
const SECRET_TO = 'Hidden Gate 9, Amsterdam';
const REF = 'PO-4711-confidential';
const WINNING = '1234.56';

describe(`the live board's stream (${TEST_DB})`, () => {
  let app: TestApp;
  let base: string;
  let contract: Contract;
  let shipper: Actor, carrierA: Actor, carrierB: Actor, outsider: Actor, blocker: Actor, other: Actor;
  const streams = new Map<number, SseStream>();
  const open: SseStream[] = [];

  const stream = async (who: Actor, lastEventId?: string) => {
    const s = await openStream(base, { token: who.token, lastEventId });
    open.push(s);
    return s;
  };
  const ok = (res: { status: number; body: any; text: string }) => {
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success', res.text);
    return res.body.data;
  };
  /**
   * A freight of `other` published to the market: every stream but the blocker's... receives it
   * after everything before it (one hub delivers in order), so once a stream has it, an event
   * that did not arrive before it was not sent to that stream.
   */
  const barrier = async (...who: Actor[]) => {
    const id = await openFreight(app, other, { from: 'airport:MUC', to: 'airport:CDG', weight: 10 });
    for (const w of who) await streams.get(w.company)!.waitFor(about('freight.published', id));
    return id;
  };
  const typesAbout = (who: Actor, freight: number) =>
    streams
      .get(who.company)!
      .events.filter((e) => e.json.data?.route?.id === freight)
      .map((e) => e.json.type);
  const checkBody = (e: SseEvent, company: number) => {
    assert.equal(e.json.company, company, 'the body names its recipient');
    assert.equal(e.id, e.json.id, 'the id line is the event id');
    assert.match(e.id!, /^evt_/);
    assert.deepEqual(contract.checkEvent(e.json), [], e.data.slice(0, 300));
  };

  before(async () => {
    app = await startTestApp();
    base = await app.listen();
    contract = new Contract((await app.get('/openapi.json')).body);
    shipper = await app.actor('Shipper');
    carrierA = await app.actor('CarrierA');
    carrierB = await app.actor('CarrierB');
    outsider = await app.actor('Outsider');
    blocker = await app.actor('Blocker');
    other = await app.actor('Other');
    ok(await app.post(`/companies/block/${shipper.company}.json`, { token: blocker.token }));
    for (const who of [shipper, carrierA, carrierB, outsider, blocker, other]) streams.set(who.company, await stream(who));
  });
  after(async () => {
    for (const s of open) s.close();
    await app?.close();
  });

  test('no stream without a login: 401 in the envelope, whatever is sent', async () => {
    for (const options of [{}, { token: 'not-a-token' }, { cookie: 'fx_session=forged' }]) {
      const s = await openStream(base, options);
      assert.equal(s.status, 401);
      assert.equal(s.refusal.status, 'error');
      assert.equal(s.refusal.code, 'auth.unauthorized');
    }
    const raw = await fetch(`${base}/events/stream.json`);
    assert.equal(raw.status, 401);
    await raw.body?.cancel();
  });

  test('a stream opens at once as text/event-stream, with its retry and a first comment', async () => {
    const s = streams.get(outsider.company)!;
    assert.equal(s.status, 200);
    assert.match(String(s.headers.get('content-type')), /^text\/event-stream/);
    assert.equal(s.headers.get('cache-control'), 'no-store');
    assert.ok(s.comments.length >= 1);
  });

  let route: number;

  test('freight.published: the owner sees its freight unmasked, the market masked, the company that blocked the owner nothing', async () => {
    route = await addFreight(app, shipper, {
      from: 'airport:FRA',
      to: 'airport:AMS',
      from_addr: SECRET_FROM,
      to_addr: SECRET_TO,
      weight: 1200,
      refs: { customer: REF },
    });
    await publish(app, shipper, route, { deadline: '+48 hours' });
    const own = await streams.get(shipper.company)!.waitFor(about('freight.published', route));
    checkBody(own, shipper.company);
    assert.equal(own.json.data.route.from_addr, SECRET_FROM);
    assert.equal(own.json.data.route.refs.customer, REF);
    for (const who of [carrierA, carrierB, outsider, other]) {
      const e = await streams.get(who.company)!.waitFor(about('freight.published', route));
      checkBody(e, who.company);
      assert.equal(e.json.data.route.from_addr, null, 'the market sees no addresses');
      assert.equal(e.json.data.route.refs, null);
      assert.ok(!e.data.includes(SECRET_FROM) && !e.data.includes(REF));
      assert.equal(e.json.data.route.status, 'open');
    }
    await barrier(shipper, blocker);
    assert.deepEqual(typesAbout(blocker, route), [], 'a blocked company’s freights do not reach the blocker');
    assert.equal(typesAbout(shipper, route).length, 1, 'the owner gets its own event once, not the market’s too');
  });

  test('a draft announces nothing, and a freight for the own company only reaches no one else', async () => {
    const draft = await addFreight(app, shipper);
    const own = await openFreight(app, shipper, {}, { visibility: -1 });
    await streams.get(shipper.company)!.waitFor(about('freight.published', own));
    await barrier(carrierA, outsider);
    assert.deepEqual(typesAbout(carrierA, own), []);
    assert.deepEqual(typesAbout(outsider, own), []);
    assert.deepEqual(typesAbout(shipper, draft), []);
  });

  test('a whitelisted freight reaches the listed company only', async () => {
    const listed = await openFreight(app, shipper, {}, { visibility: -2, whitelist: [carrierB.company] });
    const e = await streams.get(carrierB.company)!.waitFor(about('freight.published', listed));
    checkBody(e, carrierB.company);
    await barrier(carrierA, outsider);
    assert.deepEqual(typesAbout(carrierA, listed), []);
    assert.deepEqual(typesAbout(outsider, listed), []);
  });

  let bidA: number;

  test('bid.created reaches the owner and that bidder only; the bidder sees the freight as the market does', async () => {
    bidA = ok(await app.post('/quotes/add.json', { token: carrierA.token, json: { route, amount: WINNING, currency_code: 'EUR' } })).bid.id;
    const forA = await streams.get(carrierA.company)!.waitFor(about('bid.created', route));
    checkBody(forA, carrierA.company);
    assert.equal(forA.json.data.bid.id, bidA);
    assert.equal(forA.json.data.route.from_addr, null);
    const forOwner = await streams.get(shipper.company)!.waitFor(about('bid.created', route));
    assert.equal(forOwner.json.data.route.from_addr, SECRET_FROM);
    ok(await app.post('/quotes/add.json', { token: carrierB.token, json: { route, amount: '999.99', currency_code: 'EUR' } }));
    const forB = await streams.get(carrierB.company)!.waitFor(about('bid.created', route));
    assert.ok(!forB.data.includes(WINNING), "B's stream holds no trace of A's bid");
    await barrier(carrierA, carrierB, outsider);
    assert.deepEqual(typesAbout(outsider, route), ['freight.published'], 'the outsider hears of no bid');
    assert.equal(typesAbout(carrierA, route).filter((t) => t === 'bid.created').length, 1, "A never gets B's bid");
  });

  test('the award: the winner sees everything, the former bidder a masked freight, the outsider nothing', async () => {
    assert.equal((await app.post(`/quotes/confirm/${bidA}.json`, { token: shipper.token })).status, 302);
    ok(await app.post(`/quotes/confirm/${bidA}.json`, { token: carrierA.token }));
    const winner = await streams.get(carrierA.company)!.waitFor(about('freight.awarded', route));
    checkBody(winner, carrierA.company);
    assert.equal(winner.json.data.route.from_addr, SECRET_FROM);
    assert.equal(winner.json.data.route.price, Number(WINNING));
    const loser = await streams.get(carrierB.company)!.waitFor(about('freight.awarded', route));
    checkBody(loser, carrierB.company);
    for (const field of ['price', 'winner', 'from', 'to', 'from_addr', 'to_addr', 'refs'])
      assert.equal(loser.json.data.route[field], null, field);
    for (const secret of [WINNING, SECRET_FROM, SECRET_TO, REF])
      assert.ok(!loser.data.includes(secret), `a former bidder never learns ${secret}`);
    await barrier(shipper, outsider);
    assert.ok(typesAbout(shipper, route).includes('freight.awarded'));
    assert.deepEqual(typesAbout(outsider, route), ['freight.published']);
  });

  test('Last-Event-ID: a reconnecting stream first gets what it missed, in order, nothing twice, market rows only where it may see them', async () => {
    const b = streams.get(carrierB.company)!;
    const last = b.events[b.events.length - 1]!;
    b.close();
    // Missed meanwhile: a market freight, a market freight of the company B blocked, its own bid's news.
    const fresh = await openFreight(app, other, { from: 'airport:HAM', to: 'airport:VIE' });
    ok(await app.post(`/companies/block/${shipper.company}.json`, { token: carrierB.token }));
    const hidden = await openFreight(app, shipper, { from: 'airport:BER', to: 'airport:MAD' });
    const listed = await openFreight(app, other, {}, { visibility: -2, whitelist: [carrierB.company] });
    await streams.get(outsider.company)!.waitFor(about('freight.published', hidden));

    const again = await stream(carrierB, last.id);
    streams.set(carrierB.company, again);
    await again.waitFor(about('freight.published', listed));
    const ids = again.events.map((e) => e.json.data.route.id);
    assert.deepEqual(
      again.events.map((e) => e.json.type),
      ['freight.published', 'freight.published'],
      `replayed: ${ids.join(', ')}`,
    );
    assert.deepEqual(ids, [fresh, listed], 'the blocked company’s freight is not replayed');
    for (const e of again.events) checkBody(e, carrierB.company);
    assert.ok(!again.events.some((e) => e.id === last.id), 'the last event received is not sent again');
    // Then live, as before.
    const next = await barrier(carrierB);
    assert.equal(again.events.filter((e) => e.json.data.route.id === next).length, 1);
    ok(await app.post(`/companies/unblock/${shipper.company}.json`, { token: carrierB.token }));
  });

  test('an unknown Last-Event-ID replays the last 24 hours; market rows only while the freight is in the market', async () => {
    const all = await stream(outsider, 'evt_unknown');
    const next = await barrier();
    await all.waitFor(about('freight.published', next));
    const replayed = all.events.map((e) => e.json.data.route.id);
    assert.ok(replayed.length > 3, `replayed: ${replayed.join(', ')}`);
    assert.ok(!replayed.includes(route), 'the awarded freight left the market: its market event is not replayed');
    assert.deepEqual(
      replayed,
      [...replayed].sort((a, b) => a - b),
      'oldest first',
    );
    for (const e of all.events) checkBody(e, outsider.company);
    all.close();
    app.setNow(new Date(Date.now() + 25 * 3600_000));
    try {
      const late = await stream(outsider, 'evt_unknown');
      const later = await openFreight(app, other, { from: 'airport:MUC', to: 'airport:CDG', weight: 10 }, { deadline: '+48 hours' });
      await late.waitFor(about('freight.published', later));
      assert.deepEqual(
        late.events.map((e) => e.json.data.route.id),
        [later],
        'nothing older than 24 hours',
      );
      late.close();
    } finally {
      app.setNow(null);
    }
  });

  test('a browser session opens a stream too', async () => {
    const { cookie } = await browserSession(app, outsider);
    const s = await openStream(base, { cookie });
    open.push(s);
    assert.equal(s.status, 200);
    const id = await barrier();
    await s.waitFor(about('freight.published', id));
    s.close();
  });

  test(`at most ${MAX_STREAMS_PER_USER} streams of one user at a time; one more is 429 until one closes`, async () => {
    const user = await app.actor('Tabs');
    const mine: SseStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) mine.push(await stream(user));
    assert.ok(mine.every((s) => s.status === 200));
    const refused = await openStream(base, { token: user.token });
    assert.equal(refused.status, 429);
    assert.equal(refused.refusal.code, 'live.too_many_streams');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.deepEqual(contract.check('GET', '/events/stream', 429, refused.refusal), []);
    const colleague = await app.colleague(user);
    const theirs = await stream(colleague);
    assert.equal(theirs.status, 200, 'the bound is per user');
    mine[0]!.close();
    for (let i = 0; i < 50 && app.live.size > open.filter((s) => !s.isEnded()).length; i++) await new Promise((r) => setTimeout(r, 20));
    let admitted: SseStream | undefined;
    for (let i = 0; i < 50 && admitted?.status !== 200; i++) {
      admitted?.close();
      admitted = await stream(user);
      if (admitted.status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(admitted!.status, 200);
    for (const s of [...mine, theirs, admitted!]) s.close();
  });

  test('closing the server ends every stream', async () => {
    const s = streams.get(outsider.company)!;
    assert.ok(!s.isEnded());
    await app.http.close();
    await s.ended;
    assert.equal(app.live.size, 0);
  });
});
