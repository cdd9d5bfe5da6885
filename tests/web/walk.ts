/**
 * Walks every page as a shipper and as a carrier, in German and English, at 390 and 1366 px,
 * on the seeded exchange (tests/web/seed.ts), and saves a screenshot of each for a person to
 * look at. No assertions: the browser tests check; this is for eyes.
 *
 *   node --import tsx tests/web/walk.ts [out-dir] [filter]
 *
 * Writes to .test-cache/walk/ by default (`deu-390-shipper-freight-view-open.png`, …) and prints
 * the pages that scroll sideways.
 */
import fs from 'node:fs';
import path from 'node:path';
import { citiesReady } from '../../src/places/cities.ts';
import { launchBrowser } from '../support/browser.ts';
import { startTestApp, type Actor } from '../support/harness.ts';
import { DESKTOP, pageFor, PHONE, sideScroll } from './helpers.ts';
import { seedExchange } from './seed.ts';

const out = path.resolve(process.argv[2] ?? '.test-cache/walk');
const filter = process.argv[3] ?? '';
fs.mkdirSync(out, { recursive: true });

const app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
const seeded = await seedExchange(app);
await citiesReady();
const base = await app.listen();
const browser = await launchBrowser();
const f = seeded.freights;
const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];

const shipperPages: [string, string][] = [
  ['list-10', '/freights/enlist/10'],
  ['list-17', '/freights/enlist/17'],
  ['list-20', '/freights/enlist/20'],
  ['list-12', '/freights/enlist/12'],
  ['list-19', '/freights/enlist/19'],
  ['list-200', '/freights/enlist/200'],
  ['list-searched', '/freights/enlist/10?from=DE&to=IT,ES&weight_min=5000'],
  ['view-draft', `/freights/view/${f.draft[0]}`],
  ['view-open', `/freights/view/${f.open[2]}`],
  ['view-pending', `/freights/view/${f.pending[0]}`],
  ['view-taken', `/freights/view/${f.taken[0]}`],
  ['view-expired', `/freights/view/${f.expired[0]}`],
  ['view-booking', `/freights/view/${f.booking[0]}`],
  ['add', '/freights/add'],
  ['edit', `/freights/edit/${f.draft[0]}`],
  ['rates', '/pricing/search/results'],
  ['templates', '/templates/index'],
  ['flights', '/flights/index'],
  ['milkrun', '/milkrun/import/short/70'],
  ['cases', '/cdr/cases/index'],
  ['searches', '/searches/index'],
  ['notifications', '/notifications/index'],
  ['account', '/users/password'],
  ['webhooks', '/webhooks/index'],
  ['missing', '/no/such/page'],
];
const carrierPages: [string, string][] = [
  ['list-8', '/freights/enlist/8'],
  ['list-8-searched', '/freights/enlist/8?from_near=50.11,8.68&from_radius=200&pickup_from=2000-01-01'],
  ['list-7', '/freights/enlist/7'],
  ['list-2', '/freights/enlist/2'],
  ['list-6', '/freights/enlist/6'],
  ['list-210', '/freights/enlist/210'],
  ['view-open', `/freights/view/${f.open[2]}`],
  ['view-pending', `/freights/view/${f.pending[0]}`],
  ['view-taken', `/freights/view/${f.taken[0]}`],
  ['view-booking', `/freights/view/${f.booking[0]}`],
];

const wide: string[] = [];
for (const lang of ['deu', 'eng'] as const) {
  for (const viewport of [PHONE, DESKTOP]) {
    const roles: [string, Actor, [string, string][]][] = [
      ['shipper', lang === 'deu' ? seeded.shipperDe : seeded.shipperEn, shipperPages],
      ['carrier', lang === 'deu' ? seeded.carriers[1]! : seeded.carriers[0]!, carrierPages],
    ];
    for (const [role, actor, pages] of roles) {
      const page = await pageFor(browser, base, actor, viewport, contexts, lang === 'deu' ? 'de-DE' : 'en-GB');
      for (const [name, url] of pages) {
        const file = `${lang}-${viewport.width}-${role}-${name}.png`;
        if (filter && !file.includes(filter)) continue;
        await page.goto(`${base}${url}`);
        const overflow = await sideScroll(page);
        if (overflow > 0) wide.push(`${file}: ${overflow}px`);
        // Screens as the person sees them, top first (at most four per page).
        const height = await page.evaluate(() => document.scrollingElement!.scrollHeight);
        for (let i = 0, y = 0; y < height && i < 4; i++, y += viewport.height) {
          const clip = { x: 0, y, width: viewport.width, height: Math.min(viewport.height, height - y) };
          await page.screenshot({ path: path.join(out, i ? file.replace('.png', `-${i + 1}.png`) : file), clip, fullPage: true });
        }
      }
    }
  }
}
console.log(`screenshots in ${out}`);
console.log(wide.length ? `sideways scroll:\n${wide.join('\n')}` : 'no page scrolls sideways');
console.log(JSON.stringify(f));
for (const c of contexts) await c.close();
await browser.close();
await app.close();
