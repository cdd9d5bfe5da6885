import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openFreight } from '../freights/helpers.ts';
import { flush, mailApp, setModes, startSmtp, to, type TestSmtp } from '../mail/support.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { addOffer, eventually, FREIGHT, notificationsOf } from '../vehicles/helpers.ts';

/**
 * Issue 47, item 7: one load gave a carrier a pile of alerts (one per fitting vehicle offer and
 * one per saved search). Now the user gets one notification (and one mail) per load naming every
 * reason; the API's events stay one per match (docs/reference.md#load-search, #events, #vehicles; docs/choices.md,
 * "One alert per load").
 */
describe('one alert per load per user, naming every reason', () => {
  let smtp: TestSmtp;
  let app: TestApp;
  let shipper: Actor;
  let carrier: Actor;
  let colleague: Actor;

  before(async () => {
    smtp = await startSmtp();
    app = await mailApp(smtp);
    app.setNow(new Date('2030-05-01T08:00:00Z'));
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier', { language: 'deu' });
    colleague = await app.colleague(carrier, 'Colleague');
  });
  after(async () => {
    await app?.close();
    await smtp?.close();
  });

  async function eventsOf(companyId: number, type: string, freightId: number): Promise<Array<Record<string, any>>> {
    const { rows } = await sql<{ body: string }>`
      select body from events where type = ${type} and company_id = ${companyId} and freight_id = ${freightId} order by seq`.execute(
      app.services.db,
    );
    return rows.map((r) => JSON.parse(r.body).data);
  }

  test('two offers and a saved search: one notification, three reasons; three events; one mail', async () => {
    await setModes(app, carrier.token, { alerts: 'instant' });
    await setModes(app, colleague.token, { alerts: 'instant' });
    const search = await app.post('/searches/add.json', {
      token: carrier.token,
      json: { name: 'Frankfurt loads', params: { from: 'DE-60' }, alert: 1 },
    });
    assert.equal(search.body.status, 'success', search.text);
    const one = await addOffer(app, carrier);
    const two = await addOffer(app, carrier, { from_radius: 200 });
    // The colleague's own offer: its own alert (one per user).
    const three = await addOffer(app, colleague);
    await flush(app, smtp);

    const from = smtp.received.length;
    const id = await openFreight(app, shipper, FREIGHT);
    const mine = await eventually(async () => {
      const list = (await notificationsOf(app, carrier)).filter((n) => n.route_id === id);
      return list.length && list[0]!.matched_by?.length === 3 ? list : undefined;
    }, 'the merged notification');
    assert.equal(mine.length, 1, 'one notification for the load');
    const [note] = mine;
    assert.equal(note!.type, 'freight.matched');
    assert.equal(note!.search.id, search.body.data.search.id, 'the contract’s search: the saved search');
    assert.equal(note!.vehicle_id, one.id, 'the contract’s vehicle: the first fitting offer');
    assert.deepEqual(
      note!.matched_by.map((r: Record<string, any>) => r.search_id ?? `v${r.vehicle_id}`),
      [search.body.data.search.id, `v${one.id}`, `v${two.id}`],
    );
    assert.equal(note!.route.id, id);
    const unread = await app.get('/notifications/unread.json', { token: carrier.token });
    assert.equal(unread.body.data.unread, 1, 'one unread alert, not three');

    const theirs = (await notificationsOf(app, colleague)).filter((n) => n.route_id === id);
    assert.equal(theirs.length, 1);
    assert.deepEqual(
      theirs[0]!.matched_by.map((r: Record<string, any>) => r.vehicle_id),
      [three.id],
    );

    // The API's events keep one per match (docs/reference.md#events, #vehicles): the search's and each offer's.
    const events = await eventsOf(carrier.company, 'freight.matched', id);
    assert.equal(events.filter((e) => e.search).length, 1);
    assert.deepEqual(
      events
        .filter((e) => e.vehicle)
        .map((e) => e.vehicle.id)
        .sort((a, b) => a - b),
      [one.id, two.id, three.id],
    );

    // One mail per user and load, naming the further reasons.
    const got = await flush(app, smtp, from);
    const toCarrier = to(got, carrier.email);
    assert.equal(toCarrier.length, 1, toCarrier.map((m) => m.mail.subject).join(' | '));
    assert.match(
      toCarrier[0]!.mail.text ?? '',
      new RegExp(`Passt außerdem zu: Ihrem Laderaumangebot ${one.id}; Ihrem Laderaumangebot ${two.id}`),
    );
    assert.equal(to(got, colleague.email).length, 1);

    // Reading the one notification reads the load's alert whole.
    const read = await app.post(`/notifications/read/${note!.id}.json`, { token: carrier.token });
    assert.equal(read.body.status, 'success', read.text);
    assert.equal(read.body.data.notification.read, 1);
    assert.equal((await app.get('/notifications/unread.json', { token: carrier.token })).body.data.unread, 0);
  });

  test('a merged reason is not a notification of its own: 404 by its id', async () => {
    const { rows } = await sql<{ id: number }>`
      select id from notifications where user_id = ${carrier.user} and merged_into is not null limit 1`.execute(app.services.db);
    assert.ok(rows[0], 'a merged row exists');
    const res = await app.post(`/notifications/read/${rows[0]!.id}.json`, { token: carrier.token });
    assert.equal(res.status, 404, res.text);
  });
});
