import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import { startWorld } from '../support/fixtures.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { deliveredFreight, profileOf, takenFreight } from './helpers.ts';

/** docs/reference.md#trust: ratings after delivery, once per side; replies once; the rating.received event. */

let app: TestApp;
let shipper: Actor, carrier: Actor, outsider: Actor;

before(async () => ({ app, shipper, carrier, outsider } = await startWorld()));
after(() => app.close());

const rate = (who: Actor, freight: number | string, json: Record<string, unknown>) =>
  app.post(`/companies/rate/${freight}.json`, { token: who.token, json });
const ratingsOf = (who: Actor, company: number, query = '') => app.get(`/companies/ratings/${company}.json${query}`, { token: who.token });

describe('POST /companies/rate/{freightId}.json', () => {
  test('owner rates the winner and the winner the owner, once each; answers data.rating with its id', async () => {
    const id = await deliveredFreight(app, shipper, carrier, { refs: { customer: 'PO-4711' } });
    const byOwner = await rate(shipper, id, { score: 5, comment: 'On time, careful driver.' });
    assert.equal(byOwner.status, 200);
    assert.equal(byOwner.body.status, 'success', byOwner.text);
    const r = byOwner.body.data.rating;
    assert.ok(Number.isInteger(r.id));
    assert.equal(r.score, 5);
    assert.equal(r.comment, 'On time, careful driver.');
    assert.equal(r.rated, carrier.company);
    assert.deepEqual(r.company, { id: shipper.company, name: shipper.companyName, verified: false });
    assert.equal(r.display_id, 'PO-4711');

    const byWinner = await rate(carrier, id, { score: '4' });
    assert.equal(byWinner.body.status, 'success', byWinner.text);
    assert.equal(byWinner.body.data.rating.rated, shipper.company);
    assert.equal(byWinner.body.data.rating.comment, '');

    for (const [who, score] of [
      [shipper, 1],
      [carrier, 2],
    ] as const) {
      const twice = await rate(who, id, { score });
      assert.equal(twice.status, 200);
      assert.equal(twice.body.status, 'error');
      assert.equal(twice.body.code, 'ratings.already_rated');
    }
    const stored = await app.services.db.selectFrom('ratings').select(['score']).where('freight_id', '=', id).orderBy('id').execute();
    assert.deepEqual(
      stored.map((s) => s.score),
      [5, 4],
    );
  });

  test('before delivery: an error for the parties; never a rating', async () => {
    const open = await openFreight(app, shipper);
    const res = await rate(shipper, open, { score: 3 });
    assert.equal(res.body.status, 'error');
    assert.equal(res.body.code, 'ratings.not_delivered');
    const taken = await takenFreight(app, shipper, carrier);
    for (const who of [shipper, carrier]) {
      const r = await rate(who, taken, { score: 3 });
      assert.equal(r.body.status, 'error');
      assert.equal(r.body.code, 'ratings.not_delivered');
    }
    assert.equal((await app.services.db.selectFrom('ratings').select('id').where('freight_id', 'in', [open, taken]).execute()).length, 0);
  });

  test('anyone else (and unknown or unreadable ids) gets 404', async () => {
    const id = await deliveredFreight(app, shipper, carrier);
    for (const [who, freight] of [
      [outsider, id],
      [outsider, 999999],
      [shipper, 'abc'],
      [shipper, -1],
      [shipper, 999999],
    ] as const) {
      const res = await rate(who, freight, { score: 3 });
      assert.equal(res.status, 404, `${who.companyName} ${freight}`);
      assert.equal(res.body.status, 'error');
      assert.deepEqual(res.body.data, []);
    }
  });

  test('out of range or unreadable scores and long comments are errors for a party; nothing written', async () => {
    const id = await deliveredFreight(app, shipper, carrier);
    for (const score of [0, 6, -1, 2.5, '3.5', 'five', '', null, undefined, [4], { a: 1 }, 1e10]) {
      const res = await rate(shipper, id, { score });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'error', JSON.stringify(score));
      assert.equal(res.body.code, 'ratings.score_invalid');
    }
    const long = await rate(shipper, id, { score: 3, comment: 'x'.repeat(1001) });
    assert.equal(long.body.code, 'ratings.comment_too_long');
    // A comment that is no text at all: the field's invalid value, not a length.
    for (const comment of [['Fine.'], { text: 'Fine.' }, true]) {
      const res = await rate(shipper, id, { score: 3, comment });
      assert.equal(res.body.status, 'error', JSON.stringify(comment));
      assert.equal(res.body.code, 'ratings.comment_invalid', JSON.stringify(comment));
    }
    assert.equal((await app.services.db.selectFrom('ratings').select('id').where('freight_id', '=', id).execute()).length, 0);
    const max = await rate(shipper, id, { score: 1, comment: 'y'.repeat(1000) });
    assert.equal(max.body.status, 'success');
  });

  test('a freight the owner carried itself has nobody to rate', async () => {
    const id = await openFreight(app, shipper);
    await app.services.db
      .updateTable('freights')
      .set({ status: 'closed', winner_id: shipper.company, delivery_status: 3 })
      .where('id', '=', id)
      .execute();
    const res = await rate(shipper, id, { score: 5 });
    assert.equal(res.body.status, 'error');
    assert.equal(res.body.code, 'ratings.self');
  });
});

describe('GET /companies/ratings/{id}.json and the profile’s average', () => {
  test('newest first, paged, with the rating company’s name and the display id; never price or addresses', async () => {
    const rated = await app.actor('Rated');
    const raters = [await app.actor('RaterA'), await app.actor('RaterB'), await app.actor('RaterC')];
    const scores = [5, 4, 4];
    const freights: number[] = [];
    for (const [i, rater] of raters.entries()) {
      const id = await deliveredFreight(app, rater, rated, { refs: { customer: `REF-${i}` }, price: 1234 });
      freights.push(id);
      app.setNow(new Date(Date.now() + (i + 1) * 60_000));
      assert.equal((await rate(rater, id, { score: scores[i], comment: `comment ${i}` })).body.status, 'success');
    }
    app.setNow(null);
    const profile = (await profileOf(app, outsider, rated.company)).body.data.company;
    assert.deepEqual(profile.ratings, { count: 3, average: 4.3 });

    const all = await ratingsOf(outsider, rated.company);
    assert.equal(all.body.status, 'success');
    assert.equal(all.body.data.count, 3);
    const list = all.body.data.ratings;
    assert.deepEqual(
      list.map((r: { comment: string }) => r.comment),
      ['comment 2', 'comment 1', 'comment 0'],
    );
    assert.equal(list[0].company_name, raters[2]!.companyName);
    assert.equal(list[0].company.name, raters[2]!.companyName);
    assert.match(list[0].created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // An outsider sees the freight's id (references are the parties'); the parties see the reference.
    assert.equal(list[0].display_id, String(freights[2]));
    const own = await ratingsOf(rated, rated.company);
    assert.equal(own.body.data.ratings[0].display_id, 'REF-2');
    const text = JSON.stringify(all.body.data);
    for (const secret of ['1234', 'price', 'from', 'to_country', 'FRA', '60311']) assert.ok(!text.includes(secret), secret);

    const page2 = await ratingsOf(outsider, rated.company, '?limit=2&page=2');
    assert.deepEqual(
      page2.body.data.ratings.map((r: { comment: string }) => r.comment),
      ['comment 0'],
    );
    assert.equal((await ratingsOf(outsider, 999999)).status, 404);
    assert.equal((await ratingsOf(outsider, rated.company, '?limit=abc&page=-4')).body.data.ratings.length, 3);
  });

  test('averages only from 3 ratings on: none, one and two ratings have a count and no average', async () => {
    const rated = await app.actor('Rated twice');
    const ratingsNow = async () => (await profileOf(app, outsider, rated.company)).body.data.company.ratings;
    assert.deepEqual(await ratingsNow(), { count: 0, average: null });
    for (const [i, score] of [5, 1].entries()) {
      const rater = await app.actor(`Rater ${i}`);
      const id = await deliveredFreight(app, rater, rated);
      assert.equal((await rate(rater, id, { score })).body.status, 'success');
      assert.deepEqual(await ratingsNow(), { count: i + 1, average: null }, `${i + 1} rating(s)`);
    }
    const third = await app.actor('Rater 2');
    assert.equal((await rate(third, await deliveredFreight(app, third, rated), { score: 3 })).body.status, 'success');
    assert.deepEqual(await ratingsNow(), { count: 3, average: 3 });
  });
});

describe('POST /companies/reply/{ratingId}.json', () => {
  test('the rated company answers each rating once; anyone else gets 404', async () => {
    const id = await deliveredFreight(app, shipper, carrier);
    const rating = (await rate(shipper, id, { score: 2, comment: 'Late.' })).body.data.rating;
    for (const who of [shipper, outsider]) {
      const res = await app.post(`/companies/reply/${rating.id}.json`, { token: who.token, json: { reply: 'not mine' } });
      assert.equal(res.status, 404);
    }
    assert.equal((await app.post('/companies/reply/999999.json', { token: carrier.token, json: { reply: 'x' } })).status, 404);
    for (const reply of ['', '   ', 'z'.repeat(1001), ['a'], undefined]) {
      const res = await app.post(`/companies/reply/${rating.id}.json`, { token: carrier.token, json: { reply } });
      assert.equal(res.body.status, 'error');
      assert.equal(res.body.code, 'ratings.reply_required');
    }
    const first = await app.post(`/companies/reply/${rating.id}.json`, { token: carrier.token, json: { reply: 'A ferry was cancelled.' } });
    assert.equal(first.body.status, 'success', first.text);
    assert.equal(first.body.data.rating.reply, 'A ferry was cancelled.');
    assert.match(first.body.data.rating.replied, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const second = await app.post(`/companies/reply/${rating.id}.json`, { token: carrier.token, json: { reply: 'Changed my mind.' } });
    assert.equal(second.body.status, 'error');
    assert.equal(second.body.code, 'ratings.already_replied');
    const listed = (await ratingsOf(outsider, carrier.company)).body.data.ratings.find((r: { id: number }) => r.id === rating.id);
    assert.equal(listed.reply, 'A ferry was cancelled.');
  });
});

describe('event rating.received', () => {
  test('goes to the rated company’s webhooks only, with the rating', async () => {
    const hook = await app.post('/webhooks/add.json', {
      token: carrier.token,
      json: { url: 'https://hooks.example.com/carrier', events: ['rating.received'] },
    });
    assert.equal(hook.body.status, 'success', hook.text);
    const other = await app.post('/webhooks/add.json', {
      token: shipper.token,
      json: { url: 'https://hooks.example.com/shipper', events: ['*'] },
    });
    assert.equal(other.body.status, 'success');
    const id = await deliveredFreight(app, shipper, carrier);
    const rating = (await rate(shipper, id, { score: 4, comment: 'Good.' })).body.data.rating;
    const events = await app.services.db
      .selectFrom('events')
      .select(['company_id', 'body'])
      .where('type', '=', 'rating.received')
      .execute();
    const mine = events.filter((e) => JSON.parse(e.body).data.rating?.id === rating.id);
    assert.deepEqual(
      mine.map((e) => e.company_id),
      [carrier.company],
    );
    const body = JSON.parse(mine[0]!.body);
    assert.equal(body.type, 'rating.received');
    assert.equal(body.company, carrier.company);
    assert.equal(body.data.rating.score, 4);
    assert.equal(body.data.rating.company.id, shipper.company);
  });
});
