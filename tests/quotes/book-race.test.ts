import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createCompany, createUser } from '../../src/accounts/commands.ts';
import { TokenIssuer } from '../../src/accounts/tokens.ts';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { TEST_DB, createPostgresDatabase } from '../support/databases.ts';
import type { Actor } from '../support/harness.ts';
import { insertFreight } from './fixtures.ts';

/**
 * docs/reference.md#one-step: two companies booking one freight at once, one wins, the other gets
 * `status` = `error` — across server processes. Two servers on one PostgreSQL; eight carriers
 * book each of 20 freights at once, half of them through each server.
 */

const FREIGHTS = 20;
const CARRIERS = 8;

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

const SECRET = 'book-race-secret-0123456789';

describe('Book Now race, two server processes on one PostgreSQL', {
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

  test(`${FREIGHTS} freights, ${CARRIERS} carriers booking each at once on both processes: exactly one winner each`, async () => {
    const db = database.db;
    const tokens = new TokenIssuer(SECRET, 'demo');
    const actor = async (label: string): Promise<Actor> => {
      const company = await createCompany(db, `${label} Ltd`);
      const email = `${label.toLowerCase()}@book-race.test`;
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
    for (let i = 0; i < CARRIERS; i++) carriers.push(await actor(`Carrier${i}`));
    const post = async (base: string, path: string, token: string) => {
      const res = await fetch(base + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json', 'user-agent': 'book-race-test / 1.0' },
        body: '{}',
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const freights: number[] = [];
    for (let n = 0; n < FREIGHTS; n++) {
      const id = await insertFreight(db, shipper);
      await db
        .updateTable('freights')
        .set({ book_now: `${1000 + n}.50` })
        .where('id', '=', id)
        .execute();
      freights.push(id);
    }
    const shots = await Promise.all(
      freights.flatMap((id, n) =>
        carriers.map(async (c, i) => ({
          id,
          carrier: c.company,
          ...(await post(bases[(n + i) % 2]!, `/quotes/book/${id}.json`, c.token)),
        })),
      ),
    );
    assert.deepEqual([...new Set(shots.map((s) => s.status))], [200], 'every answer a 200 (never a 500)');
    for (const [n, id] of freights.entries()) {
      const mine = shots.filter((s) => s.id === id);
      const won = mine.filter((s) => s.body.status === 'success');
      assert.equal(won.length, 1, `freight ${id}: one winner`);
      for (const lost of mine.filter((s) => s.body.status !== 'success')) assert.equal(lost.body.code, 'quotes.book.not_available');
      const row = await db.selectFrom('freights').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual([row.status, row.winner_id, row.price], ['taken', won[0]!.carrier, `${1000 + n}.50`]);
      const bids = await db.selectFrom('bids').selectAll().where('freight_id', '=', id).execute();
      assert.deepEqual(
        bids.map((b) => [b.company_id, b.status]),
        [[won[0]!.carrier, 'accepted']],
        'the losers wrote nothing',
      );
      const orders = await db.selectFrom('deal_orders').select('freight_id').where('freight_id', '=', id).execute();
      assert.equal(orders.length, 1, 'one transport order');
    }
  });
});
