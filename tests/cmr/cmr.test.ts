import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import jsQRModule from 'jsqr';
import { sql } from 'kysely';
import { openFreight } from '../freights/helpers.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { pdfAttachments, pdfImages, pdfText } from '../support/pdf.ts';
import { download, success } from '../deals/helpers.ts';

/**
 * The canonical form and the chain as docs/choices.md ("The e-CMR's hash chain") writes them
 * down, implemented here from that text alone: members sorted by name, no white space, strings
 * as JSON writes them; link 0 = SHA-256 of the issued note (data.cmr without status, signatures
 * and hash), each signature's link = SHA-256 of the previous link's hex followed by its entry.
 */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
const jsQR = ((jsQRModule as unknown as { default?: unknown }).default ?? jsQRModule) as unknown as (
  data: Uint8ClampedArray,
  w: number,
  h: number,
) => { data: string } | null;
const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
function chainOf(cmr: any): string[] {
  const { status: _s, signatures, hash: _h, ...note } = cmr;
  const links = [sha(canonical(note))];
  for (const s of signatures)
    links.push(sha(links.at(-1)! + canonical({ role: s.role, name: s.name, at: s.at, reservations: s.reservations })));
  return links;
}

/** The verifier docs/choices.md prints ("The e-CMR's hash chain"), loaded from the document itself. */
async function docsVerifier(): Promise<(cmr: unknown) => string[]> {
  const text = fs.readFileSync(new URL('../../docs/choices.md', import.meta.url), 'utf8');
  const block = text.split('<!-- e-cmr-verifier -->')[1]?.match(/```js\n([\s\S]*?)```/)?.[1];
  assert.ok(block, 'docs/choices.md prints the verifier');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cmr-verifier-')), 'verifier.mjs');
  fs.writeFileSync(file, block);
  return (await import(pathToFileURL(file).href)).chain;
}

function refused(res: { status: number; body: any; text: string }, code: string) {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'error', res.text);
  assert.equal(res.body.code, code, res.text);
}

describe(`the e-CMR (docs/reference.md#ecmr) (${TEST_DB})`, () => {
  let app: TestApp;
  let shipper: Actor, carrier: Actor, outsider: Actor;
  let freight: number;

  const award = async (json: Record<string, unknown>) => {
    const id = await openFreight(app, shipper, json);
    const bid = success(
      await app.post('/quotes/add.json', { token: carrier.token, json: { route: id, amount: '980.00', currency_code: 'EUR' } }),
    ).bid;
    assert.equal((await app.post(`/quotes/confirm/${bid.id}.json`, { token: shipper.token })).status, 302);
    success(await app.post(`/quotes/confirm/${bid.id}.json`, { token: carrier.token }));
    return id;
  };
  const cmrOf = (who: Actor, id = freight) => app.get(`/freights/cmr/${id}.json`, { token: who.token });
  const sign = (who: Actor, json: Record<string, unknown>, id = freight) =>
    app.post(`/freights/cmr-sign/${id}.json`, { token: who.token, json });
  const verify = (number: string, hash: string) => app.get(`/cmr/verify/${number}.json?hash=${hash}`);

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin', PUBLIC_URL: 'https://fx.example' } });
    shipper = await app.actor('Müller Logistik');
    carrier = await app.actor('Przewozy Łódź');
    outsider = await app.actor('Outsider');
    for (const who of [shipper, carrier])
      success(
        await app.post('/webhooks/add.json', { token: who.token, json: { url: `http://127.0.0.1:9/c/${who.company}`, events: ['*'] } }),
      );
    success(
      await app.post('/companies/edit.json', {
        token: shipper.token,
        json: { country: 'DE', city: 'Düsseldorf', postcode: '40213', vat_id: 'DE136695976' },
      }),
    );
    freight = await award({
      from_country: 'DE',
      from_addr: 'Königsallee 1, Düsseldorf',
      to_country: 'PL',
      to_addr: 'ul. Piotrkowska 5, Łódź',
      weight: 4200.5,
      etd: '2031-05-05 08:00',
      eta: '2031-05-06 09:00',
      dangerous_goods: 'UN 1263, 3, III',
      pieces: [
        { pieces: 6, depth: 120, width: 80, height: 150, weight: 500 },
        { pieces: 2, depth: 120, width: 100, height: 100, weight: 0.1, weight_per_piece: 1 },
      ],
      refs: { customer: 'PO-4711 Möbel', commodity: 'Möbel und Küchengeräte' },
    });
  });
  after(() => app?.close());

  test('issued on award from the transport order: the boxes, status issued, the first link recomputed from the documented form', async () => {
    const { cmr } = success(await cmrOf(shipper));
    assert.deepEqual(success(await cmrOf(carrier)).cmr, cmr);
    assert.match(cmr.number, /^CMR-\d{4}-\d{6,}$/);
    assert.equal(cmr.freight, freight);
    assert.equal(cmr.status, 'issued');
    assert.deepEqual(cmr.signatures, []);
    assert.deepEqual(cmr.sender, {
      name: shipper.companyName,
      postal_address: { postcode: '40213', city_name: 'Düsseldorf', country_code: 'DE' },
      tax_registration: { id: 'DE136695976' },
    });
    assert.equal(cmr.carrier.name, carrier.companyName);
    assert.equal(cmr.consignee.name, null);
    assert.deepEqual(cmr.delivery_place, { id: cmr.delivery_place.id, name: 'ul. Piotrkowska 5, Łódź', country_code: 'PL' });
    assert.equal(cmr.taking_over.name, 'Königsallee 1, Düsseldorf');
    assert.equal(cmr.taking_over.date, '2031-05-05');
    // Weights as exact decimal text: 2 × 0.1 kg per package is 0.2, not 0.2000000000000000111.
    assert.deepEqual(cmr.goods, [
      { marks: 'PO-4711 Möbel', packages: 6, nature: 'Möbel und Küchengeräte', gross_weight: '500' },
      { marks: 'PO-4711 Möbel', packages: 2, nature: 'Möbel und Küchengeräte', gross_weight: '0.2' },
    ]);
    assert.equal(cmr.gross_weight, '4200.5');
    assert.equal(cmr.dangerous_goods, 'UN 1263, 3, III');
    assert.deepEqual(chainOf(cmr), [cmr.hash]);
    // Anyone else: 404, like the freight's documents.
    assert.equal((await cmrOf(outsider)).status, 404);
    assert.equal((await sign(outsider, { role: 'carrier', name: 'X' })).status, 404);
    assert.equal((await app.get(`/freights/cmr/999999.json`, { token: shipper.token })).status, 404);
  });

  test('refusals change nothing: bad input, the wrong company, the consignee here', async () => {
    const before = success(await cmrOf(shipper)).cmr;
    const field = (res: any, code: string, name: string) => {
      refused(res, code);
      assert.deepEqual(
        res.body.data.errors.map((e: { field: string }) => e.field),
        [name],
      );
    };
    field(await sign(carrier, { role: 'driver', name: 'Jan' }), 'cmr.role_invalid', 'role');
    field(await sign(carrier, { role: 'carrier', name: '   ' }), 'cmr.name_invalid', 'name');
    field(await sign(carrier, { role: 'carrier', name: 'x'.repeat(101) }), 'cmr.name_invalid', 'name');
    field(
      await sign(carrier, { role: 'carrier', name: 'Jan', reservations: 'r'.repeat(2001) }),
      'cmr.reservations_invalid',
      'reservations',
    );
    field(await sign(carrier, { role: 'carrier', name: 'Jan', reservations: { a: 1 } }), 'cmr.reservations_invalid', 'reservations');
    refused(await sign(shipper, { role: 'carrier', name: 'Anna' }), 'cmr.wrong_party');
    refused(await sign(carrier, { role: 'sender', name: 'Jan' }), 'cmr.wrong_party');
    refused(await sign(carrier, { role: 'consignee', name: 'Jan' }), 'cmr.consignee_by_link');
    assert.deepEqual(success(await cmrOf(shipper)).cmr, before);
  });

  test('carrier then sender: loaded; a role twice refused; every link recomputed; a PDF per signature with the QR of the verify address', async () => {
    // 2,000 characters of reservations, emoji counted as one each.
    const reservations = `2 pallets wrapped torn 📦${'.'.repeat(1976)}`;
    assert.equal([...reservations].length, 2000);
    const first = success(await sign(carrier, { role: 'carrier', name: ' Jan Kowalski ', reservations }));
    assert.equal(first.cmr.status, 'issued');
    assert.deepEqual(
      first.cmr.signatures.map((s: any) => [s.role, s.name, s.reservations]),
      [['carrier', 'Jan Kowalski', reservations]],
    );
    refused(await sign(carrier, { role: 'carrier', name: 'Jan' }), 'cmr.already_signed');
    const second = success(await sign(shipper, { role: 'sender', name: 'Anna Müller' }));
    assert.equal(second.cmr.status, 'loaded');
    assert.equal(second.cmr.signatures[1].reservations, null);
    refused(await sign(shipper, { role: 'sender', name: 'Anna' }), 'cmr.already_signed');
    const { cmr } = success(await cmrOf(carrier));
    assert.deepEqual(cmr, second.cmr);
    const links = chainOf(cmr);
    assert.deepEqual(
      cmr.signatures.map((s: any) => s.hash),
      links.slice(1),
    );
    assert.equal(cmr.hash, links.at(-1));
    assert.match(cmr.signatures[0].at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // A PDF per signature among the documents, kind cmr, its bytes as listed.
    const docs = success(await app.get(`/freights/documents/${freight}.json`, { token: shipper.token })).documents.filter(
      (d: any) => d.kind === 'cmr',
    );
    assert.equal(docs.length, 2);
    assert.equal(docs[1].id, second.document.id);
    assert.equal(docs[1].company.id, shipper.company);
    const pdf = await download(app, carrier, second.document.id);
    assert.equal(pdf.status, 200);
    assert.equal(createHash('sha256').update(pdf.bytes).digest('hex'), second.document.sha256);
    const text = await pdfText(pdf.bytes);
    for (const expected of [
      cmr.number,
      'Jan Kowalski',
      'Anna Müller',
      '2 pallets wrapped torn',
      cmr.hash,
      'Möbel und Küchengeräte',
      '4200.5 kg',
    ])
      assert.ok(text.includes(expected), `the PDF prints ${expected}`);
    const embedded = (await pdfAttachments(pdf.bytes)).get(`${cmr.number}.json`);
    assert.deepEqual(JSON.parse(embedded!.toString('utf8')), cmr);
    const [qr] = await pdfImages(pdf.bytes);
    assert.ok(qr, 'the PDF has the QR image');
    const read = jsQR(qr.rgba, qr.width, qr.height);
    assert.equal(read?.data, `https://fx.example/cmr/verify/${cmr.number}?hash=${cmr.hash}`);

    // Events: cmr.signed to the other party only, each with its signature and the document.
    const events = await sql<{
      company_id: number;
      body: string;
    }>`select company_id, body from events where type = 'cmr.signed' order by seq`.execute(app.database.db);
    assert.deepEqual(
      events.rows.map((e) => e.company_id),
      [shipper.company, carrier.company],
    );
    const payload = JSON.parse(events.rows[1]!.body).data;
    assert.equal(payload.cmr.signature.role, 'sender');
    assert.equal(payload.cmr.status, 'loaded');
    assert.equal(payload.document.kind, 'cmr');
  });

  test('verify: each link valid, anything else not, the status; nothing else; a tampered row breaks the chain', async () => {
    const { cmr } = success(await cmrOf(shipper));
    for (const link of chainOf(cmr)) {
      const res = await verify(cmr.number, link);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data, { valid: true, status: 'loaded' });
    }
    assert.deepEqual(success(await verify(cmr.number, cmr.hash.toUpperCase())), { valid: true, status: 'loaded' });
    assert.deepEqual(success(await verify(cmr.number, sha('other'))), { valid: false, status: 'loaded' });
    assert.deepEqual(success(await verify(cmr.number, 'zz')), { valid: false, status: 'loaded' });
    assert.equal((await verify('CMR-1999-000000', cmr.hash)).status, 404);
    assert.equal((await verify('%27%3B--', cmr.hash)).status, 404);
    // The page, without login, says the same.
    const page = await app.get(`/cmr/verify/${cmr.number}?hash=${cmr.hash}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Valid: this hash is in the signature chain/);

    // The tables refuse a change; written around the trigger, verify sees it.
    await assert.rejects(sql`update cmr_signatures set name = 'x' where false`.execute(app.database.db)); // no such column either way
    await assert.rejects(sql`update cmr_notes set content = content`.execute(app.database.db), /frozen at its first signature/);
    await sql`alter table cmr_signatures disable trigger cmr_signatures_append_only`.execute(app.database.db);
    try {
      await sql`update cmr_signatures set entry = replace(entry, 'Anna Müller', 'Anna Muller') where role = 'sender'`.execute(
        app.database.db,
      );
      for (const link of chainOf(cmr)) assert.deepEqual(success(await verify(cmr.number, link)), { valid: false, status: 'loaded' });
      await sql`update cmr_signatures set entry = replace(entry, 'Anna Muller', 'Anna Müller') where role = 'sender'`.execute(
        app.database.db,
      );
    } finally {
      await sql`alter table cmr_signatures enable trigger cmr_signatures_append_only`.execute(app.database.db);
    }
    assert.deepEqual(success(await verify(cmr.number, cmr.hash)), { valid: true, status: 'loaded' });
  });

  test('the consignee signs through its link: before loading refused, then delivered with the freight, the links end', async () => {
    // The owner does not issue it; anyone else does not see it.
    refused(await app.post(`/freights/cmr-link/${freight}.json`, { token: shipper.token }), 'cmr.link_by_carrier');
    assert.equal((await app.post(`/freights/cmr-link/${freight}.json`, { token: outsider.token })).status, 404);
    // A second note not loaded yet: the consignee waits for sender and carrier.
    const other = await award({ to_country: 'AT', weight: 300 });
    const early = success(await app.post(`/freights/cmr-link/${other}.json`, { token: carrier.token })).link;
    const earlyToken = early.url.split('/').at(-1);
    refused(await app.post(`/cmr/consignee/${earlyToken}.json`, { json: { name: 'Eva' } }), 'cmr.not_loaded');
    assert.equal(success(await cmrOf(shipper, other)).cmr.signatures.length, 0);

    const { link } = success(await app.post(`/freights/cmr-link/${freight}.json`, { token: carrier.token }));
    assert.match(link.url, /^https:\/\/fx\.example\/cmr\/consignee\/[A-Za-z0-9_-]{43}$/);
    assert.match(link.expires, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const token = link.url.split('/').at(-1);
    // The link opens the note, without login, and nothing else.
    const opened = success(await app.get(`/cmr/consignee/${token}.json`));
    assert.deepEqual(opened.cmr, success(await cmrOf(shipper)).cmr);
    assert.equal((await app.get(`/cmr/consignee/${token.slice(0, -1)}x.json`)).status, 404);
    assert.equal((await app.get(`/cmr/consignee/${earlyToken}.json`)).body.data.cmr.freight, other);
    // The page in the language chosen on it.
    const german = await app.get(`/cmr/consignee/${token}?lang=deu`);
    assert.equal(german.status, 200);
    assert.match(german.text, /Frachtbrief .* unterschreiben/);
    assert.match((await app.get(`/cmr/consignee/${token}?lang=eng`)).text, /Sign the consignment note/);
    // Bad input changes nothing.
    const bad = await app.post(`/cmr/consignee/${token}.json`, { json: { name: '' } });
    refused(bad, 'cmr.name_invalid');
    refused(
      await app.post(`/cmr/consignee/${token}.json`, { json: { name: 'Eva', reservations: 'x'.repeat(2001) } }),
      'cmr.reservations_invalid',
    );

    const signed = success(await app.post(`/cmr/consignee/${token}.json`, { json: { name: 'Eva Nowak', reservations: 'Carton 3 wet' } }));
    assert.equal(signed.cmr.status, 'delivered');
    assert.deepEqual(
      signed.cmr.signatures.map((x: any) => x.role),
      ['carrier', 'sender', 'consignee'],
    );
    assert.deepEqual(
      chainOf(signed.cmr).slice(1),
      signed.cmr.signatures.map((x: any) => x.hash),
    );
    // The documented verifier, run as printed, agrees with the server link for link.
    const documented = await docsVerifier();
    assert.deepEqual(documented(signed.cmr), chainOf(signed.cmr));
    assert.equal(documented(signed.cmr).at(-1), signed.cmr.hash);
    // The delivery recorded: the same transition as the delivery status.
    const view = success(await app.get(`/freights/view/${freight}.json`, { token: shipper.token })).route;
    assert.equal(view.status, 'closed');
    assert.equal(view.delivery_status, 3);
    // The link ended with the delivery; the other freight's links stay.
    assert.equal((await app.get(`/cmr/consignee/${token}.json`)).status, 404);
    assert.equal((await app.post(`/cmr/consignee/${token}.json`, { json: { name: 'Eva' } })).status, 404);
    assert.equal((await app.get(`/cmr/consignee/${earlyToken}.json`)).status, 200);
    // Both parties hear of it; the verify page says delivered.
    const events = await sql<{
      company_id: number;
      body: string;
    }>`select company_id, body from events where type = 'cmr.signed' and freight_id = ${freight} order by seq`.execute(app.database.db);
    assert.deepEqual(
      events.rows
        .slice(2)
        .map((e) => e.company_id)
        .sort(),
      [shipper.company, carrier.company].sort(),
    );
    assert.deepEqual(success(await verify(signed.cmr.number, signed.cmr.hash)), { valid: true, status: 'delivered' });
    // Signed and delivered: no more signatures.
    refused(await sign(shipper, { role: 'sender', name: 'Anna' }), 'cmr.already_signed');
  });

  test('no note for an air freight', async () => {
    const air = await award({ class: 'air', from: 'airport:FRA', to: 'airport:JFK', weight: 100 });
    assert.deepEqual(success(await app.get(`/freights/view/${air}.json`, { token: shipper.token })).route.media_types, ['air']);
    assert.equal((await cmrOf(shipper, air)).status, 404);
    assert.equal(success(await app.get(`/freights/order/${air}.json`, { token: shipper.token })).order.freight, air);
  });
});
