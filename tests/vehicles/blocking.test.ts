import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { addOffer, eventually, FREIGHT, notificationsOf } from './helpers.ts';

/**
 * docs/reference.md#trust on vehicle offers: a blocked company's offers leave the blocker's offer list
 * and its freights' fitting offers; matching reads blocks both ways, so neither side is matched
 * to or alerted about the other; the verified mark stands beside the offer's company.
 */

let app: TestApp;
let carrier: Actor; // blocked by the shipper
let verified: Actor; // another carrier, verified by the operator
let shipper: Actor; // the blocker

const post = (who: Actor, url: string, json: Record<string, unknown> = {}) => app.post(url, { token: who.token, json });
const ids = (list: Array<{ id: number }>) => list.map((x) => x.id);
const offersSeenBy = async (who: Actor) => ids((await app.get('/vehicles/index.json', { token: who.token })).body.data.vehicles);
const fittingOffers = async (who: Actor, freight: number) =>
  ids((await app.get(`/freights/vehicles/${freight}.json`, { token: who.token })).body.data.vehicles);
const matchesOf = async (who: Actor, offer: number) =>
  ids((await app.get(`/vehicles/matches/${offer}.json`, { token: who.token })).body.data.freights);

before(async () => {
  app = await startTestApp();
  carrier = await app.actor('Blocked carrier');
  verified = await app.actor('Verified carrier');
  shipper = await app.actor('Shipper');
  app.setNow(new Date('2030-05-01T10:00:00Z'));
  await app.services.db.updateTable('companies').set({ verified_at: new Date() }).where('id', '=', verified.company).execute();
});
after(() => app?.close());

test('offers name their company with the verified mark', async () => {
  const offer = await addOffer(app, verified);
  assert.deepEqual(offer.company, { id: verified.company, name: verified.companyName, verified: true });
  const plain = await addOffer(app, carrier);
  assert.deepEqual(plain.company, { id: carrier.company, name: carrier.companyName, verified: false });
  const listed = (await app.get('/vehicles/index.json', { token: shipper.token })).body.data.vehicles;
  assert.equal(listed.find((v: { id: number }) => v.id === offer.id).company.verified, true);
  const { cookie } = await browserSession(app, shipper);
  const page = await app.get(`/vehicles/view/${offer.id}`, { headers: { cookie } });
  assert.equal(page.status, 200);
  assert.match(page.text, /data-testid="verified-mark"/);
  assert.doesNotMatch((await app.get(`/vehicles/view/${plain.id}`, { headers: { cookie } })).text, /data-testid="verified-mark"/);
  for (const v of [offer, plain]) await post(v.company.id === verified.company ? verified : carrier, `/vehicles/withdraw/${v.id}.json`);
});

test('blocked: offers leave the list and the fitting offers, matches stop both ways, no alerts either way; back after unblocking', async () => {
  const freight = await openFreight(app, shipper, FREIGHT);
  const blockedOffer = await addOffer(app, carrier);
  const seenOffer = await addOffer(app, verified);
  assert.deepEqual((await offersSeenBy(shipper)).sort(), [blockedOffer.id, seenOffer.id].sort());
  assert.deepEqual((await fittingOffers(shipper, freight)).sort(), [blockedOffer.id, seenOffer.id].sort());
  assert.deepEqual(await matchesOf(carrier, blockedOffer.id), [freight]);

  assert.equal((await post(shipper, `/companies/block/${carrier.company}.json`)).body.status, 'success');
  assert.deepEqual(await offersSeenBy(shipper), [seenOffer.id]);
  assert.deepEqual(await fittingOffers(shipper, freight), [seenOffer.id]);
  // The carrier still sees the shipper's freight in the market, but it is no match of its offer.
  assert.deepEqual(await matchesOf(carrier, blockedOffer.id), []);
  assert.deepEqual(await matchesOf(verified, seenOffer.id), [freight]);
  // The blocked company's own list is unchanged (the block is the blocker's view).
  assert.ok((await offersSeenBy(carrier)).includes(seenOffer.id));

  // A new freight of the blocker: the verified carrier is alerted, the blocked one is not.
  const next = await openFreight(app, shipper, FREIGHT);
  await eventually(
    async () => (await notificationsOf(app, verified)).find((n) => n.type === 'freight.matched' && n.route_id === next),
    'freight.matched to the verified carrier',
  );
  assert.ok(!(await notificationsOf(app, carrier)).some((n) => n.type === 'freight.matched' && n.route_id === next));
  // A new offer of the blocked company: the blocker hears nothing of it; the verified carrier's is heard.
  const unheard = await addOffer(app, carrier);
  const heard = await addOffer(app, verified);
  await eventually(
    async () => (await notificationsOf(app, shipper)).find((n) => n.type === 'vehicle.matched' && n.vehicle_id === heard.id),
    'vehicle.matched of the verified carrier’s offer',
  );
  assert.ok(!(await notificationsOf(app, shipper)).some((n) => n.type === 'vehicle.matched' && n.vehicle_id === unheard.id));

  assert.equal((await post(shipper, `/companies/unblock/${carrier.company}.json`)).body.status, 'success');
  assert.ok((await offersSeenBy(shipper)).includes(blockedOffer.id));
  assert.ok((await fittingOffers(shipper, freight)).includes(blockedOffer.id));
  assert.deepEqual((await matchesOf(carrier, blockedOffer.id)).sort(), [freight, next].sort());
});
