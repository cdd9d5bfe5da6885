import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { pdfAttachments, pdfText } from '../support/pdf.ts';
import { browserSession, csrfOf } from '../support/session.ts';
import { download, fieldError, flashOf, success } from './helpers.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function refused(res: { status: number; body: any; text: string }, code: string) {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'error', res.text);
  assert.equal(res.body.code, code, res.text);
}

/**
 * docs/choices.md "The transport order in versions" (issue 47, item 8): the carrier gives plate and
 * driver after the award, which issues the order again as a new version (the earlier kept as
 * documents are); the e-CMR follows an unsigned order and stays as signed once signed.
 */
describe(`the transport order's versions: plate and driver (${TEST_DB})`, () => {
  let app: TestApp;
  let shipper: Actor, carrier: Actor, outsider: Actor;
  let freight: number;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    shipper = await app.actor('Müller Logistik');
    carrier = await app.actor('Przewozy Łódź');
    outsider = await app.actor('Outsider');
    success(await app.post('/webhooks/add.json', { token: shipper.token, json: { url: 'http://127.0.0.1:9/s', events: ['*'] } }));
    freight = await openFreight(app, shipper, {
      from_country: 'DE',
      from_addr: 'Königsallee 1, Düsseldorf',
      to_country: 'PL',
      to_addr: 'ul. Piotrkowska 5, Łódź',
      weight: 1250.5,
      etd: '2031-11-28 08:00',
      eta: '2031-11-29 09:00',
      refs: { customer: 'PO-77', loading_ref: 'LADE-1', consignee: 'Meble Nowak Sp. z o.o.', payment_days: '45' },
    });
    const bid = success(
      await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount: '980.00', currency_code: 'EUR' } }),
    ).bid;
    assert.equal((await app.post(`/quotes/confirm/${bid.id}.json`, { token: shipper.token })).status, 302);
    success(await app.post(`/quotes/confirm/${bid.id}.json`, { token: carrier.token }));
  });
  after(() => app?.close());

  const orderOf = (who: Actor) => app.get(`/freights/order/${freight}.json`, { token: who.token });
  const cmrOf = (who: Actor) => app.get(`/freights/cmr/${freight}.json`, { token: who.token });
  const give = (who: Actor, json: Record<string, unknown>) =>
    app.post(`/freights/order-transport/${freight}.json`, { token: who.token, json });

  test('refusals change nothing; the carrier’s plate and driver issue version 2, version 1 kept; the e-CMR follows while unsigned', async () => {
    const first = success(await orderOf(shipper));
    assert.equal(first.version, 1);
    assert.equal(first.order.transport, null);
    assert.deepEqual(first.order.payment_terms, { due_days: 45 });
    const firstCmr = success(await cmrOf(shipper)).cmr;
    assert.equal(firstCmr.consignee.name, 'Meble Nowak Sp. z o.o.', 'CMR box 2 names the order’s consignee');
    assert.equal(firstCmr.vehicle_registration, null);

    fieldError(await give(carrier, { plate: 'x', driver: 'Jan' }), 'order.plate_invalid', 'plate');
    fieldError(await give(carrier, { plate: 'EL 12345', driver: '  ' }), 'order.driver_invalid', 'driver');
    fieldError(await give(carrier, { plate: 'EL 12345', driver: 'Jan', driver_phone: 'call me' }), 'order.phone_invalid', 'driver_phone');
    refused(await give(shipper, { plate: 'EL 12345', driver: 'Jan' }), 'order.carrier_only');
    assert.equal((await give(outsider, { plate: 'EL 12345', driver: 'Jan' })).status, 404);
    assert.deepEqual(success(await orderOf(shipper)), first, 'nothing changed');

    const given = success(await give(carrier, { plate: ' EL  12345 / EL 6789 ', driver: 'Jan Kowalski', driver_phone: '+48 600 100 200' }));
    assert.equal(given.version, 2);
    const transport = {
      used_transport_means: { id: 'EL 12345 / EL 6789' },
      driver: { name: 'Jan Kowalski', telephone: '+48 600 100 200' },
    };
    assert.deepEqual(given.order.transport, transport);
    refused(
      await give(carrier, { plate: 'EL 12345 / EL 6789', driver: 'Jan Kowalski', driver_phone: '+48 600 100 200' }),
      'order.unchanged',
    );

    const now = success(await orderOf(shipper));
    assert.equal(now.version, 2);
    assert.deepEqual(now.order, given.order);
    // Everything else as agreed: only the version and the truck differ.
    const { version: _v, version_issued: _vi, transport: _t, ...rest } = now.order;
    const { version: _v1, version_issued: _vi1, transport: _t1, ...rest1 } = first.order;
    assert.deepEqual(rest, rest1);
    assert.deepEqual(
      now.versions.map((v: any) => [v.version, v.document.sha256]),
      [
        [2, now.document.sha256],
        [1, first.document.sha256],
      ],
    );
    // Version 1 is kept byte for byte; version 2 prints the truck and embeds its JSON.
    assert.equal(sha256((await download(app, carrier, first.document.id)).bytes), first.document.sha256);
    const got = await download(app, shipper, now.document.id);
    assert.equal(sha256(got.bytes), now.document.sha256);
    const text = await pdfText(got.bytes);
    for (const words of [
      'Registration (plate) / Kennzeichen: EL 12345 / EL 6789',
      'Jan Kowalski',
      '+48 600 100 200',
      '1,250.5 kg / 1.250,5 kg',
      '2031-11-28 08:00 / 28.11.2031 08:00',
      'Meble Nowak Sp. z o.o.',
      'LADE-1',
      '45 days after invoice / 45 Tage nach Rechnung',
    ])
      assert.ok(text.includes(words), words);
    const embedded = (await pdfAttachments(got.bytes)).get(`transport-order-${freight}-v2.json`);
    assert.ok(embedded, 'the version’s JSON is embedded');
    assert.deepEqual(JSON.parse(embedded.toString('utf8')), now.order);
    // document.added to the owner (the carrier did it).
    const events = await app.services.db
      .selectFrom('events')
      .select(['company_id', 'body'])
      .where('type', '=', 'document.added')
      .where('freight_id', '=', freight)
      .execute();
    const told = events.filter((e) => JSON.parse(e.body).data.document.id === now.document.id).map((e) => e.company_id);
    assert.deepEqual(told, [shipper.company]);

    // The unsigned e-CMR follows: the plate beside box 16, its first link rewritten, the same number.
    const cmr = success(await cmrOf(carrier)).cmr;
    assert.equal(cmr.vehicle_registration, 'EL 12345 / EL 6789');
    assert.equal(cmr.number, firstCmr.number);
    assert.notEqual(cmr.hash, firstCmr.hash);
    assert.equal(success(await app.get(`/cmr/verify/${cmr.number}.json?hash=${cmr.hash}`)).valid, true);

    // From the first signature on the note is frozen: a third version leaves it as signed.
    success(await app.post(`/freights/cmr-sign/${freight}.json`, { token: shipper.token, json: { role: 'sender', name: 'Anna Müller' } }));
    const signed = success(await cmrOf(shipper)).cmr;
    success(await give(carrier, { plate: 'EL 99999', driver: 'Piotr Nowak' }));
    assert.equal(success(await orderOf(carrier)).version, 3);
    assert.deepEqual(success(await cmrOf(shipper)).cmr, signed);
    // And the database refuses a change of a signed note, whoever asks.
    await assert.rejects(
      app.services.db.updateTable('cmr_notes').set({ content: '{}' }).where('freight_id', '=', freight).execute(),
      /frozen/,
    );
  });

  test('the page: the carrier’s form issues the next version; the owner sees the vehicle and downloads it (German)', async () => {
    const winner = await browserSession(app, carrier);
    const page = await app.get(`/freights/view/${freight}`, { headers: { cookie: winner.cookie } });
    assert.ok(page.text.includes('data-testid="order-transport"'), 'the carrier is offered the form');
    const res = await app.post(`/freights/order-transport/${freight}`, {
      headers: { cookie: winner.cookie },
      form: { _csrf: csrfOf(page.text), plate: 'WE 4242X', driver: 'Ewa Zielińska', driver_phone: '' },
    });
    assert.equal(res.status, 302, res.text);
    assert.equal(flashOf(res)?.ok, true);
    const owner = await browserSession(app, shipper);
    const ownerPage = await app.get(`/freights/view/${freight}`, { headers: { cookie: owner.cookie } });
    assert.ok(!ownerPage.text.includes('data-testid="order-transport"'), 'the owner has no form');
    assert.match(ownerPage.text, /data-testid="order-vehicle"[^>]*>[^<]*WE 4242X[^<]*Ewa Zielińska/);
    const { document, version } = success(await orderOf(shipper));
    assert.equal(version, 4);
    assert.ok(ownerPage.text.includes(`href="/freights/document/${document.id}"`));
    assert.match(ownerPage.text, /data-testid="order-earlier"/);
  });
});
