import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { LiveHub } from '../../src/live/hub.ts';
import { announce } from '../../src/webhooks/outbox.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

/**
 * Issue 39, item 11 (docs/choices.md, Reliability: "A stream that does not read is cut off").
 * The review: a stream whose client never reads kept 3.7 MB queued in the kernel until the client
 * left (the stream was ended, and an end waits for the client to take what is queued). Here a
 * client opens the stream over a raw socket and never reads while events of 100 KB arrive: the
 * server must close the connection itself while the client still holds it open.
 */
describe(`a live stream whose client does not read (${TEST_DB})`, () => {
  let app: TestApp;
  let who: Actor;
  let hub: LiveHub;
  let server: http.Server;
  let port: number;

  before(async () => {
    app = await startTestApp();
    who = await app.actor('Sleeper');
    hub = new LiveHub({ db: app.services.db, clock: app.services.clock, listen: app.database.listen, stallMs: 500 });
    server = http.createServer((_req, res) => void hub.open({ userId: who.user, companyId: who.company }, res, {}));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await hub?.stop();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await app?.close();
  });

  const connections = () => new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

  test('events pile up unread: the server cuts the connection off while the client still holds it open', async () => {
    const client = net.connect(port, '127.0.0.1');
    await new Promise<void>((r) => client.once('connect', r));
    client.write(`GET /events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    // The client reads nothing, ever.
    client.pause();
    let closedByClient = false;
    for (let i = 0; i < 100 && hub.size === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(hub.size, 1, 'the stream is open');
    const big = 'x'.repeat(100_000);
    let sent = 0;
    try {
      // Up to 40 MB of events, a megabyte at a time, until the server lets the connection go.
      for (let round = 0; round < 40 && (await connections()) > 0; round++) {
        await app.services.db.transaction().execute((trx) =>
          announce(
            trx,
            app.services.clock,
            'freight.updated',
            Array.from({ length: 10 }, (_, k) => ({
              companyId: who.company,
              freightId: null,
              from: [who.company],
              data: () => ({ note: `${round}.${k}`, big }),
            })),
          ),
        );
        sent += 10;
        // Time for the events to be read and written, and for a stall to be noticed.
        for (let w = 0; w < 15 && (await connections()) > 0; w++) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(await connections(), 0, `the server closed the connection (after ${sent} events of 100 KB)`);
      assert.equal(hub.size, 0, 'the stream is gone from the hub');
      assert.ok(!client.destroyed, 'the client never left');
    } finally {
      closedByClient = true;
      client.destroy();
    }
    assert.ok(closedByClient);
  });
});
