import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { citiesReady } from '../../src/places/cities.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { seedExchange, type SeededExchange } from './seed.ts';

/**
 * Issue 24, item 11's figure: what a 50-row list page of the realistic exchange (tests/web/seed.ts,
 * topped up to 50 open requests) weighs on the wire, asked over a socket as a browser asks it,
 * without Accept-Encoding, with gzip and with brotli. Printed for docs/choices.md (the
 * accessibility and compression paragraphs); the test asserts only that the three carry the same
 * page of 50 rows and that compression saves most of it (the figures are measured, not promised).
 *
 * @engine-independent: the page's bytes on the wire are the same from either database; it runs
 * once a test run (scripts/test.mjs).
 */
describe('the bytes of a 50-row list page, plain and compressed', () => {
  let app: TestApp;
  let seeded: SeededExchange;
  let base: string;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    seeded = await seedExchange(app);
    // The open requests of a carrier: topped up with freights of the English shipper to 50 and more.
    const carrier = seeded.carriers[0]!;
    const count = async () =>
      (await app.get('/freights/enlist/8.json?limit=100', { token: carrier.token })).body.data.routes.length as number;
    for (let missing = 55 - (await count()), i = 0; i < missing; i++) {
      const add = await app.post('/freights/add.json', {
        token: seeded.shipperEn.token,
        json: {
          from: 'city:DE-60311',
          from_latitude: 50.11,
          from_longitude: 8.68,
          to: 'city:PL-00-001',
          to_latitude: 52.23,
          to_longitude: 21.01,
          etd_range: '2030-05-04 08:00 to 2030-05-04 12:00',
          weight: 10000 + i * 100,
          category: 'ftl',
          refs: { customer: `TOP-${i}`, commodity: 'Getränke, 33 Paletten' },
          share: ['goods'],
        },
      });
      await app.post(`/freights/view/${add.body.data.id}.json`, {
        token: seeded.shipperEn.token,
        json: { action: 'publish', deadline: '+3 days' },
      });
    }
    await citiesReady(); // the same page every time: the lists name towns once the city data is loaded
    base = await app.listen();
  });
  after(() => app?.close());

  /** One GET over a real socket; the bytes as they arrived (not decoded). */
  function get(url: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  }

  test('plain, gzip and brotli', async () => {
    const { cookie } = await browserSession(app, seeded.carriers[0]!);
    const url = `${base}/freights/enlist/8?limit=50`;
    const headers = { cookie, 'user-agent': 'Mozilla/5.0 (figures)', accept: 'text/html' };
    // The three answers are compared byte for byte: the clock stands still meanwhile, so nothing
    // that reads it (a deadline passing, an age) changes between them on a slow machine.
    app.setNow(new Date());
    const plain = await get(url, headers);
    const gzip = await get(url, { ...headers, 'accept-encoding': 'gzip' });
    const brotli = await get(url, { ...headers, 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(brotli.headers['content-encoding'], 'br');
    const html = plain.bytes.toString('utf8');
    const rows = (html.match(/href="\/freights\/view\/\d+" class="route"/g) ?? []).length;
    assert.equal(rows, 50, 'a page of 50 rows');
    const same = (s: string) => s.replace(/name="_csrf" value="[^"]*"/g, '').replace(/data-csrf="[^"]*"/g, '');
    app.setNow(null);
    /** Where two pages first differ, to name it when they do. */
    const firstDifference = (a: string, b: string) => {
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      return `at ${i}: …${a.slice(Math.max(0, i - 120), i + 80)}… / …${b.slice(Math.max(0, i - 120), i + 80)}…`;
    };
    const unzipped = same(gunzipSync(gzip.bytes).toString('utf8'));
    const unbrotli = same(brotliDecompressSync(brotli.bytes).toString('utf8'));
    assert.ok(unzipped === same(html), `gzip: the same page (${firstDifference(unzipped, same(html))})`);
    assert.ok(unbrotli === same(html), `brotli: the same page (${firstDifference(unbrotli, same(html))})`);
    const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
    console.log(
      `# a 50-row list page (/freights/enlist/8?limit=50): ${plain.bytes.length} bytes plain (${kb(plain.bytes.length)}), ` +
        `${gzip.bytes.length} gzip (${kb(gzip.bytes.length)}), ${brotli.bytes.length} brotli (${kb(brotli.bytes.length)})`,
    );
    assert.ok(gzip.bytes.length < plain.bytes.length / 4 && brotli.bytes.length <= gzip.bytes.length);
  });
});
