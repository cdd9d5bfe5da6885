import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, loginAs, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';

const HOSTILE = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">"'><b>bold</b>`;

describe('pages: hostile input, language, widths', () => {
  let app: TestApp;
  let shipper: Actor;
  let german: Actor;
  let freightId: number;

  before(async () => {
    app = await startTestApp();
    shipper = await app.actor('Shipper');
    german = await app.actor('Spediteur', { language: 'deu' });
    const created = await app.post('/freights/add.json', {
      token: shipper.token,
      json: {
        from: 'airport:FRA',
        to: `city:${HOSTILE}`,
        to_addr: HOSTILE,
        category: HOSTILE,
        refs: { customer: HOSTILE, commodity: HOSTILE },
        pieces: [{ pieces: 1, weight: 10 }],
      },
    });
    freightId = created.body.data.id;
    await app.post(`/freights/view/${freightId}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+48 hours' } });
  });
  after(() => app.close());

  test('every page escapes what users typed', async () => {
    const cookie = (await browserSession(app, shipper)).cookie;
    for (const url of [`/freights/view/${freightId}`, '/freights/enlist/10', `/freights/edit/${freightId}`]) {
      const res = await app.get(url, { headers: { cookie } });
      assert.equal(res.status, 200, url);
      assert.ok(!res.text.includes('<script>window.__pwned'), `${url} contains a raw script tag`);
      assert.ok(!res.text.includes('<img src=x'), `${url} contains a raw img tag`);
      assert.ok(res.text.includes('&lt;script>') || res.text.includes('&lt;script&gt;'), `${url} shows the text escaped`);
    }
  });

  test('the pages follow the user’s language', async () => {
    const cookie = (await browserSession(app, german)).cookie;
    const res = await app.get('/freights/enlist/8', { headers: { cookie } });
    assert.match(res.text, /Offene Anfragen/);
    assert.match(res.text, /Ratensuche/);
    assert.match(res.text, /<html lang="de"/);
    const view = await app.get(`/freights/view/${freightId}`, { headers: { cookie } });
    assert.match(view.text, /nicht definiert/, 'placeholders in German');
    const api = await app.get(`/freights/view/${freightId}.json`, { token: german.token });
    assert.equal(api.body.data.route.f_eta, 'nicht definiert');
  });

  describe('in a browser', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
    let browser: Browser;
    let base: string;
    before(async () => {
      base = await app.listen();
      browser = await launchBrowser();
    });
    after(() => browser?.close());

    test('hostile text never runs as script, and the content policy holds', async () => {
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on('console', (m) => m.type() === 'error' && /Content Security Policy/.test(m.text()) && violations.push(m.text()));
      await loginAs(page, base, shipper.email, shipper.password);
      for (const url of [`/freights/view/${freightId}`, '/freights/enlist/10', `/freights/edit/${freightId}`]) {
        await page.goto(`${base}${url}`);
        assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, url);
        assert.equal(await page.locator('b', { hasText: 'bold' }).count(), 0, `${url} rendered user markup`);
      }
      assert.deepEqual(violations, [], 'our own pages need nothing the policy forbids');
      await page.close();
    });

    test('the freight page works at tablet width', async () => {
      const page = await browser.newPage({ viewport: { width: 820, height: 1100 } });
      await loginAs(page, base, shipper.email, shipper.password);
      await page.goto(`${base}/freights/view/${freightId}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
      await screenshot(page, 'freight-view-tablet');
      await page.close();
    });
  });
});
