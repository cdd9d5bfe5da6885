// The freight's JSON view and the rows of the JSON lists sent from stored presentations
// (src/freights/presented.ts, issue 49): the same bytes as read the long way, for every freight and
// list of a seeded exchange, every caller and both languages; never stale after a write, a passed
// deadline, a rename or a new bid.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { bidOn, confirmBoth, draftFreight, publishedFreight } from '../support/fixtures.ts';
import { GOLDEN_LISTS, GOLDEN_NOW, GOLDEN_SEARCHES, type GoldenWorld, seedGoldenWorld } from '../support/golden.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

let app: TestApp;
let world: GoldenWorld;

before(async () => {
  app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
  world = await seedGoldenWorld(app);
});
after(() => app?.close());

const db = () => app.services.db;
const stored = async () =>
  (
    await sql<{
      freight_id: number;
      source: string;
      status: string;
    }>`select freight_id, source, status from freight_presentations order by freight_id`.execute(db())
  ).rows;
const sourceOf = async (id: number) =>
  (await sql<{ source: string }>`select xmin::text as source from freights where id = ${id}`.execute(db())).rows[0]!.source;
const forget = () => sql`delete from freight_presentations`.execute(db());

test('every view sent from a stored presentation is the view read the long way, byte for byte: every freight, every caller, both languages', async () => {
  const ids = (await sql<{ id: number }>`select id from freights order by id`.execute(db())).rows.map((r) => r.id);
  const callers = world.actors;
  assert.ok(ids.length >= 20, `${ids.length} freights`);
  assert.ok(new Set(callers.map(([name]) => name)).has('shipperDe'), 'a caller who reads German');
  const ask = async (id: number, token: string) => {
    const res = await app.get(`/freights/view/${id}.json`, { token });
    return `${res.status} ${res.text}`;
  };

  // The long way: no presentation stored when each view is asked.
  const long = new Map<string, string>();
  for (const id of ids)
    for (const [name, actor] of callers) {
      await forget();
      long.set(`${id} ${name}`, await ask(id, actor.token));
    }

  // Each freight viewed once by its owner: its presentation written after the answer.
  await forget();
  const owners = await sql<{ id: number; company_id: number }>`select id, company_id from freights order by id`.execute(db());
  for (const { id, company_id } of owners.rows) {
    const owner = callers.find(([, a]) => a.company === company_id);
    assert.ok(owner, `the owner of freight ${id} is a caller`);
    await ask(id, owner[1].token);
  }
  const written = await stored();
  assert.equal(written.length, ids.length, 'every freight presented');
  const format = written[0]!.source.split(':')[1];
  assert.match(format ?? '', /^[0-9a-f]{16}$/);
  for (const row of written)
    assert.equal(row.source, `${await sourceOf(row.freight_id)}:${format}`, `freight ${row.freight_id} presented at its version`);

  // From the stored presentations: the same answers, and nothing written again (none was stale).
  let sent = 0;
  for (const id of ids)
    for (const [name, actor] of callers) {
      const answer = await ask(id, actor.token);
      assert.equal(answer, long.get(`${id} ${name}`), `freight ${id} as ${name}`);
      if (answer.startsWith('200 ')) sent++;
    }
  assert.ok(sent > ids.length, `${sent} views answered`);
  assert.deepEqual(await stored(), written);
});

test('the view is sent from the stored presentation while the freight is unchanged, and read afresh once it is written', async () => {
  const { shipperEn } = world.seeded;
  const carrier = world.seeded.carriers[0]!;
  const id = await publishedFreight(app, shipperEn, { weight: 1200, deadline: '2026-12-20 12:00' });
  const first = await app.get(`/freights/view/${id}.json`, { token: carrier.token });
  assert.equal(first.status, 200);
  const presentedAt = async () => (await stored()).find((r) => r.freight_id === id)?.source.split(':')[0];
  assert.equal(await presentedAt(), await sourceOf(id));

  // A mark written into the stored market text reaches the carrier: the answer is the stored text.
  await sql`update freight_presentations set market_eng = replace(market_eng, '"info":"1200 kg"', '"info":"stored"') where freight_id = ${id}`.execute(
    db(),
  );
  assert.match((await app.get(`/freights/view/${id}.json`, { token: carrier.token })).text, /"info":"stored"/);

  // The owner's edit writes a new version of the row: the next view reads it the long way, then presents it anew.
  const edited = await app.post(`/freights/edit/${id}.json`, { token: shipperEn.token, json: { weight: 1500 } });
  assert.equal(edited.status, 200);
  const afterEdit = await app.get(`/freights/view/${id}.json`, { token: carrier.token });
  assert.doesNotMatch(afterEdit.text, /"info":"stored"/);
  assert.match(afterEdit.text, /"info":"1500 kg"/);
  assert.equal(await presentedAt(), await sourceOf(id));

  // Texts another release (or another APP_TIMEZONE) wrote are not sent either: presented anew.
  await sql`update freight_presentations set source = split_part(source, ':', 1) || ':0000000000000000',
    market_eng = replace(market_eng, '"info":"1500 kg"', '"info":"other release"') where freight_id = ${id}`.execute(db());
  assert.equal((await app.get(`/freights/view/${id}.json`, { token: carrier.token })).text, afterEdit.text);
  assert.doesNotMatch((await stored()).find((r) => r.freight_id === id)!.source, /:0{16}$/);
  assert.equal((await app.get(`/freights/view/${id}.json`, { token: carrier.token })).text, afterEdit.text);

  // What a view adds around the stored text is read at every view: a new bid, the company's new name.
  await bidOn(app, carrier, id, '700.00');
  const withBid = (await app.get(`/freights/view/${id}.json`, { token: carrier.token })).body as {
    data: { route: { _bids: Array<{ amount: number }>; _company: { name: string } } };
  };
  assert.deepEqual(
    withBid.data.route._bids.map((b) => b.amount),
    [700],
  );
  await sql`update companies set name = 'Renamed Shipper GmbH' where id = ${shipperEn.company}`.execute(db());
  const renamed = (await app.get(`/freights/view/${id}.json`, { token: carrier.token })).body as typeof withBid;
  assert.equal(renamed.data.route._company.name, 'Renamed Shipper GmbH');
  await sql`update companies set name = ${shipperEn.companyName} where id = ${shipperEn.company}`.execute(db());
});

test('a deadline that passed without a write: the view says expired (read the long way), and the presentation is written expired', async () => {
  const { shipperEn } = world.seeded;
  const carrier = world.seeded.carriers[1]!;
  const id = await publishedFreight(app, shipperEn, { deadline: '2026-12-02 12:00' });
  const open = (await app.get(`/freights/view/${id}.json`, { token: shipperEn.token })).body as { data: { route: { status: string } } };
  assert.equal(open.data.route.status, 'open');
  assert.equal((await stored()).find((r) => r.freight_id === id)?.status, 'open');

  const now = new Date('2026-12-03T09:00:00Z');
  app.setNow(now);
  try {
    const expired = (await app.get(`/freights/view/${id}.json`, { token: shipperEn.token })).body as typeof open;
    assert.equal(expired.data.route.status, 'expired');
    assert.equal((await stored()).find((r) => r.freight_id === id)?.status, 'expired');
    // The market no longer sees it, stored presentation or not.
    assert.equal((await app.get(`/freights/view/${id}.json`, { token: carrier.token })).status, 404);
    assert.equal((await app.get(`/freights/view/${id}.json`, { token: shipperEn.token })).text, JSON.stringify(expired));
  } finally {
    app.setNow(GOLDEN_NOW);
  }
});

test("a company's view of a freight it may not see writes nothing", async () => {
  const { shipperEn } = world.seeded;
  const outsider = world.actors.find(([name]) => name === 'outsider')![1];
  const draft = await draftFreight(app, shipperEn, { weight: 300 });
  assert.equal((await app.get(`/freights/view/${draft}.json`, { token: outsider.token })).status, 404);
  assert.equal(
    (await stored()).find((r) => r.freight_id === draft),
    undefined,
  );
  assert.equal((await app.get(`/freights/view/${draft}.json`, { token: shipperEn.token })).status, 200);
  assert.ok((await stored()).find((r) => r.freight_id === draft));
});

test('every list page whose rows come from stored presentations is the page read the long way, byte for byte: every list and search, every caller, both languages', async () => {
  const paths = [
    ...GOLDEN_LISTS.map((list) => `/freights/enlist/${list}.json`),
    ...GOLDEN_SEARCHES.flatMap((q) => [8, 10, 7].map((list) => `/freights/enlist/${list}.json?${q}`)),
    '/freights/enlist/8.json?page=2&limit=3&sort=Routes.weight&direction=desc',
  ];
  const ask = async (path: string, token: string) => {
    const res = await app.get(path, { token });
    return `${res.status} ${res.text}`;
  };
  const long = new Map<string, string>();
  for (const path of paths)
    for (const [name, actor] of world.actors) {
      await forget();
      long.set(`${path} ${name}`, await ask(path, actor.token));
    }
  // Asking the lists wrote the presentations of the rows they read the long way (owner's and market's).
  await forget();
  for (const path of paths) for (const [, actor] of world.actors) await ask(path, actor.token);
  const written = await stored();
  assert.ok(written.length >= 20, `${written.length} freights presented by the lists`);
  let rows = 0;
  for (const path of paths)
    for (const [name, actor] of world.actors) {
      const answer = await ask(path, actor.token);
      assert.equal(answer, long.get(`${path} ${name}`), `${path} as ${name}`);
      rows += (answer.match(/"_route_pieces"/g) ?? []).length;
    }
  assert.ok(rows > 200, `${rows} rows listed`);
  assert.deepEqual(await stored(), written, 'nothing was stale the second time');
});

test("a list's row is its stored text while the freight is unchanged, read afresh once it is written; a stored text never reaches another audience", async () => {
  const { shipperEn } = world.seeded;
  const carrier = world.seeded.carriers[0]!;
  const id = await publishedFreight(app, shipperEn, { weight: 1300, deadline: '2026-12-20 12:00' });
  const row = async (token: string, list = 8) => {
    const res = await app.get(`/freights/enlist/${list}.json?limit=100`, { token });
    assert.equal(res.status, 200);
    const body = res.body as { data: { routes: Array<{ id: number; info: string }> } };
    return body.data.routes.find((r) => r.id === id);
  };
  assert.equal((await row(carrier.token))?.info, '1300 kg');
  assert.ok(
    (await stored()).find((r) => r.freight_id === id),
    'presented after the list answered',
  );
  await sql`update freight_presentations set market_eng = replace(market_eng, '"info":"1300 kg"', '"info":"stored market"'),
    owner_eng = replace(owner_eng, '"info":"1300 kg"', '"info":"stored owner"') where freight_id = ${id}`.execute(db());
  assert.equal((await row(carrier.token))?.info, 'stored market');
  assert.equal((await row(shipperEn.token, 10))?.info, 'stored owner');

  // The owner's edit writes a new version: the row is read the long way, then presented anew.
  assert.equal((await app.post(`/freights/edit/${id}.json`, { token: shipperEn.token, json: { weight: 1400 } })).status, 200);
  assert.equal((await row(carrier.token))?.info, '1400 kg');
  assert.equal((await stored()).find((r) => r.freight_id === id)?.source.split(':')[0], await sourceOf(id));

  // Once awarded to the carrier, its row is the winner's (read the long way), never the market's text.
  await sql`update freight_presentations set market_eng = replace(market_eng, '"info":"1400 kg"', '"info":"stored market"') where freight_id = ${id}`.execute(
    db(),
  );
  const bid = await bidOn(app, carrier, id, '650.00');
  assert.equal((await row(carrier.token, 7))?.info, 'stored market', 'bid on, still in the market: the market text');
  await confirmBoth(app, shipperEn, carrier, bid.id);
  const won = await row(carrier.token, 2);
  assert.ok(won, 'the won freight in the carrier list');
  assert.equal(won.info, '1400 kg');
});
