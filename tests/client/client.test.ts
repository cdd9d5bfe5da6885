// Issue 15: the typed TypeScript client (clients/typescript) against a real server.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { FreightExchange, type FreightExchangeError } from '../../clients/typescript/src/index.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

let app: TestApp;
let base: string;
let shipper: Actor;
let carrier: Actor;

before(async () => {
  app = await startTestApp();
  base = await app.listen();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
});
after(() => app.close());

describe('the TypeScript client', () => {
  test('its API description is the one the server serves (npm run client:generate after an API change)', async () => {
    const served = (await app.get('/openapi.json')).body;
    const committed = JSON.parse(fs.readFileSync(new URL('../../clients/typescript/openapi.json', import.meta.url), 'utf8'));
    assert.deepEqual(committed, served);
  });

  test('a full award: login, create, publish (302 followed), bid, confirm twice', async () => {
    const s = new FreightExchange({ baseUrl: base });
    const c = new FreightExchange({ baseUrl: base });
    assert.equal(await s.login(shipper.email, shipper.password), shipper.token);
    await c.login(carrier.username, carrier.password);

    const created = await s.call('post', '/freights/add.json', {
      body: {
        from: 'city:DE-60311',
        to: 'airport:AMS',
        weight: 1250.5,
        pieces: [{ pieces: 3, depth: 120, width: 80, height: 100 }],
        refs: { customer: 'PO-4711' },
        colour: 'blue',
      } as never,
    });
    assert.equal(created.data.status, 'draft');
    assert.deepEqual(
      created.warnings.map((w) => w.field),
      ['colour'],
    );

    const open = await s.publish(created.data.id, { deadline: '+48 hours' });
    assert.equal(open.status, 'open');

    const { bid } = await c.post('/quotes/add.json', { body: { route: open.id, amount: 480.5, currency_code: 'EUR' } });
    assert.equal(bid.status, 'open');

    const first = await s.confirm(bid.id);
    assert.deepEqual([first.awarded, first.freight.status], [false, 'pending']);
    const second = await c.confirm(bid.id);
    assert.equal(second.awarded, true);
    assert.equal(second.freight.status, 'taken');
    assert.equal(second.freight.winner, carrier.company);
    assert.equal(second.freight.price, 480.5);

    const { routes } = await c.get('/freights/enlist/{filterId}.json', { path: { filterId: 2 } });
    assert.ok(routes.some((r) => r.id === open.id));
  });

  test('refusals are typed errors: 404, status error, 401, a refused publish and confirm', async () => {
    const s = new FreightExchange({ baseUrl: base, token: shipper.token });
    const c = new FreightExchange({ baseUrl: base, token: carrier.token });
    await assert.rejects(
      s.get('/freights/view/{id}.json', { path: { id: 999_999 } }),
      (e: FreightExchangeError) => e.notFound && e.code === 'not_found',
    );
    await assert.rejects(
      c.post('/quotes/add.json', { body: { route: 1 } as never }),
      (e: FreightExchangeError) => e.httpStatus === 200 && /amount/.test(e.message) && e.code === 'quotes.amount_required',
    );
    await assert.rejects(
      new FreightExchange({ baseUrl: base, token: 'nope' }).get('/users/me.json'),
      (e: FreightExchangeError) => e.httpStatus === 401 && e.code === 'auth.unauthorized',
    );
    await assert.rejects(
      new FreightExchange({ baseUrl: base }).login(shipper.email, 'wrong-password'),
      (e: FreightExchangeError) => e.httpStatus === 401 && e.code === 'login.failed',
    );

    const draft = await s.post('/freights/add.json', { body: { from: 'FRA', to: 'AMS' } });
    // Publishing another company's visible freight: 302 all the same, and the client says it failed.
    const open = await s.publish(draft.id);
    await assert.rejects(c.publish(open.id), /publish refused/);
    // A second confirmation of the same side leaves it waiting (the first stands); once the
    // owner revoked the freight, a confirmation is refused (302) and the client says so.
    const { bid } = await c.post('/quotes/add.json', { body: { route: open.id, amount: 10, currency_code: 'EUR' } });
    assert.equal((await c.confirm(bid.id)).awarded, false);
    assert.equal((await c.confirm(bid.id)).awarded, false);
    await s.post('/freights/revoke/{id}.json', { path: { id: open.id } });
    await assert.rejects(s.confirm(bid.id), /confirm refused/);
  });

  test('the deal room: a message each way, a small PDF uploaded, listed and downloaded with its exact bytes', async () => {
    const s = new FreightExchange({ baseUrl: base, token: shipper.token });
    const c = new FreightExchange({ baseUrl: base, token: carrier.token });
    const draft = await s.post('/freights/add.json', { body: { from: 'FRA', to: 'AMS' } });
    const freight = await s.publish(draft.id, { deadline: '+48 hours' });
    const { message } = await c.post('/freights/messages/{freightId}.json', {
      path: { freightId: freight.id },
      body: { text: 'Can we load at 06:00? 🚚' },
    });
    assert.deepEqual(message.to, { id: shipper.company, name: shipper.companyName, verified: false });
    await s.post('/freights/messages/{freightId}.json', {
      path: { freightId: freight.id },
      body: { text: 'Yes, ramp 4.', company: carrier.company },
    });
    const { conversations } = await c.get('/freights/messages/{freightId}.json', { path: { freightId: freight.id } });
    assert.deepEqual(
      conversations[0]!.messages.map((m) => m.text),
      ['Can we load at 06:00? 🚚', 'Yes, ramp 4.'],
    );
    // The shipper's loading plan: a small PDF with bytes a text round trip would spoil.
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
      Buffer.from([0, 255, 13, 10, 128]),
      Buffer.from('\n%%EOF\n'),
    ]);
    const { document } = await s.post('/freights/documents/{freightId}.json', {
      path: { freightId: freight.id },
      body: { kind: 'other', name: 'Ladeplan Müller.pdf', content: pdf.toString('base64') },
    });
    assert.equal(document.size, pdf.length);
    const { documents } = await s.get('/freights/documents/{freightId}.json', { path: { freightId: freight.id } });
    assert.deepEqual(
      documents.map((d) => [d.id, d.name, d.type]),
      [[document.id, 'Ladeplan Müller.pdf', 'application/pdf']],
    );
    const got = await s.download(document.id);
    assert.ok(Buffer.from(got.bytes).equals(pdf), 'the exact bytes');
    assert.equal(createHash('sha256').update(got.bytes).digest('hex'), document.sha256);
    assert.equal(got.type, 'application/pdf');
    assert.equal(got.name, 'Ladeplan Müller.pdf');
    // Before the award the carrier sees no documents: a typed 404, for the list and the file alike.
    await assert.rejects(c.download(document.id), (e: FreightExchangeError) => e.notFound && e.code === 'not_found');
    await assert.rejects(
      c.get('/freights/documents/{freightId}.json', { path: { freightId: freight.id } }),
      (e: FreightExchangeError) => e.notFound,
    );
    await assert.rejects(new FreightExchange({ baseUrl: base }).download(document.id), (e: FreightExchangeError) => e.httpStatus === 401);
  });
});
