import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { actorPool, place, prices, seedAwards, type Pool } from './helpers.ts';

/**
 * Issue 47, item 10 (docs/choices.md, "Lane prices"): a lane whose current month shows no figures
 * says how many more awards it needs (`needed`), and shows the country pair around it (`wider`)
 * when that shows figures: exactly the answer of asking the country pair directly, so no
 * combination of the two answers tells more than each alone.
 */

const NOW = new Date('2031-03-15T10:00:00Z');
const THIS_MONTH = new Date('2031-03-10T10:00:00Z');

let app: TestApp;
let pool: Pool;
let reader: Actor;

before(async () => {
  app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
  app.setNow(NOW);
  pool = await actorPool(app);
  reader = await app.actor('Leser');
  // DE-60 → PL-30 busy (5 awards of 5 shippers: released), DE-80 → PL-00 thin (2 awards): the
  // country pair DE → PL shows the released figures, count 7.
  await seedAwards(app, pool, { from: place('DE', '60311'), to: place('PL', '30001'), when: THIS_MONTH }, [
    '1000',
    '1100',
    '1200',
    '1300',
    '1400',
  ]);
  await seedAwards(app, pool, { from: place('DE', '80331'), to: place('PL', '00001'), when: THIS_MONTH }, ['900', '950']);
});
after(() => app.close());

describe('a thin lane (issue 47, item 10)', () => {
  test('a postal lane with 2 awards this month needs 3 more and shows the country pair DE → PL', async () => {
    const res = await prices(app, reader, { from: 'DE-80', to: 'PL-00' });
    assert.equal(res.status, 200, res.text);
    const data = res.body.data;
    assert.equal(data.months.at(-1).count, 2);
    assert.equal(data.months.at(-1).median, null);
    assert.equal(data.needed, 3);
    assert.deepEqual(data.wider.lane, { from: 'DE', to: 'PL', currency: 'EUR' });
    const direct = await prices(app, reader, { from: 'DE', to: 'PL' });
    assert.deepEqual(data.wider.months, direct.body.data.months, 'the wider figures are the country pair’s own answer');
    const month = data.wider.months.at(-1);
    assert.equal(month.count, 7);
    assert.equal(month.released, 5);
    assert.equal(month.median, 1200);
    assert.equal(month.p25, 1100);
    assert.equal(month.p75, 1300);
  });

  test('the country pair itself: no wider lane; its figures show, so nothing is needed', async () => {
    const data = (await prices(app, reader, { from: 'DE', to: 'PL' })).body.data;
    assert.equal(data.wider, undefined);
    assert.equal(data.needed, undefined);
  });

  test('a lane whose country pair has no figures either: how many are needed, no wider lane', async () => {
    const data = (await prices(app, reader, { from: 'FR-75', to: 'ES-28' })).body.data;
    assert.equal(data.needed, 5);
    assert.equal(data.wider, undefined);
  });

  test('the page, in German and English: the awards needed and the country pair with its figures', async () => {
    for (const [language, needed, title] of [
      ['deu', 'Sie braucht noch mindestens 3 weitere', 'Die weitere Strecke DE → PL'],
      ['eng', 'It needs at least 3 more', 'The wider lane DE → PL'],
    ] as const) {
      const who = await app.actor(`Leser ${language}`, { language });
      const { cookie } = await browserSession(app, who);
      const res = await app.get('/market/prices', { query: { from: 'DE-80', to: 'PL-00' }, headers: { cookie } });
      assert.equal(res.status, 200);
      const html = res.text.replace(/&nbsp;|\u00a0|\u202f/g, ' ');
      assert.match(html, new RegExp(`data-testid="lane-needed">[^<]*${needed}`));
      assert.match(html, new RegExp(`<h2 id="lane-wider-title">${title}</h2>`));
      assert.match(html, /data-testid="lane-wider-chart"/);
      assert.match(html, /data-testid="lane-wider-months"/);
    }
  });
});
