/**
 * What the exchange answers, as `npm run golden` writes it down (scripts/golden.ts) and as the
 * backup tests compare a restored server with its original (tests/ops/backup.test.ts): the
 * realistic exchange of the browser tests (tests/web/seed.ts: two shippers, four carriers, 85
 * freights in every state) seeded at a fixed clock, then every list (JSON, page, searched,
 * counts), freight views in every state as owner, bidder, winner and outsider, the other
 * modules' pages and answers, and /openapi.json and /docs, in English and German. What is random
 * by design (tokens, CSRF tokens, webhook secrets, event ids) is replaced by a placeholder;
 * everything else must match byte for byte.
 */
import { citiesReady } from '../../src/places/cities.ts';
import { seedExchange, type SeededExchange } from '../web/seed.ts';
import type { Actor, TestApp } from './harness.ts';
import { browserSession } from './session.ts';

/** The clock the answers are recorded at. */
export const GOLDEN_NOW = new Date('2026-11-20T09:30:00Z');

/** The seeded exchange, its parties (with an outsider) and a browser session of each. */
export interface GoldenWorld {
  seeded: SeededExchange;
  actors: Array<[string, Actor]>;
  sessions: Map<string, { cookie: string; csrf: string }>;
}

/** Seeds the exchange on `app` at GOLDEN_NOW (the app's clock stays there) and logs every party in. */
export async function seedGoldenWorld(app: TestApp): Promise<GoldenWorld> {
  app.setNow(GOLDEN_NOW);
  const seeded = await seedExchange(app, { now: GOLDEN_NOW });
  await citiesReady(); // city names in lists appear once the data set is loaded
  const actors: Array<[string, Actor]> = [
    ['shipperDe', seeded.shipperDe],
    ['shipperEn', seeded.shipperEn],
    ...seeded.carriers.map((c, i) => [`carrier${i}`, c] as [string, Actor]),
  ];
  actors.push(['outsider', await app.actor('Outsider')]);
  const sessions = new Map<string, { cookie: string; csrf: string }>();
  for (const [name, a] of actors) sessions.set(name, await browserSession(app, a));
  return { seeded, actors, sessions };
}

/** One recorded answer: its file name (`001-<name>.txt`) and text (request, status, headers, normalised body). */
export interface GoldenAnswer {
  file: string;
  text: string;
  status: number;
  length: number;
}

/** The freight lists the golden answers ask for (every filter id of the exchange's lists, TMS included). */
export const GOLDEN_LISTS = [8, 7, 6, 2, 9, 20, 10, 17, 18, 12, 19, 200, 201, 209, 210, 211, 219, 51, 52, 53];
/** The load searches the golden answers ask lists 8, 10 and 7 for (every kind of condition, a radius, a second page). */
export const GOLDEN_SEARCHES = [
  'from=DE&to=IT,ES&weight_min=5000',
  'from_near=50.11,8.68&from_radius=200&pickup_from=2000-01-01',
  'q=Maschinen&media=road&sort=Routes.weight&direction=asc',
  'to=airport:FRA&delivery_from=2026-11-01&delivery_to=2026-12-31&limit=5&page=2',
  'from=PL-0&weight_max=3000&from_radius=50',
];

/**
 * Asks `app` every golden request of `world` (its clock at GOLDEN_NOW) and answers what it said,
 * in order; with `only`, just the answers of those file names (asked again).
 */
export async function recordGolden(app: TestApp, world: GoldenWorld, only?: ReadonlySet<string>): Promise<GoldenAnswer[]> {
  await citiesReady();
  const { seeded, actors, sessions } = world;
  const secrets = actors.map(([, a]) => a.token);
  const f = seeded.freights;
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
  const answers: GoldenAnswer[] = [];
  async function record(name: string, url: string, who: string | null, format: 'json' | 'html') {
    const file = `${String(++n).padStart(3, '0')}-${name}.txt`;
    if (only && !only.has(file)) return;
    const actor = who ? actors.find(([k]) => k === who)![1] : null;
    const headers: Record<string, string> = {};
    if (format === 'html' && who) headers.cookie = sessions.get(who)!.cookie;
    const res = await app.get(url, { token: format === 'json' ? actor?.token : undefined, headers });
    const body = normalise(res.text);
    const head = `GET ${url} as ${who ?? 'anonymous'}\nstatus ${res.status}\ncontent-type ${res.headers['content-type'] ?? ''}\nlocation ${res.headers.location ?? ''}\n\n`;
    answers.push({ file, text: head + body, status: res.status, length: body.length });
  }
  const LISTS = GOLDEN_LISTS;
  const SEARCHES = GOLDEN_SEARCHES;
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
  return answers;
}
