import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import { takenFreight } from '../trust/helpers.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { flush, mailApp, setModes, startSmtp, to, type Received, type TestSmtp } from './support.ts';

/**
 * A mail never carries what its reader may not see (docs/reference.md#freights, #events, #trust, #mail): mails are
 * made from the events as their recipient company received them, so a former bidder reads a
 * masked freight, a carrier never another carrier's bid, an outsider nothing at all, and a
 * blocked company reaches the blocker by no mail.
 */
describe('mail: what a reader may not see is never in its mail', () => {
  let smtp: TestSmtp;
  let app: TestApp;
  let shipper: Actor;
  let winner: Actor;
  let loser: Actor;
  let outsider: Actor;
  const all: Received[] = [];
  const text = (r: Received) => `${r.mail.subject}\n${r.mail.text}\n${r.mail.html}\n${r.raw}`;

  before(async () => {
    smtp = await startSmtp();
    app = await mailApp(smtp);
    shipper = await app.actor('Shipper');
    winner = await app.actor('Winner');
    loser = await app.actor('Loser');
    outsider = await app.actor('Outsider');
    for (const who of [shipper, winner, loser, outsider]) await setModes(app, who.token, { alerts: 'instant', documents: 'instant' });
    // The outsider watches the whole market: it hears of the freight (as the market sees it), nothing more.
    await app.post('/searches/add.json', { token: outsider.token, json: { name: 'All', filter: 8, params: {}, alert: 1 } });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  test('a lost tender reads masked; no carrier reads another’s bid; the outsider reads only the market’s freight', async () => {
    const freight = await openFreight(app, shipper, {
      from: 'city:60311',
      from_country: 'DE',
      from_addr: 'Geheimweg 17, Frankfurt',
      to: 'city:75001',
      to_country: 'FR',
      to_addr: 'Rue Cachée 9, Paris',
      weight: 4200,
      etd: '2031-07-01 08:00',
      refs: { customer: 'PO-SECRET-77', commodity: 'Secret goods' },
    });
    all.push(...(await flush(app, smtp)));
    const bidOf = async (who: Actor, amount: number) => {
      const res = await app.post('/quotes/add.json', { token: who.token, json: { route: freight, amount, currency_code: 'EUR' } });
      assert.equal(res.body.status, 'success', res.text);
      return res.body.data.bid.id as number;
    };
    const won = await bidOf(winner, 1111.11);
    await bidOf(loser, 2222.22);
    all.push(...(await flush(app, smtp)));
    await app.post(`/quotes/confirm/${won}.json`, { token: shipper.token });
    await app.post(`/quotes/confirm/${won}.json`, { token: winner.token });
    all.push(...(await flush(app, smtp)));
    // Messages between the owner and the winner after the award.
    await app.post(`/freights/messages/${freight}.json`, {
      token: shipper.token,
      json: { company: winner.company, text: 'Gate 4, ask for Mr. Secret' },
    });
    all.push(...(await flush(app, smtp)));

    const lost = to(all, loser.email);
    const lostAward = lost.find((m) => /awarded to another carrier/.test(m.mail.subject ?? ''));
    assert.ok(lostAward, 'the loser is told');
    assert.match(lostAward.mail.subject ?? '', new RegExp(`^Freight ${freight} of 2031-07-01`), 'named by number and day only');
    for (const m of lost) {
      for (const secret of [
        'Geheimweg',
        'Cachée',
        'PO-SECRET-77',
        '60311',
        '75001',
        'Frankfurt',
        'Paris',
        '1,111.11',
        '1111.11',
        winner.companyName,
        'Mr. Secret',
      ])
        assert.ok(!text(m).includes(secret), `the loser's mail "${m.mail.subject}" shows ${secret}`);
    }
    for (const m of to(all, winner.email))
      for (const secret of ['2,222.22', '2222.22', loser.companyName])
        assert.ok(!text(m).includes(secret), `the winner's mail shows ${secret}`);
    const market = to(all, outsider.email);
    assert.equal(market.length, 1, 'the outsider: the alert of its search, nothing else');
    for (const secret of ['Geheimweg', 'Cachée', 'PO-SECRET-77', '1,111.11', '2,222.22', winner.companyName, loser.companyName])
      assert.ok(!text(market[0]!).includes(secret), `the outsider's mail shows ${secret}`);
  });

  test('a blocked company reaches the blocker by no mail (its message and bid are refused; a document of a deal made before is not told)', async () => {
    const blocked = await app.actor('Blocked');
    const freight = await openFreight(app, shipper, { weight: 300 });
    // A deal made before the block: the blocked company's freight, won by the shipper.
    const theirs = await takenFreight(app, blocked, shipper, { weight: 300 });
    await flush(app, smtp);
    const block = await app.post(`/companies/block/${blocked.company}.json`, { token: shipper.token });
    assert.equal(block.body.status, 'success', block.text);
    // Whatever the blocked company may still send (docs/reference.md#trust refuses its bids and messages): nothing of it arrives by mail.
    const said = await app.post(`/freights/messages/${freight}.json`, { token: blocked.token, json: { text: 'Let me in' } });
    assert.equal(said.body.code, 'messages.blocked', said.text);
    await app.post('/quotes/add.json', { token: blocked.token, json: { route: freight, amount: 10, currency_code: 'EUR' } });
    // Its document on the deal is stored, but the outbox has no event of it for the blocker (issue 39), so no mail.
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
    const doc = await app.post(`/freights/documents/${theirs}.json`, {
      token: blocked.token,
      json: { kind: 'cmr', name: 'cmr.pdf', content: pdf },
    });
    assert.equal(doc.body.status, 'success', doc.text);
    const got = to(await flush(app, smtp), shipper.email);
    assert.deepEqual(
      got.map((m) => m.mail.subject),
      [],
    );
  });
});
