import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { attach, download, JPEG, PDF, PNG, success } from '../deals/helpers.ts';
import { addFreight, enlistIds, openFreight, publish } from '../freights/helpers.ts';
import { about, openStream } from '../live/support.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { takenFreight } from '../trust/helpers.ts';
import { addOffer, FREIGHT } from '../vehicles/helpers.ts';

/**
 * Issue 39, items 4 and 5, as the reviews sent them: a whitelisted company read the freight's or
 * offer's whole whitelist (the owner's other partners); downloaded documents kept a foreign
 * extension (`poly.html` holding a PDF) and bidi controls (`\u202egpj.exe`); 10 parallel
 * invitations of one offer sent 10 `freight.invited` events; a whitelist naming a company that
 * does not exist answered 500 (edit of an open freight, publish of a draft carrying one).
 */
describe(`issue 39: whitelists, document names, invitations, unknown ids (${TEST_DB})`, () => {
  let app: TestApp;
  let base: string;
  let owner: Actor, partner: Actor, secret: Actor, carrier: Actor;

  before(async () => {
    app = await startTestApp();
    app.setNow(new Date('2030-05-01T10:00:00Z'));
    base = await app.listen();
    owner = await app.actor('Owner');
    partner = await app.actor('Partner');
    secret = await app.actor('Secret Partner');
    carrier = await app.actor('Carrier');
  });
  after(() => app?.close());

  describe('4. a whitelist is shown to its owner only', () => {
    test('a freight’s whitelist: null for the whitelisted company in the view, its lists, its events, its stream and its page; the owner reads it', async () => {
      const stream = await openStream(base, { token: partner.token });
      try {
        const id = await addFreight(app, owner, { ...FREIGHT, refs: { customer: 'WL-1' } });
        await publish(app, owner, id, { visibility: -2, whitelist: [partner.company, secret.company] });
        const seen = success(await app.get(`/freights/view/${id}.json`, { token: partner.token })).route;
        assert.equal(seen.visibility, -2);
        assert.equal(seen.whitelist, null, 'the view');
        const listed = (await app.get('/freights/enlist/8.json', { token: partner.token })).body.data.routes.find((r: any) => r.id === id);
        assert.ok(listed, 'in the partner’s market list');
        assert.equal(listed.whitelist, null, 'the list');
        const searched = (await app.get('/freights/enlist/8.json?from=DE-60', { token: partner.token })).body.data.routes.find(
          (r: any) => r.id === id,
        );
        assert.equal(searched.whitelist, null, 'the searched list');
        const event = await stream.waitFor(about('freight.published', id));
        assert.equal(event.json.data.route.whitelist, null, 'the stream');
        const row = await sql<{
          body: string;
        }>`select body from events where company_id = ${partner.company} and freight_id = ${id}`.execute(app.services.db);
        for (const r of row.rows) assert.equal(JSON.parse(r.body).data.route.whitelist, null, 'the webhook body');
        const { cookie } = await browserSession(app, partner);
        const page = await app.get(`/freights/view/${id}`, { headers: { cookie } });
        assert.equal(page.status, 200);
        assert.ok(!page.text.includes(secret.companyName), 'the page names no other partner');
        // The owner reads its whitelist everywhere.
        assert.deepEqual(success(await app.get(`/freights/view/${id}.json`, { token: owner.token })).route.whitelist, [
          partner.company,
          secret.company,
        ]);
        // A winner (an unmasked party) reads it no more than any other.
        const won = await takenFreight(app, owner, partner, { ...FREIGHT });
        await app.services.db
          .updateTable('freights')
          .set({ visibility: -2, whitelist: [partner.company, secret.company] })
          .where('id', '=', won)
          .execute();
        assert.equal(success(await app.get(`/freights/view/${won}.json`, { token: partner.token })).route.whitelist, null, 'the winner');
        assert.deepEqual(success(await app.get(`/freights/view/${won}.json`, { token: owner.token })).route.whitelist, [
          partner.company,
          secret.company,
        ]);
      } finally {
        stream.close();
      }
    });

    test('a vehicle offer’s whitelist: null for the whitelisted shipper in the view, the list and the match event; its company reads it', async () => {
      const offer = await addOffer(app, carrier, { whitelist: [owner.company, secret.company] });
      assert.deepEqual(offer.whitelist, [owner.company, secret.company]);
      const seen = success(await app.get(`/vehicles/view/${offer.id}.json`, { token: owner.token })).vehicle;
      assert.equal(seen.whitelist, null, 'the view');
      const listed = success(await app.get('/vehicles/index.json', { token: owner.token })).vehicles.find((v: any) => v.id === offer.id);
      assert.equal(listed.whitelist, null, 'the list');
      assert.deepEqual(success(await app.get(`/vehicles/view/${offer.id}.json`, { token: carrier.token })).vehicle.whitelist, [
        owner.company,
        secret.company,
      ]);
      // A freight of the owner that fits: the owner's vehicle.matched names the offer without its whitelist.
      const freight = await openFreight(app, owner, { ...FREIGHT });
      const bodies = await sql<{
        body: string;
      }>`select body from events where type = 'vehicle.matched' and company_id = ${owner.company}`.execute(app.services.db);
      assert.ok(bodies.rows.length > 0, `a vehicle.matched for the owner of ${freight}`);
      for (const r of bodies.rows) assert.equal(JSON.parse(r.body).data.vehicle.whitelist, null);
      const { cookie } = await browserSession(app, owner);
      const page = await app.get(`/vehicles/view/${offer.id}`, { headers: { cookie } });
      assert.ok(!page.text.includes(secret.companyName));
    });
  });

  describe('4. downloads are named by what they are', () => {
    test('`poly.html` holding a PDF downloads as poly.pdf; `\\u202egpj.exe` holding a JPEG as gpj.jpg; control characters go', async () => {
      const id = await openFreight(app, owner, { ...FREIGHT });
      const cases: Array<[string, Buffer, string, string]> = [
        ['poly.html', PDF, 'poly.html', 'poly.pdf'],
        ['\u202egpj.exe', JPEG, 'gpj.exe', 'gpj.jpg'],
        ['scan\u200f\u2066.png\u0007', PNG, 'scan.png', 'scan.png'],
        ['Befund\u0085 2030.JPEG', JPEG, 'Befund 2030.JPEG', 'Befund 2030.JPEG'],
      ];
      for (const [name, bytes, stored, downloaded] of cases) {
        const doc = success(await attach(app, owner, id, 'other', name, bytes)).document;
        assert.equal(doc.name, stored, JSON.stringify(name));
        const got = await download(app, owner, doc.id);
        assert.equal(got.status, 200);
        assert.equal(
          String(got.headers['content-disposition']),
          `attachment; filename="${downloaded}"; filename*=UTF-8''${encodeURIComponent(downloaded)}`,
          JSON.stringify(name),
        );
      }
      // A name stored before the cleaning (as the review found it) is cleaned at the download.
      const legacy = success(await attach(app, owner, id, 'other', 'legacy.pdf', JPEG)).document;
      await app.services.db.updateTable('deal_documents').set({ name: '\u202egpj.exe' }).where('id', '=', legacy.id).execute();
      const got = await download(app, owner, legacy.id);
      assert.match(String(got.headers['content-disposition']), /^attachment; filename="gpj\.jpg";/);
    });
  });

  describe('4. one invitation, one event', () => {
    test('10 parallel invitations of one offer into one freight: all answer success, one freight.invited event, one notification', async () => {
      const offer = await addOffer(app, carrier);
      const freight = await openFreight(app, owner, { ...FREIGHT }, { visibility: -2, whitelist: [secret.company] });
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => app.post(`/vehicles/invite/${offer.id}.json`, { token: owner.token, json: { freight } })),
      );
      for (const a of answers) assert.equal(a.body.status, 'success', a.text);
      const events = await sql<{
        n: number;
      }>`select count(*)::int as n from events where type = 'freight.invited' and freight_id = ${freight}`.execute(app.services.db);
      assert.equal(events.rows[0]!.n, 1);
      const notes = await sql<{
        n: number;
      }>`select count(*)::int as n from notifications where type = 'freight.invited' and freight_id = ${freight}`.execute(app.services.db);
      assert.equal(notes.rows[0]!.n, 1);
      const row = await app.services.db.selectFrom('freights').select('whitelist').where('id', '=', freight).executeTakeFirstOrThrow();
      assert.deepEqual(row.whitelist, [secret.company, carrier.company], 'joined once');
    });
  });

  describe('5. ids that name no company are dropped with a warning, never a 500', () => {
    const warned = (res: { body: any }) => (res.body.warnings ?? []).filter((w: any) => w.field === 'whitelist').map((w: any) => w.reason);

    test('edit of an open freight with {"visibility":-2,"whitelist":[999999]}', async () => {
      const id = await openFreight(app, owner, { ...FREIGHT });
      const res = await app.post(`/freights/edit/${id}.json`, { token: owner.token, json: { visibility: -2, whitelist: [999999] } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'success', res.text);
      assert.deepEqual(res.body.data.route.whitelist, []);
      assert.deepEqual(warned(res), ['no company has the id 999999: dropped']);
      const mixed = await app.post(`/freights/edit/${id}.json`, {
        token: owner.token,
        json: { visibility: -2, whitelist: [partner.company, 999999, 888888] },
      });
      assert.deepEqual(mixed.body.data.route.whitelist, [partner.company]);
      assert.deepEqual(warned(mixed), ['no company has the id 999999, 888888: dropped']);
    });

    test('a draft created with one, and a draft that carries one from before (publish), and a publish that names one', async () => {
      const added = await app.post('/freights/add.json', {
        token: owner.token,
        json: { ...FREIGHT, visibility: -2, whitelist: [999999, partner.company] },
      });
      assert.equal(added.body.status, 'success', added.text);
      assert.deepEqual(added.body.data.whitelist, [partner.company]);
      assert.deepEqual(warned(added), ['no company has the id 999999: dropped']);

      // The review's draft: written before the fix, its whitelist still names no company.
      const draft = await addFreight(app, owner, { ...FREIGHT, visibility: -2 });
      await app.services.db
        .updateTable('freights')
        .set({ whitelist: [999999] })
        .where('id', '=', draft)
        .execute();
      const published = await app.post(`/freights/view/${draft}.json`, { token: owner.token, json: { action: 'publish' } });
      assert.equal(published.status, 302, published.text);
      assert.equal(success(await app.get(`/freights/view/${draft}.json`, { token: owner.token })).route.status, 'open');
      const none = await sql<{ n: number }>`select count(*)::int as n from events where company_id = 999999`.execute(app.services.db);
      assert.equal(none.rows[0]!.n, 0);

      const other = await addFreight(app, owner, { ...FREIGHT });
      const named = await app.post(`/freights/view/${other}.json`, {
        token: owner.token,
        json: { action: 'publish', visibility: -2, whitelist: [999999, partner.company] },
      });
      assert.equal(named.status, 302, named.text);
      assert.deepEqual(success(await app.get(`/freights/view/${other}.json`, { token: owner.token })).route.whitelist, [partner.company]);
      assert.ok((await enlistIds(app, partner, 8)).includes(other));
    });

    test('a vehicle offer’s whitelist, on add and on edit', async () => {
      const res = await app.post('/vehicles/add.json', {
        token: carrier.token,
        json: {
          from: 'city:60311',
          from_country: 'DE',
          available_from: '2030-05-04 06:00:00',
          available_to: '2030-05-06 18:00:00',
          body: 'box',
          capacity: 9000,
          whitelist: [owner.company, 999999],
        },
      });
      assert.equal(res.body.status, 'success', res.text);
      assert.deepEqual(res.body.data.vehicle.whitelist, [owner.company]);
      assert.deepEqual(warned(res), ['no company has the id 999999: dropped']);
      const edit = await app.post(`/vehicles/edit/${res.body.data.vehicle.id}.json`, {
        token: carrier.token,
        json: { whitelist: [777777, partner.company] },
      });
      assert.equal(edit.body.status, 'success', edit.text);
      assert.deepEqual(edit.body.data.vehicle.whitelist, [partner.company]);
      assert.deepEqual(warned(edit), ['no company has the id 777777: dropped']);
    });
  });
});
