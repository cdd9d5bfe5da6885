import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { createCompany, createUser } from '../../src/accounts/commands.ts';
import { TokenIssuer } from '../../src/accounts/tokens.ts';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import type { DB } from '../../src/db/schema.ts';
import { TEST_DB, createPostgresDatabase } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { bidsOf, confirm, freightRow, insertFreight, placeBid, publishedFreight } from './fixtures.ts';

/**
 * The award is race-proof: whatever the interleaving of owner and bidder confirmations (and
 * repeats of them), every freight ends with exactly one accepted bid, and winner, transport
 * company and price are that bid's. Checked in one process (concurrent app.inject) on either
 * engine, and with two server processes on one PostgreSQL database.
 */

const FREIGHTS = 30;
const BIDS = 4;

interface Shot {
  freight: number;
  status: number;
}

/** Checks the end state of every freight and the answers; returns winners per freight. */
async function assertOneWinnerEach(db: Kysely<DB>, freights: number[], shots: Shot[]): Promise<Map<number, number>> {
  const winners = new Map<number, number>();
  const codes = new Set(shots.map((s) => s.status));
  assert.deepEqual(
    [...codes].filter((c) => c !== 200 && c !== 302),
    [],
    'only 200 and 302 answers, never a 500',
  );
  for (const id of freights) {
    const f = await db.selectFrom('freights').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const bids = await db.selectFrom('bids').selectAll().where('freight_id', '=', id).execute();
    const accepted = bids.filter((b) => b.status === 'accepted');
    assert.equal(f.status, 'taken', `freight ${id}`);
    assert.equal(accepted.length, 1, `freight ${id}: exactly one accepted bid`);
    const win = accepted[0]!;
    assert.equal(f.winner_id, win.company_id);
    assert.equal(f.transport_company_id, win.company_id);
    assert.equal(f.price, win.amount);
    assert.ok(win.owner_confirmed && win.bidder_confirmed);
    for (const b of bids.filter((x) => x !== win)) {
      assert.equal(b.status, 'open', `freight ${id}: the losing bids are open again`);
      assert.ok(!b.owner_confirmed && !b.bidder_confirmed);
    }
    const awards = shots.filter((s) => s.freight === id && s.status === 200).length;
    assert.equal(awards, 1, `freight ${id}: exactly one confirmation answered 200 (the award)`);
    winners.set(id, win.company_id);
  }
  return winners;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

describe('award race, one process (concurrent requests)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  test(`${FREIGHTS / 3} freights x ${BIDS} bids, owner and bidders confirming at once, each twice`, async () => {
    const shipper = await app.actor('Shipper');
    const carriers: Actor[] = [];
    for (let i = 0; i < BIDS; i++) carriers.push(await app.actor(`Carrier${i}`));
    const freights: number[] = [];
    const calls: Array<() => Promise<Shot>> = [];
    for (let n = 0; n < FREIGHTS / 3; n++) {
      const route = await publishedFreight(app, shipper);
      freights.push(route);
      for (const [i, c] of carriers.entries()) {
        const bid = await placeBid(app, c, route, { amount: `${1000 + i}.${String(n % 100).padStart(2, '0')}` });
        for (const actor of [shipper, c, shipper, c])
          calls.push(async () => ({ freight: route, status: (await confirm(app, actor, bid.id)).status }));
      }
    }
    const shots = await Promise.all(shuffle(calls).map((call) => call()));
    const winners = await assertOneWinnerEach(app.services.db, freights, shots);
    console.log(
      `one process on ${TEST_DB}: ${shots.length} confirmations, ${shots.filter((s) => s.status === 200).length} awards, winners per freight ${JSON.stringify([...winners.values()].map((w) => carriers.findIndex((c) => c.company === w)))}`,
    );
  });

  test('the unique index is the last line of defence: a second accepted bid is refused with a 302, nothing written', async () => {
    const shipper = await app.actor('Shipper');
    const a = await app.actor('CarrierA');
    const b = await app.actor('CarrierB');
    const route = await publishedFreight(app, shipper);
    const bidA = await placeBid(app, a, route);
    const bidB = await placeBid(app, b, route);
    await confirm(app, shipper, bidB.id);
    // Simulate a broken invariant (as if another writer had slipped past the lock).
    await app.services.db.updateTable('bids').set({ status: 'accepted' }).where('id', '=', bidA.id).execute();
    const before = { freight: await freightRow(app, route), bids: await bidsOf(app, route) };
    const res = await confirm(app, b, bidB.id);
    assert.equal(res.status, 302);
    assert.deepEqual(await freightRow(app, route), before.freight);
    assert.deepEqual(await bidsOf(app, route), before.bids);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function waitHealthy(base: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server at ${base} did not become healthy: ${stderr()}`);
}

const SECRET = 'race-test-secret-0123456789';

describe('award race, two server processes on one PostgreSQL', {
  skip: TEST_DB !== 'postgres' ? 'needs PostgreSQL (TEST_DB=postgres): PGlite is one process by design' : false,
}, () => {
  const children: ChildProcess[] = [];
  const bases: string[] = [];
  let database: Database;
  let drop: () => Promise<void>;

  before(async () => {
    // A copy of the migrated template: the servers find every migration applied.
    const created = await createPostgresDatabase({ migrated: true });
    drop = created.drop;
    database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      let err = '';
      const child = spawn(process.execPath, ['bin/freight-exchange.js', 'serve'], {
        cwd: new URL('../../', import.meta.url).pathname,
        env: {
          ...process.env,
          DATABASE_URL: created.url,
          TOKEN_SECRET: SECRET,
          APP_ENV: 'demo',
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr!.on('data', (d) => (err += String(d)));
      children.push(child);
      bases.push(`http://127.0.0.1:${port}`);
      await waitHealthy(bases[i]!, child, () => err);
    }
  });

  after(async () => {
    for (const child of children) {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }
    await database?.close();
    await drop?.();
  });

  test(`${FREIGHTS} freights x ${BIDS} bids: owner and bidders confirm at once on both processes, each side twice`, async () => {
    const db = database.db;
    const tokens = new TokenIssuer(SECRET, 'demo');
    const actor = async (label: string): Promise<Actor> => {
      const company = await createCompany(db, `${label} Ltd`);
      const email = `${label.toLowerCase()}@race.test`;
      const user = await createUser(db, tokens, { company: company.id, email, password: 'pw-racing' });
      return {
        company: company.id,
        companyName: company.name,
        user: user.id,
        email,
        username: label,
        password: 'pw-racing',
        token: user.token,
      };
    };
    const shipper = await actor('Shipper');
    const carriers: Actor[] = [];
    for (let i = 0; i < BIDS; i++) carriers.push(await actor(`Carrier${i}`));

    const post = async (base: string, path: string, token: string, json?: unknown) => {
      const res = await fetch(base + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json', 'user-agent': 'race-test / 1.0' },
        body: JSON.stringify(json ?? {}),
      });
      const text = await res.text();
      return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
    };

    const freights: number[] = [];
    const calls: Array<() => Promise<Shot>> = [];
    for (let n = 0; n < FREIGHTS; n++) {
      const route = await insertFreight(db, shipper);
      freights.push(route);
      for (const [i, c] of carriers.entries()) {
        const res = await post(bases[(n + i) % 2]!, '/quotes/add.json', c.token, {
          route,
          amount: `${2000 + i * 10}.${String(n).padStart(2, '0')}`,
          currency_code: 'EUR',
        });
        assert.equal(res.body.status, 'success', JSON.stringify(res.body));
        const bidId = res.body.data.bid.id as number;
        // Each side confirms twice, once on each process: repeats race with the first.
        for (const [who, base] of [
          [shipper, bases[0]],
          [c, bases[1]],
          [shipper, bases[1]],
          [c, bases[0]],
        ] as const) {
          calls.push(async () => ({ freight: route, status: (await post(base!, `/quotes/confirm/${bidId}.json`, who.token)).status }));
        }
      }
    }
    const started = Date.now();
    const shots = await Promise.all(shuffle(calls).map((call) => call()));
    const winners = await assertOneWinnerEach(db, freights, shots);
    const perCarrier = carriers.map((c) => [...winners.values()].filter((w) => w === c.company).length);
    console.log(
      `two processes on PostgreSQL: ${FREIGHTS} freights x ${BIDS} bids, ${shots.length} concurrent confirmations in ${Date.now() - started} ms: ` +
        `${shots.filter((s) => s.status === 200).length} answered 200 (awards), ${shots.filter((s) => s.status === 302).length} answered 302; ` +
        `every freight taken with exactly 1 accepted bid; wins per carrier ${JSON.stringify(perCarrier)}`,
    );
  });
});
