import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_DB } from '../support/databases.ts';
import { serverDatabase, startServer, type ServerDatabase, type ServerProcess } from '../reliability/server-process.ts';
import { about, openStream, type SseStream } from './support.ts';

/**
 * docs/reference.md#live-board and the graceful stop (src/main.ts): SIGTERM ends the open streams at once
 * (the server does not wait for their clients, nor cut them at the end of its grace period), and
 * the process exits 0; a client reconnecting with its last event id to the next server gets what
 * happened in between.
 */

describe(`a server process stopping with streams open (${TEST_DB})`, () => {
  let database: ServerDatabase;
  let server: ServerProcess | undefined;
  const open: SseStream[] = [];

  before(async () => {
    database = await serverDatabase(['shipper', 'carrier']);
  });
  after(async () => {
    for (const s of open) s.close();
    await server?.kill('SIGKILL');
    await database?.drop();
  });

  test('SIGTERM ends every stream and exits 0, before the grace period runs out; Last-Event-ID catches up on the next server', async () => {
    const [shipper, carrier] = database.actors as [(typeof database.actors)[0], (typeof database.actors)[0]];
    server = await startServer(database.env);
    const streams: SseStream[] = [];
    for (let i = 0; i < 3; i++) streams.push(await openStream(server.base, { token: carrier.token }));
    open.push(...streams);
    const add = await fetch(`${server.base}/freights/add.json`, {
      method: 'POST',
      headers: { authorization: `TokenPass ${shipper.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'airport:FRA', to: 'airport:AMS', weight: 100 }),
    });
    const first = ((await add.json()) as { data: { id: number } }).data.id;
    const publish = await fetch(`${server.base}/freights/view/${first}.json`, {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: `TokenPass ${shipper.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'publish' }),
    });
    assert.equal(publish.status, 302);
    const last = await streams[0]!.waitFor(about('freight.published', first));

    const code = await server.kill('SIGTERM');
    assert.equal(code, 0);
    for (const s of streams) await s.ended;
    const log = server.output();
    assert.ok(log.includes('"msg":"stopped"'), log.slice(-2000));
    assert.ok(!log.includes('did not finish in time'), 'no stream held the stop until its connections were cut');

    // Meanwhile (no server): nothing; then the next server, and a freight published there.
    server = await startServer(database.env);
    const publishOn = async (base: string) => {
      const res = await fetch(`${base}/freights/add.json`, {
        method: 'POST',
        headers: { authorization: `TokenPass ${shipper.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: 'airport:MUC', to: 'airport:VIE', weight: 200 }),
      });
      const id = ((await res.json()) as { data: { id: number } }).data.id;
      await fetch(`${base}/freights/view/${id}.json`, {
        method: 'POST',
        redirect: 'manual',
        headers: { authorization: `TokenPass ${shipper.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'publish' }),
      });
      return id;
    };
    const missed = await publishOn(server.base);
    const again = await openStream(server.base, { token: carrier.token, lastEventId: last.id });
    open.push(again);
    const replayed = await again.waitFor(about('freight.published', missed));
    assert.equal(replayed.json.company, carrier.company);
    assert.ok(!again.events.some((e) => e.id === last.id));
    assert.equal(await server.kill('SIGTERM'), 0);
  });
});
