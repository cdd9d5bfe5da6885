import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';

/**
 * The bid form of the freight page (HTML): a refused bid or bid update comes back as the freight
 * page with what was typed and each problem next to its field in the user's language; the JSON
 * answers of POST /quotes/add keep the API's messages and rules.
 */
describe('pages: a refused bid keeps what was typed', () => {
  let app: TestApp;
  let shipper: Actor;
  let carrier: Actor;
  let freight: number;
  let bid: number;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    shipper = await app.actor('Spedition Nord');
    carrier = await app.actor('Alpen Cargo', { language: 'deu' });
    freight = (
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'city:DE-60311', to: 'city:IT-20121', etd: '2030-05-04 08:00', weight: 12000 },
      })
    ).body.data.id;
    await app.post(`/freights/view/${freight}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+48 hours' } });
    bid = (
      await app.post('/quotes/add.json', {
        token: carrier.token,
        json: { route: freight, amount: '1000', currency_code: 'EUR', note: 'first' },
      })
    ).body.data.bid.id;
  });
  after(() => app.close());

  const storedBid = async () =>
    (await app.get(`/freights/view/${freight}.json`, { token: carrier.token })).body.data.route._bids.find(
      (b: { id: number }) => b.id === bid,
    );
  const fieldValue = (html: string, name: string) =>
    new RegExp(`name="${name.replace(/[[\]]/g, '\\$&')}"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="${name}"`)
      .exec(html)
      ?.slice(1)
      .find((v) => v !== undefined);

  test('an update with three decimals and an unreadable surcharge: the page, the typed values, German messages beside the fields', async () => {
    const { cookie, csrf } = await browserSession(app, carrier);
    const res = await app.post('/quotes/add', {
      headers: { cookie },
      form: {
        _csrf: csrf,
        route: String(freight),
        id: String(bid),
        amount: '1.234,567',
        currency_code: 'EUR',
        rate_fsc: 'viel',
        note: 'Hebebühne',
      },
    });
    assert.equal(res.status, 200, 'the freight page itself, not a redirect');
    assert.match(res.text, /Ihr Gebot wurde nicht gesendet/);
    assert.equal(fieldValue(res.text, 'amount'), '1.234,567', 'the amount as typed');
    assert.equal(fieldValue(res.text, 'rate_fsc'), 'viel');
    assert.equal(fieldValue(res.text, 'note'), 'Hebebühne');
    assert.match(res.text, /id="bid-amount-error"[^>]*>Bitte Ihren Preis eingeben/);
    assert.match(res.text, /id="bid-rate-fsc-error"[^>]*>Bitte einen Betrag/);
    assert.match(res.text, /<details class="more" open/, 'the price components are unfolded to show their problem');
    assert.doesNotMatch(res.text, /amount: |positive number/, 'no API wording on the page');
    const stored = await storedBid();
    assert.equal(stored.amount, 1000, 'nothing changed');
    assert.equal(stored.note, 'first');
  });

  test('a wrong currency code is said beside the currency; a good update goes through with a flash', async () => {
    const { cookie, csrf } = await browserSession(app, carrier);
    const refused = await app.post('/quotes/add', {
      headers: { cookie },
      form: { _csrf: csrf, route: String(freight), id: String(bid), amount: '1.100,50', currency_code: 'Euro', note: '' },
    });
    assert.equal(refused.status, 200);
    assert.match(refused.text, /id="bid-currency-code-error"[^>]*>Bitte einen dreistelligen Währungscode/);
    assert.equal(fieldValue(refused.text, 'amount'), '1.100,50');
    const saved = await app.post('/quotes/add', {
      headers: { cookie },
      form: { _csrf: csrf, route: String(freight), id: String(bid), amount: '1.100,50', currency_code: 'EUR', note: 'zweites' },
    });
    assert.equal(saved.status, 302);
    assert.equal(saved.headers.location, `/freights/view/${freight}`);
    assert.equal((await storedBid()).amount, 1100.5);
  });

  test('a refusal of the freight’s state comes back to its page with the reason', async () => {
    const { cookie, csrf } = await browserSession(app, carrier);
    await app.post(`/freights/revoke/${freight}.json`, { token: shipper.token });
    const res = await app.post('/quotes/add', {
      headers: { cookie },
      form: { _csrf: csrf, route: String(freight), amount: '900', currency_code: 'EUR', note: 'spät' },
    });
    assert.equal(res.status, 200);
    assert.match(res.text, /data-testid="bid-problems"[^>]*>Auf diese Fracht kann nicht \(mehr\) geboten werden/);
  });

  test('the JSON answers are the API’s: its messages, and an unreadable surcharge ignored with a warning', async () => {
    const other = (
      await app.post('/freights/add.json', { token: shipper.token, json: { from: 'city:DE-60311', to: 'city:IT-20121', weight: 1000 } })
    ).body.data.id;
    await app.post(`/freights/view/${other}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+48 hours' } });
    const refused = await app.post('/quotes/add.json', { token: carrier.token, json: { route: other, amount: '0', currency_code: 'EUR' } });
    assert.equal(refused.status, 200);
    assert.equal(refused.body.status, 'error');
    assert.match(refused.body.message, /^amount: /);
    const warned = await app.post('/quotes/add.json', {
      token: carrier.token,
      json: { route: other, amount: '500', currency_code: 'EUR', rate_fsc: 'viel' },
    });
    assert.equal(warned.body.status, 'success');
    assert.deepEqual(
      warned.body.warnings.map((w: { field: string }) => w.field),
      ['rate_fsc'],
    );
  });
});
