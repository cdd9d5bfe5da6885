import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import { TEST_DB } from '../support/databases.ts';
import { bidOn, confirmBoth } from '../support/fixtures.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { pdfAttachments, pdfText } from '../support/pdf.ts';
import { browserSession, csrfOf } from '../support/session.ts';
import { documents, download, fieldError, JPEG, PDF, success } from './helpers.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The internal ids (the JSON keeps them, the PDF names companies and the display id) and the values printed in both readers' formats. */
const NOT_PRINTED_AS_IS = new Set(['id', 'freight', 'bid', 'version', 'gross_weight']);
const STAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The values of the order the PDF prints as they are: every leaf but the ids, the weights and the times (formatted). */
function printed(value: unknown, key = ''): Array<string | number> {
  if (NOT_PRINTED_AS_IS.has(key)) return [];
  if (typeof value === 'string') return STAMP.test(value) ? [] : [value];
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap((v) => printed(v));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => printed(v, k));
  return [];
}

/**
 * docs/reference.md#deal-room and docs/choices.md "The transport order", "Proof of delivery": the order's
 * content complete (both companies with address and VAT id, who confirmed on each side, route,
 * windows, goods, price, references), the JSON equal to what the PDF prints and embeds, the
 * SHA-256 of the bytes on the page; the proof of delivery that marks the freight delivered.
 */
describe(`the transport order and the proof of delivery (${TEST_DB})`, () => {
  let app: TestApp;
  let shipper: Actor, carrier: Actor, colleague: Actor, outsider: Actor;
  let freight: number;
  let bidId: number;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    shipper = await app.actor('Müller Logistik');
    carrier = await app.actor('Przewozy Łódź');
    colleague = await app.colleague(carrier, 'dispatcher');
    outsider = await app.actor('Outsider');
    // Events are written for companies with a webhook (the outbox): both parties subscribe.
    for (const who of [shipper, carrier])
      success(
        await app.post('/webhooks/add.json', { token: who.token, json: { url: `http://127.0.0.1:9/c/${who.company}`, events: ['*'] } }),
      );
    success(
      await app.post('/companies/edit.json', {
        token: shipper.token,
        json: { country: 'DE', city: 'Düsseldorf', postcode: '40213', vat_id: 'DE136695976', phone: '+49 211 1234567' },
      }),
    );
    success(
      await app.post('/companies/edit.json', {
        token: carrier.token,
        json: { country: 'PL', city: 'Łódź', postcode: '90-001', vat_id: 'PL5260001246', phone: '+48 42 555 0100' },
      }),
    );
    freight = await openFreight(app, shipper, {
      from_country: 'DE',
      from_addr: 'Königsallee 1, Düsseldorf',
      to_country: 'PL',
      to_addr: 'ul. Piotrkowska 5, Łódź',
      weight: 4200,
      etd: '2031-05-05 08:00',
      etd_range: '2031-05-05 08:00 to 2031-05-05 12:00',
      eta: '2031-05-06 09:00',
      dangerous_goods: 'UN 1263, 3, III',
      pieces: [
        { pieces: 6, depth: 120, width: 80, height: 150, weight: 500, stackable: 0 },
        { pieces: 2, depth: 120, width: 100, height: 100, weight: 600 },
      ],
      refs: {
        customer: 'PO-4711 Möbel',
        external_ref: 'EXT-9',
        loading_ref: 'LADE-0815',
        commodity: 'Möbel und Küchengeräte',
        incoterm: 'dap',
        consignee: 'Meble Nowak Sp. z o.o., ul. Piotrkowska 5, 90-001 Łódź',
        payment_days: 30,
      },
    });
    const bid = success(
      await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount: '1745.50', currency_code: 'EUR' } }),
    ).bid;
    bidId = bid.id;
    // A colleague of the carrier confirms for it, after the shipper: the order names both users.
    assert.equal((await app.post(`/quotes/confirm/${bidId}.json`, { token: shipper.token })).status, 302);
    success(await app.post(`/quotes/confirm/${bidId}.json`, { token: colleague.token }));
  });
  after(() => app?.close());

  const orderOf = async (who: Actor, id = freight) => app.get(`/freights/order/${id}.json`, { token: who.token });

  test('the order is complete: both companies with address and VAT id, the confirming users, route, goods, price, references', async () => {
    const { order, document } = success(await orderOf(shipper));
    assert.equal(order.format, 'freight-exchange/transport-order/3');
    assert.equal(order.freight, freight);
    assert.equal(order.version, 1);
    assert.equal(order.version_issued, order.issued);
    assert.equal(order.bid, bidId);
    assert.equal(order.timezone, 'Europe/Berlin');
    assert.match(order.issued, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Named as the EU eFTI common data set names the consignment (docs/choices.md, "The transport order").
    assert.deepEqual(order.consignor, {
      id: shipper.company,
      name: shipper.companyName,
      postal_address: { postcode: '40213', city_name: 'Düsseldorf', country_code: 'DE' },
      tax_registration: { id: 'DE136695976' },
      confirmed_by: { id: shipper.user, name: shipper.email, email: shipper.email },
      confirmed: order.consignor.confirmed,
      // The publishing user and its company's phone (a user keeps none of its own).
      defined_trade_contact: { person_name: shipper.email, telephone: '+49 211 1234567', email: shipper.email },
    });
    assert.deepEqual(order.carrier, {
      id: carrier.company,
      name: carrier.companyName,
      postal_address: { postcode: '90-001', city_name: 'Łódź', country_code: 'PL' },
      tax_registration: { id: 'PL5260001246' },
      confirmed_by: { id: colleague.user, name: colleague.email, email: colleague.email },
      confirmed: order.issued,
      // The bidding user, not the colleague who confirmed.
      defined_trade_contact: { person_name: carrier.email, telephone: '+48 42 555 0100', email: carrier.email },
    });
    assert.ok(order.consignor.confirmed <= order.issued);
    assert.deepEqual(order.consignee, { name: 'Meble Nowak Sp. z o.o., ul. Piotrkowska 5, 90-001 Łódź' });
    assert.deepEqual(order.carrier_acceptance_location, {
      id: 'FRA',
      name: 'Königsallee 1, Düsseldorf',
      postal_address: { country_code: 'DE' },
      scheduled_occurrence_period: { start_date_time: '2031-05-05 08:00:00', end_date_time: '2031-05-05 12:00:00' },
    });
    assert.equal(order.consignee_receipt_location.name, 'ul. Piotrkowska 5, Łódź');
    assert.deepEqual(order.consignee_receipt_location.postal_address, { country_code: 'PL' });
    assert.deepEqual(order.consignee_receipt_location.scheduled_occurrence_period, {
      start_date_time: '2031-05-06 09:00:00',
      end_date_time: '2031-05-06 09:00:00',
    });
    assert.deepEqual(order.nature_identification_cargo, { identification_text: 'Möbel und Küchengeräte' });
    assert.equal(order.gross_weight, 4200);
    assert.equal(order.number_of_packages, 8);
    assert.deepEqual(order.included_consignment_item, [
      {
        goods_unit_quantity: 6,
        dimensions: { length: 120, width: 80, height: 150 },
        gross_weight: 500,
        weight_per_package: false,
        stackable: false,
      },
      {
        goods_unit_quantity: 2,
        dimensions: { length: 120, width: 100, height: 100 },
        gross_weight: 600,
        weight_per_package: false,
        stackable: null,
      },
    ]);
    assert.deepEqual(order.dangerous_goods, { information: 'UN 1263, 3, III' });
    assert.deepEqual(order.applicable_service_charge, { applied_amount: '1745.50', currency_id: 'EUR' });
    assert.deepEqual(order.references, { customer: 'PO-4711 Möbel', external_ref: 'EXT-9', loading_ref: 'LADE-0815', incoterm: 'dap' });
    assert.deepEqual(order.payment_terms, { due_days: 30 });
    assert.equal(order.transport, null);
    assert.equal(document.kind, 'order');
    assert.equal(document.company, null);
    // The winner reads the same; the outsider and a freight without an order: 404.
    assert.deepEqual(success(await orderOf(carrier)).order, order);
    assert.equal((await orderOf(outsider)).status, 404);
    const open = await openFreight(app, shipper);
    assert.equal((await orderOf(shipper, open)).status, 404);
  });

  test('the PDF prints every value of the JSON (umlauts, Polish letters, €), embeds the same JSON, and its SHA-256 is the one shown', async () => {
    const { order, document } = success(await orderOf(carrier));
    const got = await download(app, carrier, document.id);
    assert.equal(got.status, 200);
    assert.equal(got.headers['content-type'], 'application/pdf');
    assert.equal(sha256(got.bytes), document.sha256, 'the listed SHA-256 is the bytes’');
    assert.equal(got.bytes.length, document.size);
    const listed = success(await documents(app, shipper, freight)).documents.find((d: any) => d.kind === 'order');
    assert.equal(listed.sha256, document.sha256);

    const text = await pdfText(got.bytes);
    // Every value but the internal ids, times and weights in both readers' formats (English first, as the labels).
    for (const value of printed(order)) assert.ok(text.includes(String(value)), `the PDF prints ${JSON.stringify(value)}`);
    for (const id of [`company ${shipper.company}`, `company ${carrier.company}`, `Bid ${bidId}`, `user ${shipper.user}`])
      assert.ok(!text.includes(id), `no internal id: ${id}`);
    for (const words of [
      'Transport order / Transportauftrag PO-4711 Möbel',
      // The loading window in both readers' formats (a line may wrap after its dash).
      'Window / Zeitfenster: 2031-05-05 08:00–',
      '05.05.2031 08:00–',
      'Gross weight / Bruttogewicht (CMR 11)',
      '4,200 kg / 4.200 kg',
      'Loading reference / Ladereferenz',
      'LADE-0815',
      '30 days after invoice / 30 Tage nach Rechnung',
      'Contact / Ansprechpartner',
      'to be given by the carrier',
      'Consignor (client) / Absender (Auftraggeber) (CMR 1)',
      'Carrier / Frachtführer (CMR 16)',
      'Place of taking over / Übernahmeort (CMR 4)',
      'Gross weight / Bruttogewicht (CMR 11)',
      '€1,745.50 · 1.745,50 €',
    ])
      assert.ok(text.includes(words), words);
    // The same JSON, embedded: the PDF's SHA-256 proves it too.
    const embedded = (await pdfAttachments(got.bytes)).get(`transport-order-${freight}.json`);
    assert.ok(embedded, 'the JSON is embedded');
    assert.deepEqual(JSON.parse(embedded.toString('utf8')), order);

    // The freight page shows the SHA-256 to both parties, with the PDF and the JSON.
    for (const who of [shipper, carrier]) {
      const { cookie } = await browserSession(app, who);
      const page = await app.get(`/freights/view/${freight}`, { headers: { cookie } });
      const shown = /data-testid="order-sha256"[^>]*>([0-9a-f]+)</.exec(page.text)?.[1];
      assert.equal(shown, document.sha256, 'the page shows the SHA-256');
      assert.ok(page.text.includes(`href="/freights/order/${freight}.json"`));
      assert.ok(page.text.includes(`href="/freights/document/${document.id}"`));
    }
  });

  test('proof of delivery: refused files and outsiders change nothing; the winner’s POD marks the freight delivered', async () => {
    const pod = (who: Actor, json: Record<string, unknown>, id = freight) =>
      app.post(`/freights/pod/${id}.json`, { token: who.token, json });
    const status = async () =>
      await app.services.db
        .selectFrom('freights')
        .select(['status', 'delivery_status'])
        .where('id', '=', freight)
        .executeTakeFirstOrThrow();
    assert.equal((await pod(outsider, { name: 'pod.pdf', content: PDF.toString('base64') })).status, 404);
    fieldError(
      await pod(carrier, { name: 'pod.txt', content: Buffer.from('hello').toString('base64') }),
      'documents.type_refused',
      'content',
    );
    fieldError(await pod(carrier, { name: '', content: PDF.toString('base64') }), 'documents.name_invalid', 'name');
    assert.deepEqual(await status(), { status: 'taken', delivery_status: 0 });
    assert.equal(success(await documents(app, shipper, freight)).documents.filter((d: any) => d.kind === 'pod').length, 0);

    const done = success(await pod(carrier, { name: 'POD signed.jpg', content: JPEG.toString('base64') }));
    assert.equal(done.document.kind, 'pod');
    assert.equal(done.document.type, 'image/jpeg');
    assert.equal(done.document.company.id, carrier.company);
    assert.deepEqual(done.freight, { id: freight, status: 'closed', delivery_status: 3 });
    assert.deepEqual(await status(), { status: 'closed', delivery_status: 3 });
    // The shipper downloads the exact file.
    const got = await download(app, shipper, done.document.id);
    assert.ok(got.bytes.equals(JPEG));
    // Events: the document to the shipper, the delivery status to both.
    const events = await app.services.db
      .selectFrom('events')
      .select(['type', 'company_id'])
      .where('freight_id', '=', freight)
      .where('type', 'in', ['document.added', 'freight.delivery_status'])
      .where('company_id', 'is not', null)
      .execute();
    const podEvents = events.filter((e) => e.type === 'document.added').map((e) => e.company_id!);
    // The transport order went to both parties; the POD to the shipper only.
    assert.deepEqual(
      podEvents.sort((a, b) => a - b),
      [shipper.company, carrier.company, shipper.company].sort((a, b) => a - b),
    );
    assert.deepEqual(
      events
        .filter((e) => e.type === 'freight.delivery_status')
        .map((e) => e.company_id!)
        .sort((a, b) => a - b),
      [shipper.company, carrier.company].sort((a, b) => a - b),
    );
    // Once delivered, a second proof of delivery is refused with its code; the freight stays closed.
    const again = await pod(carrier, { name: 'again.pdf', content: PDF.toString('base64') });
    assert.equal(again.body.status, 'error', again.text);
    assert.equal(again.body.code, 'pod.not_taken');
    assert.equal(success(await documents(app, shipper, freight)).documents.filter((d: any) => d.kind === 'pod').length, 1);
  });

  test("the page's proof of delivery (multipart): the winner is offered it, the owner waits for it", async () => {
    const taken = await openFreight(app, shipper);
    await confirmBoth(app, shipper, carrier, (await bidOn(app, carrier, taken, '500.00')).id);
    const owner = await browserSession(app, shipper);
    const ownerPage = await app.get(`/freights/view/${taken}`, { headers: { cookie: owner.cookie } });
    assert.ok(!ownerPage.text.includes('data-testid="pod-step"'));
    assert.ok(ownerPage.text.includes('data-testid="pod-waiting"'));
    const winner = await browserSession(app, carrier);
    const page = await app.get(`/freights/view/${taken}`, { headers: { cookie: winner.cookie } });
    assert.ok(page.text.includes('data-testid="pod-step"'));
    const boundary = '----pod';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrfOf(page.text)}\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="POD.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      PDF,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await app.http.inject({
      method: 'POST',
      url: `/freights/pod-upload/${taken}`,
      headers: { cookie: winner.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(res.headers.location, `/freights/view/${taken}#documents`);
    const row = await app.services.db
      .selectFrom('freights')
      .select(['status', 'delivery_status'])
      .where('id', '=', taken)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'closed', delivery_status: 3 });
    const after = await app.get(`/freights/view/${taken}`, { headers: { cookie: winner.cookie } });
    assert.ok(!after.text.includes('data-testid="pod-step"'), 'delivered: no longer offered');
  });
});
