import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import { flush, mailApp, PUBLIC_URL, startSmtp, to, type TestSmtp } from '../mail/support.ts';
import { TEST_DB } from '../support/databases.ts';
import type { Actor, TestApp } from '../support/harness.ts';

/** docs/reference.md#tracking and #mail: milestones and lateness are mailed as `bids` to the freight's two parties, and to nobody else. */
describe(`tracking's mail (${TEST_DB})`, () => {
  let smtp: TestSmtp;
  let app: TestApp;
  let shipper: Actor, carrier: Actor, loser: Actor;

  before(async () => {
    smtp = await startSmtp();
    app = await mailApp(smtp);
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier', { language: 'deu' });
    loser = await app.actor('Loser');
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  test('a milestone and lateness reach owner and winner, in their languages, naming the freight', async () => {
    const now = new Date();
    const stamp = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
    const freight = await openFreight(app, shipper, {
      from: 'city:60311',
      from_country: 'DE',
      from_latitude: 50.1109,
      from_longitude: 8.6821,
      to: 'city:75001',
      to_country: 'FR',
      to_latitude: 48.8566,
      to_longitude: 2.3522,
      weight: 12000,
      eta: stamp(new Date(now.getTime() + 3_600_000)),
      eta_end: stamp(new Date(now.getTime() + 2 * 3_600_000)),
    });
    for (const who of [loser, carrier]) {
      const bid = await app.post('/quotes/add.json', { token: who.token, json: { route: freight, amount: 990, currency_code: 'EUR' } });
      assert.equal(bid.body.status, 'success', bid.text);
      if (who === carrier) {
        await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: shipper.token });
        await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: carrier.token });
      }
    }
    const before = smtp.received.length;
    await flush(app, smtp);
    const res = await app.post(`/freights/positions/${freight}.json`, {
      token: carrier.token,
      json: { positions: [{ latitude: 50.111, longitude: 8.6822, at: stamp(now) }] },
    });
    assert.equal(res.body.status, 'success', res.text);
    const got = await flush(app, smtp, before);
    const mine = to(got, shipper.email).filter((m) => /Arrived at pickup|Late/.test(m.mail.subject ?? ''));
    assert.deepEqual(mine.map((m) => m.mail.subject?.split(':')[0]).sort(), ['Arrived at pickup', 'Late']);
    for (const m of mine) assert.ok((m.mail.text ?? '').includes(`${PUBLIC_URL}/freights/view/${freight}`));
    assert.match(mine.find((m) => m.mail.subject?.startsWith('Late'))?.mail.text ?? '', /after the end of the delivery window/);
    const theirs = to(got, carrier.email).filter((m) => /Beladestelle|Verspätet/.test(m.mail.subject ?? ''));
    assert.equal(theirs.length, 2);
    assert.deepEqual(
      to(got, loser.email).filter((m) => /pickup|Late/.test(m.mail.subject ?? '')),
      [],
      'the losing bidder hears nothing of the truck',
    );
  });
});
