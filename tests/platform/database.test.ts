import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp } from '../support/harness.ts';

test('idle PostgreSQL connections ended by the server (restart, failover) do not crash the process', {
  skip: TEST_DB !== 'postgres' && 'PostgreSQL only',
}, async () => {
  const app = await startTestApp();
  try {
    const alice = await app.actor('Alice');
    // Fill the pool with several idle connections.
    await Promise.all(Array.from({ length: 5 }, () => app.get('/users/me.json', { token: alice.token })));
    const database = String(
      (await app.services.db.selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name')).executeTakeFirstOrThrow()).name,
    );
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database]);
    await admin.end();
    assert.ok((rowCount ?? 0) > 0, 'connections were terminated');
    await new Promise((r) => setTimeout(r, 200)); // let the pool notice
    const res = await app.get('/users/me.json', { token: alice.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.user.id, alice.user);
  } finally {
    await app.close();
  }
});
