/**
 * What the exchange answers, written down, so a refactoring can prove it changed no byte:
 *
 *   node --import tsx scripts/golden.ts DIR        # writes DIR/<n>-<name>.txt and DIR/SUMMARY
 *   diff -r before/ after/                          # nothing: the answers are the same
 *
 * Seeds the realistic exchange of the browser tests (tests/web/seed.ts: two shippers, four
 * carriers, 85 freights in every state) at a fixed clock, then asks every list (JSON, page,
 * searched, counts), freight views in every state as owner, bidder, winner and outsider, the
 * other modules' pages and answers, and /openapi.json and /docs, in English and German. What is
 * random by design (tokens, CSRF tokens, webhook secrets, event ids) is replaced by a placeholder
 * before writing; everything else must match byte for byte.
 */
import fs from 'node:fs';
import path from 'node:path';
import { citiesReady } from '../src/places/cities.ts';
import { startTestApp, type Actor, type TestApp } from '../tests/support/harness.ts';
import { browserSession } from '../tests/support/session.ts';
import { seedExchange } from '../tests/web/seed.ts';

const out = path.resolve(process.argv[2] ?? '.test-cache/golden');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const NOW = new Date('2026-11-20T09:30:00Z');
const app: TestApp = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
app.setNow(NOW);
const seeded = await seedExchange(app, { now: NOW });
await citiesReady(); // city names in lists appear once the data set is loaded
const f = seeded.freights;
const actors: Array<[string, Actor]> = [
  ['shipperDe', seeded.shipperDe],
  ['shipperEn', seeded.shipperEn],
  ...seeded.carriers.map((c, i) => [`carrier${i}`, c] as [string, Actor]),
];
const outsider = await app.actor('Outsider');
actors.push(['outsider', outsider]);

const secrets: string[] = [];
for (const [, a] of actors) secrets.push(a.token);
const sessions = new Map<string, { cookie: string; csrf: string }>();
for (const [name, a] of actors) sessions.set(name, await browserSession(app, a));

/** Random-by-design values become placeholders; nothing else is touched. */
function normalise(text: string): string {
  let t = text;
  for (const [i, s] of secrets.entries()) t = t.replaceAll(s, `<token ${i}>`);
  return t
    .replace(/name="_csrf" value="[^"]+"/g, 'name="_csrf" value="<csrf>"')
    .replace(/whsec_[A-Za-z0-9+/=]+/g, 'whsec_<secret>')
    .replace(/"(id|event_id)":"(evt|msg)_[A-Za-z0-9]+"/g, '"$1":"$2_<id>"');
}

let n = 0;
const lines: string[] = [];
async function record(name: string, url: string, who: string | null, format: 'json' | 'html') {
  const actor = who ? actors.find(([k]) => k === who)![1] : null;
  const headers: Record<string, string> = {};
  if (format === 'html' && who) headers.cookie = sessions.get(who)!.cookie;
  const res = await app.get(url, { token: format === 'json' ? actor?.token : undefined, headers });
  const body = normalise(res.text);
  const file = `${String(++n).padStart(3, '0')}-${name}.txt`;
  const head = `GET ${url} as ${who ?? 'anonymous'}\nstatus ${res.status}\ncontent-type ${res.headers['content-type'] ?? ''}\nlocation ${res.headers.location ?? ''}\n\n`;
  fs.writeFileSync(path.join(out, file), head + body);
  lines.push(`${file} ${res.status} ${body.length}`);
}

const LISTS = [8, 7, 6, 2, 9, 20, 10, 17, 18, 12, 19, 200, 201, 209, 210, 211, 219, 51, 52, 53];
const SEARCHES = [
  'from=DE&to=IT,ES&weight_min=5000',
  'from_near=50.11,8.68&from_radius=200&pickup_from=2000-01-01',
  'q=Maschinen&media=road&sort=Routes.weight&direction=asc',
  'to=airport:FRA&delivery_from=2026-11-01&delivery_to=2026-12-31&limit=5&page=2',
  'from=PL-0&weight_max=3000&from_radius=50',
];
const views = Object.entries(f).flatMap(([state, ids]) => ids.slice(0, 2).map((id) => [state, id] as const));

for (const [who] of actors) {
  for (const list of LISTS) {
    await record(`${who}-list-${list}`, `/freights/enlist/${list}.json`, who, 'json');
    await record(`${who}-list-${list}-page`, `/freights/enlist/${list}`, who, 'html');
  }
  for (const [i, q] of SEARCHES.entries()) {
    for (const list of [8, 10, 7]) {
      await record(`${who}-list-${list}-search-${i}`, `/freights/enlist/${list}.json?${q}`, who, 'json');
      await record(`${who}-list-${list}-search-${i}-page`, `/freights/enlist/${list}?${q}`, who, 'html');
    }
    await record(`${who}-counts-${i}`, `/freights/counts.json?${q}`, who, 'json');
  }
  await record(`${who}-counts`, '/freights/counts.json', who, 'json');
  for (const [state, id] of views) {
    await record(`${who}-view-${state}-${id}`, `/freights/view/${id}.json`, who, 'json');
    await record(`${who}-view-${state}-${id}-page`, `/freights/view/${id}`, who, 'html');
  }
  for (const page of [
    '/',
    '/freights/add',
    `/freights/edit/${f.draft[0]}`,
    '/templates/index',
    '/flights/index',
    '/pricing/search/results',
    '/pricing/search/history',
    '/milkrun/import/short/70',
    '/routes/enlist/53',
    '/cdr/cases/index',
    '/searches/index',
    '/notifications/index',
    '/webhooks/index',
    '/users/password',
  ]) {
    await record(`${who}-page${page.replaceAll('/', '_')}`, page, who, 'html');
  }
  for (const api of [
    '/templates/index.json',
    '/flights/index.json',
    '/searches/index.json',
    '/notifications/index.json',
    '/users/me.json',
  ]) {
    await record(`${who}-api${api.replaceAll('/', '_')}`, api, who, 'json');
  }
}
await record('openapi', '/openapi.json', null, 'json');
await record('docs', '/docs', null, 'html');
await record('login-page', '/users/login', null, 'html');

fs.writeFileSync(path.join(out, 'SUMMARY'), `${lines.join('\n')}\n`);
console.log(`${n} answers written to ${out}`);
await app.close();
