import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

let app: TestApp;
let carrier: Actor;
let outsider: Actor;

before(async () => {
  app = await startTestApp();
  carrier = await app.actor('Carrier');
  outsider = await app.actor('Outsider');
});
after(() => app.close());

const post = (who: Actor, path: string, json: unknown = {}) => app.post(path, { token: who.token, json });

describe('flights', () => {
  test('flights: provider is the creator; index lists all; bad input is an error', async () => {
    const res = await post(carrier, '/flights/add.json', {
      from: 'airport:FRA',
      to: 'jfk',
      etd: '2032-01-01 10:00',
      eta: '2032-01-01 18:30',
      flight_number: 'LH400',
    });
    assert.equal(res.body.status, 'success');
    const flight = res.body.data.flight;
    assert.equal(flight.company, carrier.company);
    assert.equal(flight.from, 'FRA');
    assert.equal(flight.to, 'JFK');
    assert.equal(flight.etd, '2032-01-01 10:00:00');
    const index = await app.get('/flights/index.json?limit=100', { token: outsider.token });
    assert.ok(index.body.data.flights.some((f: { id: number }) => f.id === flight.id));
    for (const bad of [
      {},
      { from: 'FRA', to: 'ZZZ', etd: '2032-01-01 10:00', eta: '2032-01-01 12:00', flight_number: 'X1' },
      { from: 'FRA', to: 'JFK', etd: '2032-01-01', eta: '2032-01-01 12:00', flight_number: 'X1' },
      { from: 'FRA', to: 'JFK', etd: '2032-01-02 10:00', eta: '2032-01-01 12:00', flight_number: 'X1' },
    ]) {
      const r = await post(carrier, '/flights/add.json', bad);
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'error');
    }
  });
});
