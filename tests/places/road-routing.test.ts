import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { round4, routingIdle } from '../../src/market/index.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';

/**
 * Road distances from an operator's OSRM server (ROUTING_URL; market/roads.ts, docs/choices.md
 * "Road distances"), against a small HTTP server answering OSRM's route format: the page never
 * waits for it (the estimate first), the route's km is fetched in the background, cached per place
 * pair in the database and shown from then on; a failing pair keeps the estimate and is not asked
 * again at once; the lists sort by the routed km.
 */

const FRANKFURT = { latitude: 50.11, longitude: 8.68 };
const MILANO = { latitude: 45.47, longitude: 9.19 };
const WARSZAWA = { latitude: 52.23, longitude: 21.01 };
const POZNAN = { latitude: 52.41, longitude: 16.93 };

let osrm: Server;
const asked: string[] = [];
let app: TestApp;
let shipper: Actor;
let carrier: Actor;
const ids = { milano: 0, poznan: 0 };

before(async () => {
  osrm = createServer((req, res) => {
    asked.push(req.url ?? '');
    const path = (req.url ?? '').split('?')[0];
    res.setHeader('content-type', 'application/json');
    if (path === '/route/v1/driving/8.6800,50.1100;9.1900,45.4700') {
      res.end(JSON.stringify({ code: 'Ok', routes: [{ distance: 588_123.4, duration: 21_000, legs: [] }], waypoints: [] }));
    } else {
      res.statusCode = 400;
      res.end(JSON.stringify({ code: 'NoRoute', message: 'Impossible route between points' }));
    }
  });
  await new Promise<void>((resolve) => osrm.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(osrm.address() as AddressInfo).port}`;
  app = await startTestApp({ env: { ROUTING_URL: url, ROUTING_TIMEOUT_MS: '2000', ROUTING_CONCURRENCY: '2' } });
  shipper = await app.actor('Verlader', { language: 'deu' });
  carrier = await app.actor('Carrier', { language: 'eng' });
  const publish = async (from: typeof FRANKFURT, to: typeof FRANKFURT, codes: [string, string]) => {
    const id = (
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: {
          from: codes[0],
          from_latitude: from.latitude,
          from_longitude: from.longitude,
          to: codes[1],
          to_latitude: to.latitude,
          to_longitude: to.longitude,
          etd: '2030-05-04 08:00',
          weight: 12000,
        },
      })
    ).body.data.id as number;
    await app.post(`/freights/view/${id}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+48 hours' } });
    return id;
  };
  ids.milano = await publish(FRANKFURT, MILANO, ['city:DE-60311', 'city:IT-20121']);
  ids.poznan = await publish(WARSZAWA, POZNAN, ['city:PL-00-001', 'city:PL-61-001']);
});
after(async () => {
  await app.close();
  await new Promise((resolve) => osrm.close(resolve));
});

const page = async (who: Actor, url: string) => {
  const { cookie } = await browserSession(app, who);
  const res = await app.get(url, { headers: { cookie } });
  assert.equal(res.status, 200);
  return res.text.replace(/&nbsp;|\u00a0|\u202f/g, ' ');
};
const fact = (html: string) => /data-testid="fact-distance">([^<]*)</.exec(html)?.[1];

describe('road distances from an OSRM server (ROUTING_URL)', () => {
  test('round4 rounds as PostgreSQL rounds the numeric coordinates', () => {
    assert.equal(round4('48.137450'), '48.1375');
    assert.equal(round4(48.13745), '48.1375');
    assert.equal(round4('-0.000050'), '-0.0001');
    assert.equal(round4('-0.000040'), '0.0000');
    assert.equal(round4(8.68), '8.6800');
    assert.equal(round4('abc'), null);
  });

  test('the first page shows the estimate at once; the route is fetched behind it and shown from then on', async () => {
    const first = fact(await page(carrier, `/freights/view/${ids.milano}`));
    assert.match(first ?? '', /^≈ [\d,]+ km \(estimate: great circle [\d,]+ km × 1\.27\)$/);
    await routingIdle();
    assert.equal(fact(await page(carrier, `/freights/view/${ids.milano}`)), '588 km (route)');
    assert.equal(fact(await page(shipper, `/freights/view/${ids.milano}`)), '588 km (Route)');
    const rows = await app.services.db.selectFrom('road_distances').selectAll().execute();
    assert.equal(rows.length, 1, 'one place pair cached');
    assert.equal(round4(rows[0]!.from_latitude), '50.1100');
    assert.equal(Math.round(rows[0]!.km * 10) / 10, 588.1);
    assert.equal(asked.filter((u) => u.startsWith('/route/v1/driving/8.6800,50.1100;9.1900,45.4700')).length, 1, 'asked once');
  });

  test('a pair the server has no route for keeps the estimate and is not asked again at once', async () => {
    const before = asked.length;
    assert.match(fact(await page(carrier, `/freights/view/${ids.poznan}`)) ?? '', /^≈ /);
    await routingIdle();
    assert.equal(asked.length, before + 1);
    assert.match(fact(await page(carrier, `/freights/view/${ids.poznan}`)) ?? '', /^≈ /);
    await routingIdle();
    assert.equal(asked.length, before + 1, 'not asked again within RETRY_MS');
  });

  test('the lists show the routed km and sort by it (the estimate where none is known)', async () => {
    const html = await page(carrier, '/freights/enlist/8?sort=Routes.distance&direction=asc');
    assert.match(html, /data-distance="routed">588 km</);
    const asc = (
      await app.get('/freights/enlist/8.json?sort=Routes.distance&direction=asc', { token: carrier.token })
    ).body.data.routes.map((r: { id: number }) => r.id);
    // Warszawa → Poznań: 279 km great circle, ≈ 355 km estimated; Frankfurt → Milano routed 588 km.
    assert.deepEqual(
      asc.filter((id: number) => id === ids.milano || id === ids.poznan),
      [ids.poznan, ids.milano],
    );
  });
});
