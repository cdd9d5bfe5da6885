import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import { bidOn, confirmBoth } from '../support/fixtures.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { pdfText } from '../support/pdf.ts';
import { browserSession, csrfOf } from '../support/session.ts';
import { attach, documents, download, EXE, fieldError, flashOf, JPEG, PDF, pdfOf, PNG, success } from './helpers.ts';

/** docs/reference.md#deal-room: "at most 10 MB", read as SI megabytes (docs/choices.md, "Deal room"). */
const MAX = 10_000_000;

/** docs/reference.md#deal-room: the documents of a freight's two parties, their bounds, their download and the transport order. */
describe(`documents beside a freight (${TEST_DB})`, () => {
  let app: TestApp;
  let shipper: Actor, carrier: Actor, loser: Actor, outsider: Actor;
  /** open, the carrier and the loser bid on it */
  let open: number;
  /** awarded to the carrier */
  let taken: number;

  const award = async (freight: number, to: Actor, amount: string) =>
    confirmBoth(app, shipper, to, (await bidOn(app, to, freight, amount)).id);
  const stored = async (freight: number) =>
    Number(
      (
        await app.services.db
          .selectFrom('deal_documents')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('freight_id', '=', freight)
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Nothing half-written: no upload under way, every part belongs to a document. */
  const noLooseParts = async () => {
    const db = app.services.db;
    assert.deepEqual(await db.selectFrom('deal_uploads').selectAll().execute(), [], 'no upload left under way');
    const orphans = await db
      .selectFrom('deal_document_parts as p')
      .select('p.document_id')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('deal_documents as d').select('d.id').whereRef('d.id', '=', 'p.document_id'))))
      .execute();
    assert.deepEqual(orphans, [], 'every part belongs to a document');
  };

  before(async () => {
    app = await startTestApp();
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
    loser = await app.actor('Loser');
    outsider = await app.actor('Outsider');
    for (const who of [shipper, carrier, loser, outsider])
      success(
        await app.post('/webhooks/add.json', { token: who.token, json: { url: `http://127.0.0.1:9/c/${who.company}`, events: ['*'] } }),
      );
    open = await openFreight(app, shipper);
    await bidOn(app, carrier, open, '700.00');
    await bidOn(app, loser, open, '650.00');
    taken = await openFreight(app, shipper, { from_addr: 'Hafenstraße 1, Frankfurt', to_addr: 'Keizersgracht 2, Amsterdam' });
    await bidOn(app, loser, taken, '1100.00');
    await award(taken, carrier, '1234.56');
  });
  after(() => app?.close());

  test('before the award only the owner attaches and sees documents; bidders and others get 404', async () => {
    const added = success(await attach(app, shipper, open, 'other', 'loading-plan.pdf', PDF)).document;
    assert.equal(added.kind, 'other');
    assert.equal(added.name, 'loading-plan.pdf');
    assert.equal(added.size, PDF.length);
    assert.equal(added.sha256, createHash('sha256').update(PDF).digest('hex'));
    assert.deepEqual(added.company, { id: shipper.company, name: shipper.companyName, verified: false });
    assert.equal(added.type, 'application/pdf');
    for (const who of [carrier, loser, outsider]) {
      assert.equal((await documents(app, who, open)).status, 404);
      assert.equal((await attach(app, who, open, 'cmr', 'x.pdf', PDF)).status, 404);
      assert.equal((await download(app, who, added.id)).status, 404);
    }
    assert.equal(await stored(open), 1);
    assert.deepEqual(
      success(await documents(app, shipper, open)).documents.map((d: any) => d.id),
      [added.id],
    );
  });

  test('after the award owner and winner exchange documents; the losing bidder and others get 404', async () => {
    const cmr = success(await attach(app, carrier, taken, 'cmr', 'CMR 4711.jpg', JPEG)).document;
    assert.equal(cmr.type, 'image/jpeg');
    const pod = success(await attach(app, shipper, taken, 'pod', 'pod.png', PNG)).document;
    assert.equal(pod.type, 'image/png');
    for (const who of [shipper, carrier]) {
      const list = success(await documents(app, who, taken)).documents;
      assert.deepEqual(
        list.map((d: any) => d.kind),
        ['order', 'cmr', 'pod'],
      );
      for (const key of ['id', 'kind', 'name', 'size', 'sha256', 'created', 'company']) assert.ok(key in list[1], key);
    }
    for (const who of [loser, outsider]) {
      assert.equal((await documents(app, who, taken)).status, 404);
      assert.equal((await download(app, who, cmr.id)).status, 404);
      assert.equal((await attach(app, who, taken, 'pod', 'x.png', PNG)).status, 404);
    }
    assert.equal((await download(app, outsider, 99_999_999)).status, 404);
    assert.equal((await app.get('/freights/document/abc', { token: outsider.token })).status, 404);
  });

  test('a download is the exact bytes, as an attachment, never sniffed', async () => {
    const bytes = Buffer.concat([PNG, Buffer.from([0, 1, 2, 255, 254, 13, 10, 0])]);
    const doc = success(await attach(app, carrier, taken, 'other', 'Lieferschein Müller "A".png', bytes)).document;
    for (const who of [shipper, carrier]) {
      const got = await download(app, who, doc.id);
      assert.equal(got.status, 200);
      assert.ok(got.bytes.equals(bytes), 'the same bytes');
      assert.equal(got.headers['content-type'], 'image/png');
      assert.equal(got.headers['x-content-type-options'], 'nosniff');
      assert.match(
        String(got.headers['content-disposition']),
        /^attachment; filename="Lieferschein M_ller _A_.png"; filename\*=UTF-8''Lieferschein%20M%C3%BCller%20%22A%22.png$/,
      );
      assert.equal(createHash('sha256').update(got.bytes).digest('hex'), doc.sha256);
    }
    // Without a token: 401, never the bytes.
    const anonymous = await app.http.inject({ method: 'GET', url: `/freights/document/${doc.id}` });
    assert.equal(anonymous.statusCode, 401);
  });

  test('only PDF, JPEG and PNG by their first bytes, at most 10 MB, a kind and a name: else a field error and nothing stored', async () => {
    const before = await stored(taken);
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [
        { kind: 'cmr', name: 'a.pdf', content: Buffer.from('just text, called .pdf').toString('base64') },
        'documents.type_refused',
        'content',
      ],
      [{ kind: 'cmr', name: 'a.gif', content: Buffer.from('GIF89a....').toString('base64') }, 'documents.type_refused', 'content'],
      [
        { kind: 'cmr', name: 'a.html', content: Buffer.from('<html><script>alert(1)</script>').toString('base64') },
        'documents.type_refused',
        'content',
      ],
      // A Windows executable renamed to a document's name: its first bytes say what it is.
      [{ kind: 'invoice', name: 'invoice.pdf', content: EXE.toString('base64') }, 'documents.type_refused', 'content'],
      [{ kind: 'cmr', name: 'scan.png', content: EXE.toString('base64') }, 'documents.type_refused', 'content'],
      [{ kind: 'cmr', name: 'a.pdf', content: '%%% not base64 %%%' }, 'documents.content_invalid', 'content'],
      [{ kind: 'cmr', name: 'a.pdf', content: `${PDF.toString('base64')}==QQ` }, 'documents.content_invalid', 'content'],
      [{ kind: 'cmr', name: 'a.pdf', content: 'QUJDR' }, 'documents.content_invalid', 'content'],
      [{ kind: 'cmr', name: 'a.pdf' }, 'documents.content_invalid', 'content'],
      [{ kind: 'cmr', name: 'a.pdf', content: '' }, 'documents.content_invalid', 'content'],
      [{ kind: 'cmr', name: 'a.pdf', content: { bytes: 1 } }, 'documents.content_invalid', 'content'],
      [{ kind: 'order', name: 'a.pdf', content: PDF.toString('base64') }, 'documents.kind_reserved', 'kind'],
      [{ kind: 'passport', name: 'a.pdf', content: PDF.toString('base64') }, 'documents.kind_invalid', 'kind'],
      [{ name: 'a.pdf', content: PDF.toString('base64') }, 'documents.kind_invalid', 'kind'],
      [{ kind: 'cmr', content: PDF.toString('base64') }, 'documents.name_invalid', 'name'],
      [{ kind: 'cmr', name: 'x'.repeat(201), content: PDF.toString('base64') }, 'documents.name_invalid', 'name'],
      // One byte over 10,000,000 (SI megabytes), and far over it.
      [{ kind: 'cmr', name: 'big.pdf', content: pdfOf(MAX + 1).toString('base64') }, 'documents.too_large', 'content'],
      [{ kind: 'cmr', name: 'big.pdf', content: pdfOf(10 * 1024 * 1024).toString('base64') }, 'documents.too_large', 'content'],
    ];
    for (const [json, code, field] of refusals)
      fieldError(await app.post(`/freights/documents/${taken}.json`, { token: carrier.token, json }), code, field);
    // Far beyond the bound the body itself is refused (413), still no 500.
    const huge = await app.post(`/freights/documents/${taken}.json`, {
      token: carrier.token,
      json: { kind: 'cmr', name: 'a.pdf', content: 'A'.repeat(16_000_000) },
    });
    assert.equal(huge.status, 413, huge.text.slice(0, 200));
    assert.equal(huge.body.code, 'request.too_large');
    assert.equal(await stored(taken), before, 'nothing stored');
    await noLooseParts();
    // Exactly 10,000,000 bytes are accepted, base64 with MIME line breaks and escaped slashes too.
    const edge = pdfOf(MAX);
    const doc = success(await attach(app, shipper, taken, 'invoice', 'invoice.pdf', edge)).document;
    assert.equal(doc.size, MAX);
    assert.equal(doc.sha256, createHash('sha256').update(edge).digest('hex'));
    assert.ok((await download(app, carrier, doc.id)).bytes.equals(edge), 'the exact bytes back');
    const mime = (edge.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
    const escaped = JSON.stringify({ kind: 'cmr', name: 'mime.pdf', content: mime }).replaceAll('/', '\\/');
    const res = await app.http.inject({
      method: 'POST',
      url: `/freights/documents/${taken}.json`,
      headers: { authorization: `TokenPass ${shipper.token}`, 'content-type': 'application/json' },
      payload: escaped,
    });
    const viaMime = JSON.parse(res.body).data.document;
    assert.equal(viaMime.sha256, doc.sha256, res.body.slice(0, 200));
    await noLooseParts();
  });

  test('an upload is admitted before its body is read: no token 401, a company that is no party 404, whatever the body', async () => {
    const body = JSON.stringify({ kind: 'cmr', name: 'a.pdf', content: 'A'.repeat(16_000_000) });
    const send = (headers: Record<string, string>) =>
      app.http.inject({
        method: 'POST',
        url: `/freights/documents/${taken}.json`,
        headers: { 'content-type': 'application/json', ...headers },
        payload: body,
      });
    const anonymous = await send({});
    assert.equal(anonymous.statusCode, 401);
    const outsiders = await send({ authorization: `TokenPass ${outsider.token}` });
    assert.equal(outsiders.statusCode, 404, 'a 404, not the 413 its body would earn');
    const bidders = await send({ authorization: `TokenPass ${loser.token}` });
    assert.equal(bidders.statusCode, 404);
    assert.equal((await send({ authorization: 'TokenPass nope' })).statusCode, 401);
    // A token in the body is not read (docs/reference.md#the-api: the header or the query): 401 before the body.
    const inBody = await app.http.inject({
      method: 'POST',
      url: `/freights/documents/${taken}.json`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ auth_token: carrier.token, kind: 'cmr', name: 'a.pdf', content: PDF.toString('base64') }),
    });
    assert.equal(inBody.statusCode, 401);
    // The query's token is read before the body.
    const byQuery = await app.http.inject({
      method: 'POST',
      url: `/freights/documents/${taken}.json?auth_token=${carrier.token}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ kind: 'other', name: 'q.png', content: PNG.toString('base64') }),
    });
    assert.equal(JSON.parse(byQuery.body).status, 'success', byQuery.body);
    // A short form body works as every body does (the kernel's form parser).
    const form = await app.post(`/freights/documents/${taken}.json`, {
      token: carrier.token,
      form: { kind: 'other', name: 'form.png', content: PNG.toString('base64') },
    });
    assert.equal(success(form).document.sha256, createHash('sha256').update(PNG).digest('hex'));
    await noLooseParts();
  });

  test('a document is stored in parts of 256 KiB, read back whole; an upload that never got its row leaves nothing behind', async () => {
    const db = app.services.db;
    const bytes = Buffer.concat([PDF, Buffer.alloc(600 * 1024, 7), Buffer.from('tail')]);
    const doc = success(await attach(app, carrier, taken, 'cmr', 'cmr.pdf', bytes)).document;
    const parts = await db.selectFrom('deal_document_parts').select(['part']).where('document_id', '=', doc.id).orderBy('part').execute();
    assert.deepEqual(
      parts.map((p) => p.part),
      [0, 1, 2],
      'ceil(size / 256 KiB) parts',
    );
    assert.ok((await download(app, shipper, doc.id)).bytes.equals(bytes), 'the same bytes, parts joined');
    assert.equal((await db.selectFrom('deal_uploads').selectAll().execute()).length, 0, 'no upload left under way');
    // A refused proof of delivery (the open freight is not taken) keeps none of its parts.
    const refused = await app.post(`/freights/pod/${open}.json`, {
      token: shipper.token,
      json: { name: 'pod.pdf', content: PDF.toString('base64') },
    });
    assert.notEqual(refused.body.status, 'success', refused.text);
    // An upload abandoned an hour ago (its process stopped before the row): the sweep (at start, every 5 minutes) removes its parts.
    await db
      .insertInto('deal_uploads')
      .values({ document_id: 987654, started: new Date(Date.now() - 2 * 3600_000) })
      .execute();
    await db
      .insertInto('deal_document_parts')
      .values({ document_id: 987654, part: 0, bytes: new Uint8Array([1, 2, 3]) })
      .execute();
    success(await attach(app, carrier, taken, 'other', 'next.png', PNG));
    await app.uploads.sweep();
    assert.equal((await db.selectFrom('deal_document_parts').select('part').where('document_id', '=', 987654).execute()).length, 0);
    const orphans = await db
      .selectFrom('deal_document_parts as p')
      .select('p.document_id')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('deal_documents as d').select('d.id').whereRef('d.id', '=', 'p.document_id'))))
      .execute();
    assert.deepEqual(orphans, [], 'every part belongs to a document');
  });

  test('on award the exchange adds the transport order: a PDF naming both parties, the route and the agreed price', async () => {
    const list = success(await documents(app, carrier, taken)).documents;
    const order = list.find((d: any) => d.kind === 'order');
    assert.ok(order);
    assert.equal(order.company, null, 'added by the exchange');
    assert.equal(order.type, 'application/pdf');
    const got = await download(app, shipper, order.id);
    assert.equal(got.status, 200);
    assert.ok(got.bytes.subarray(0, 5).toString('latin1') === '%PDF-');
    // What the PDF prints (read by PDF.js), umlauts included: the full content is tests/deals/order.test.ts's.
    const text = await pdfText(got.bytes);
    for (const part of [
      shipper.companyName,
      carrier.companyName,
      '1234.56 EUR',
      'Hafenstraße 1, Frankfurt',
      'Keizersgracht 2, Amsterdam',
      'FRA',
    ])
      assert.ok(text.includes(part), part);
    assert.ok(!text.includes(loser.companyName), 'the losing bidder is not named');
    assert.equal(got.bytes.length, order.size);
    // One transport order per freight, whatever happens later.
    assert.equal(list.filter((d: any) => d.kind === 'order').length, 1);
    // A freight its owner carries itself gets none (no other party).
    const own = await openFreight(app, shipper);
    await award(own, shipper, '10.00');
    assert.deepEqual(success(await documents(app, shipper, own)).documents, []);
  });

  test('document.added goes to the other party; the transport order to both', async () => {
    const events = async (type: string, freight: number) =>
      (
        await app.services.db
          .selectFrom('events')
          .select(['company_id', 'body'])
          .where('type', '=', type)
          .where('freight_id', '=', freight)
          .orderBy('seq')
          .execute()
      ).map((e) => ({ company: e.company_id, data: JSON.parse(e.body).data }));
    const orders = (await events('document.added', taken)).filter((e) => e.data.document.kind === 'order');
    assert.deepEqual(
      orders.map((e) => e.company!).sort((a, b) => a - b),
      [shipper.company, carrier.company].sort((a, b) => a - b),
    );
    const freight = await openFreight(app, shipper);
    await award(freight, carrier, '500.00');
    const doc = success(await attach(app, carrier, freight, 'pod', 'pod.pdf', PDF)).document;
    const added = (await events('document.added', freight)).filter((e) => e.data.document.id === doc.id);
    assert.deepEqual(
      added.map((e) => e.company),
      [shipper.company],
    );
    assert.equal(added[0]!.data.document.sha256, doc.sha256);
    const message = success(
      await app.post(`/freights/messages/${freight}.json`, { token: shipper.token, json: { text: 'Thanks!', company: carrier.company } }),
    ).message;
    const created = await events('message.created', freight);
    assert.deepEqual(
      created.map((e) => [e.company, e.data.message.id]),
      [[carrier.company, message.id]],
    );
  });

  test("the page's multipart upload: only its own route reads multipart, with the same bounds", async () => {
    const session = await browserSession(app, carrier);
    const page = await app.get(`/freights/view/${taken}`, { headers: { cookie: session.cookie } });
    assert.equal(page.status, 200);
    assert.match(page.text, /id="documents"/);
    assert.match(page.text, /enctype="multipart\/form-data"/);
    const csrf = csrfOf(page.text);
    const multipart = (file: Buffer, name: string, kind = 'pod') => {
      const boundary = '----deal-room-test';
      const part = (header: string, body: Buffer | string) =>
        Buffer.concat([Buffer.from(`--${boundary}\r\n${header}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
      return {
        headers: { cookie: session.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          part('Content-Disposition: form-data; name="_csrf"', csrf),
          part('Content-Disposition: form-data; name="kind"', kind),
          part(`Content-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream`, file),
          Buffer.from(`--${boundary}--\r\n`),
        ]),
      };
    };
    const before = await stored(taken);
    const sent = await app.http.inject({ method: 'POST', url: `/freights/upload/${taken}`, ...multipart(PDF, 'signed-pod.pdf') });
    assert.equal(sent.statusCode, 302, sent.body);
    assert.equal(sent.headers.location, `/freights/view/${taken}#documents`);
    const list = success(await documents(app, carrier, taken)).documents;
    const last = list.at(-1);
    assert.equal(last.name, 'signed-pod.pdf');
    assert.equal(last.kind, 'pod');
    assert.ok((await download(app, shipper, last.id)).bytes.equals(PDF));
    // Exactly 10,000,000 bytes: accepted, the exact bytes back.
    const edge = pdfOf(MAX);
    const accepted = await app.http.inject({ method: 'POST', url: `/freights/upload/${taken}`, ...multipart(edge, 'edge.pdf', 'invoice') });
    assert.equal(accepted.statusCode, 302, accepted.body);
    assert.deepEqual(flashOf(accepted), { ok: true, message: 'Document added.' });
    const edgeDoc = success(await documents(app, carrier, taken)).documents.at(-1);
    assert.equal(edgeDoc.size, MAX);
    assert.ok((await download(app, shipper, edgeDoc.id)).bytes.equals(edge));
    const afterEdge = await stored(taken);
    // One byte more, an executable renamed to a PDF or a PNG, an empty file: back to the page
    // with the refusal's words (the field error's), nothing stored.
    for (const [file, name, message] of [
      [pdfOf(MAX + 1), 'big.pdf', 'content: the file is larger than 10 MB.'],
      [Buffer.concat([PDF, Buffer.alloc(11_000_000)]), 'bigger.pdf', 'content: the file is larger than 10 MB.'],
      [EXE, 'invoice.pdf', 'content: only PDF, JPEG and PNG files are accepted.'],
      [EXE, 'scan.png', 'content: only PDF, JPEG and PNG files are accepted.'],
      [Buffer.from('MZ executable'), 'tool.exe', 'content: only PDF, JPEG and PNG files are accepted.'],
      [Buffer.alloc(0), 'empty.pdf', 'content: the file is missing, empty or not base64.'],
    ] as const) {
      const refused = await app.http.inject({ method: 'POST', url: `/freights/upload/${taken}`, ...multipart(file, name) });
      assert.equal(refused.statusCode, 302, name);
      assert.equal(refused.headers.location, `/freights/view/${taken}#documents`);
      assert.deepEqual(flashOf(refused), { ok: false, message }, name);
    }
    assert.equal(await stored(taken), afterEdge, 'nothing stored');
    await noLooseParts();
    const reserved = await app.http.inject({ method: 'POST', url: `/freights/upload/${taken}`, ...multipart(PDF, 'order.pdf', 'order') });
    assert.equal(reserved.statusCode, 302);
    assert.equal(
      flashOf(reserved)?.message,
      'kind: order is the transport order the exchange adds on award; choose cmr, pod, invoice or other.',
    );
    assert.equal(await stored(taken), before + 2, 'only the first upload and the edge stored');
    // Without the CSRF token the form is refused.
    const forged = multipart(PDF, 'forged.pdf');
    forged.payload = Buffer.from(forged.payload.toString('latin1').replace(csrf, 'forged'), 'latin1');
    const refusedForgery = await app.http.inject({ method: 'POST', url: `/freights/upload/${taken}`, ...forged });
    assert.ok(refusedForgery.statusCode >= 400, String(refusedForgery.statusCode));
    // The JSON route reads no multipart: the same form there is not a document.
    const elsewhere = await app.http.inject({
      method: 'POST',
      url: `/freights/documents/${taken}.json`,
      ...multipart(PDF, 'json.pdf'),
      headers: { ...multipart(PDF, 'json.pdf').headers, authorization: `TokenPass ${carrier.token}` },
    });
    assert.equal(JSON.parse(elsewhere.body).status, 'error');
    assert.equal(await stored(taken), before + 2);
    // A body cut off in the middle of the file, or two files: refused as unreadable or too large, never a 500.
    const whole = multipart(PDF, 'cut.pdf');
    const cut = await app.http.inject({
      method: 'POST',
      url: `/freights/upload/${taken}`,
      headers: whole.headers,
      payload: whole.payload.subarray(0, whole.payload.length - 40),
    });
    assert.equal(cut.statusCode, 400, cut.body.slice(0, 200));
    const two = multipart(PDF, 'one.pdf');
    two.payload = Buffer.concat([
      two.payload.subarray(0, two.payload.length - '------deal-room-test--\r\n'.length),
      multipart(PNG, 'two.png').payload,
    ]);
    const twice = await app.http.inject({ method: 'POST', url: `/freights/upload/${taken}`, headers: two.headers, payload: two.payload });
    assert.equal(twice.statusCode, 413, twice.body.slice(0, 200));
    assert.equal(await stored(taken), before + 2);
    // An outsider's upload: 404.
    const stranger = await browserSession(app, outsider);
    const strangers = await app.http.inject({
      method: 'POST',
      url: `/freights/upload/${taken}`,
      ...multipart(PDF, 'x.pdf'),
      headers: { ...multipart(PDF, 'x.pdf').headers, cookie: stranger.cookie },
    });
    assert.ok([403, 404].includes(strangers.statusCode), String(strangers.statusCode));
  });
});
