import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DatabaseConnection } from 'kysely';
import pg from 'pg';
import { CALLER_CHANNEL, forgetCachedCallers, TOKEN_CACHE_MS, type TokenAuthenticator } from '../../src/accounts/authenticator.ts';
import { newNonce } from '../../src/accounts/tokens.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { openFreight } from './helpers.ts';

// Issue 11: a token-authenticated freight view and a list page are one database statement each
// (authentication from the bounded cache); the cache honours a changed user within a second.

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
let statements: string[] = [];

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  // Count what reaches the database, on either engine: the connection class's executeQuery, and
  // on a PostgreSQL server the statements prepared by the wire protocol (db/prepared.ts), which
  // `pg` runs by name without Kysely.
  await app.services.db.getExecutor().provideConnection(async (conn: DatabaseConnection) => {
    const proto = Object.getPrototypeOf(conn) as DatabaseConnection;
    const original = proto.executeQuery;
    proto.executeQuery = function (this: DatabaseConnection, query) {
      statements.push(query.sql.slice(0, 60));
      return original.call(this, query);
    } as DatabaseConnection['executeQuery'];
  });
  const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as { name?: string } | undefined;
    // A statement named on its second run (db/prepared.ts nameRepeatedStatements) was counted by executeQuery above.
    if (typeof config === 'object' && config?.name && !config.name.startsWith('fx_s_'))
      statements.push(`execute ${config.name.replace(/_w$/, '')}`);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
});
after(() => app.close());

/**
 * The statements one request sends, its caller's token freshly cached: forgotten, then verified
 * by a trivial request just before, so a slow machine (a second between warming and measuring)
 * does not count the token lookup of an expired cache entry.
 */
async function counted(run: () => Promise<unknown>): Promise<string[]> {
  forgetCachedCallers();
  await app.get('/users/me.json', { token: carrier.token });
  statements = [];
  await run();
  return statements;
}

describe('one statement per view and per list page', () => {
  test('view, list and a trivial request by a known token', async () => {
    const id = await openFreight(app, shipper, { pieces: [{ pieces: 2, weight: 50 }] });
    const bid = await app.post('/quotes/add.json', { token: carrier.token, json: { route: id, amount: '100', currency_code: 'EUR' } });
    assert.equal(bid.body.status, 'success');
    // Warm: the token cached, the statements prepared on this connection.
    await app.get(`/freights/view/${id}.json`, { token: carrier.token });
    await app.get('/freights/enlist/7.json', { token: carrier.token });

    let res: Awaited<ReturnType<typeof app.get>> | undefined;
    const view = await counted(async () => (res = await app.get(`/freights/view/${id}.json`, { token: carrier.token })));
    assert.equal(res!.body.data.route._bids.length, 1);
    assert.equal(res!.body.data.route._route_pieces[0].pieces, 2);
    assert.equal(res!.body.data.route._company.id, shipper.company);
    assert.equal(view.length, 1, view.join(' | '));
    assert.match(view[0]!, /^execute fx_freight_view/);

    const list = await counted(async () => (res = await app.get('/freights/enlist/7.json', { token: carrier.token })));
    assert.deepEqual(
      res!.body.data.routes.map((r: { id: number }) => r.id),
      [id],
    );
    assert.equal(list.length, 1, list.join(' | '));

    assert.deepEqual(await counted(() => app.get('/users/me.json', { token: carrier.token })), []);
  });

  test('the market list of a user who hides loads is still one statement (issue 47, item 11)', async () => {
    const [shown, hidden] = [await openFreight(app, shipper), await openFreight(app, shipper)];
    assert.equal((await app.post(`/freights/hide/${hidden}.json`, { token: carrier.token })).body.status, 'success');
    await app.get('/freights/enlist/8.json', { token: carrier.token });
    let res: Awaited<ReturnType<typeof app.get>> | undefined;
    const list = await counted(async () => (res = await app.get('/freights/enlist/8.json', { token: carrier.token })));
    const ids = res!.body.data.routes.map((r: { id: number }) => r.id);
    assert.ok(ids.includes(shown) && !ids.includes(hidden), JSON.stringify(ids));
    assert.equal(list.length, 1, list.join(' | '));
    assert.match(list[0]!, /^execute fx_list_8_/);
  });
});

describe('the token cache', () => {
  test('a rotated token is refused within TOKEN_CACHE_MS on its own; forgetCachedCallers at once', async () => {
    const user = await app.actor('Rotating');
    assert.equal((await app.get('/users/me.json', { token: user.token })).status, 200);
    // Another process rotates the token (a new nonce); this one has the caller cached.
    await app.services.db.updateTable('users').set({ token_nonce: newNonce() }).where('id', '=', user.user).execute();
    const rotatedAt = performance.now();
    await new Promise((r) => setTimeout(r, TOKEN_CACHE_MS + 50));
    assert.ok(performance.now() - rotatedAt > TOKEN_CACHE_MS);
    assert.equal((await app.get('/users/me.json', { token: user.token })).status, 401);

    const other = await app.actor('Forgotten');
    assert.equal((await app.get('/users/me.json', { token: other.token })).status, 200);
    await app.services.db.updateTable('users').set({ token_nonce: newNonce() }).where('id', '=', other.user).execute();
    forgetCachedCallers(other.user);
    assert.equal((await app.get('/users/me.json', { token: other.token })).status, 401);
  });

  test('a token in steady use is looked up again in the background, in one statement, never by a request', async () => {
    const refresh = () => (app.services.auth as TokenAuthenticator).refreshTokens();
    const [steady, idle, rotated] = [await app.actor('Steady'), await app.actor('Idle'), await app.actor('Rotated')];
    for (const user of [steady, idle, rotated]) assert.equal((await app.get('/users/me.json', { token: user.token })).status, 200);
    const firstLookup = performance.now();
    await new Promise((r) => setTimeout(r, TOKEN_CACHE_MS / 2 + 50));
    // Used since their lookup: steady and rotated (whose nonce another process changes); idle not.
    statements = [];
    for (const user of [steady, rotated]) assert.equal((await app.get('/users/me.json', { token: user.token })).status, 200);
    assert.deepEqual(statements, [], 'served from the cache');
    await app.services.db.updateTable('users').set({ token_nonce: newNonce() }).where('id', '=', rotated.user).execute();
    statements = [];
    await refresh();
    assert.equal(statements.length, 1, statements.join(' | '));

    await new Promise((r) => setTimeout(r, Math.max(0, TOKEN_CACHE_MS + 50 - (performance.now() - firstLookup))));
    statements = [];
    assert.equal((await app.get('/users/me.json', { token: steady.token })).status, 200);
    assert.deepEqual(statements, [], 'refreshed: still served without a lookup, a second after the first');
    assert.equal((await app.get('/users/me.json', { token: rotated.token })).status, 401);
    statements = [];
    assert.equal((await app.get('/users/me.json', { token: idle.token })).status, 200);
    assert.equal(statements.length, 1, 'not used meanwhile: expired, looked up by its request');
  });

  test('a changed name shows within TOKEN_CACHE_MS; wrong tokens are never cached', async () => {
    const user = await app.actor('Renamed');
    await app.get('/users/me.json', { token: user.token });
    await app.services.db.updateTable('users').set({ realname: 'New Name' }).where('id', '=', user.user).execute();
    await new Promise((r) => setTimeout(r, TOKEN_CACHE_MS + 50));
    assert.equal((await app.get('/users/me.json', { token: user.token })).body.data.user.realname, 'New Name');
    const forged = `${user.user}.${'A'.repeat(43)}`;
    for (let i = 0; i < 2; i++) assert.equal((await app.get('/users/me.json', { token: forged })).status, 401);
  });
});

describe('changed callers through NOTIFY (issue 49)', () => {
  test('the database announces a changed user or company on CALLER_CHANNEL at the commit, whoever writes', async () => {
    const user = await app.actor('Announced');
    const heard: string[] = [];
    let wake: (() => void) | undefined;
    const stop = await app.database.listen(CALLER_CHANNEL, (payload) => {
      heard.push(payload);
      wake?.();
    });
    const until = (n: number) =>
      new Promise<void>((resolve) => {
        wake = () => heard.length >= n && resolve();
        wake();
      });
    try {
      await app.services.db.updateTable('users').set({ token_nonce: newNonce() }).where('id', '=', user.user).execute();
      await until(1);
      await app.services.db.updateTable('companies').set({ name: 'Announced Renamed' }).where('id', '=', user.company).execute();
      await until(2);
      // A column no caller holds announces nothing: the next one heard is the e-mail's.
      await app.services.db.updateTable('users').set({ password_hash: 'x' }).where('id', '=', user.user).execute();
      await app.services.db.updateTable('users').set({ email: 'announced-2@example.test' }).where('id', '=', user.user).execute();
      await until(3);
      assert.deepEqual(heard, [`u${user.user}`, `c${user.company}`, `u${user.user}`]);
    } finally {
      await stop();
    }
  });

  test('a caller is forgotten when its user or company is announced; every caller when notifications were missed', async () => {
    const auth = app.services.auth as TokenAuthenticator;
    const user = await app.actor('Renamed Co');
    const lookups = () => statements.filter((s) => s.startsWith('select "users"."id"')).length;
    assert.equal((await app.get('/users/me.json', { token: user.token })).status, 200);
    auth.callerChanged(`c${user.company + 1000}`);
    statements = [];
    assert.equal((await app.get('/users/me.json', { token: user.token })).status, 200);
    assert.equal(lookups(), 0, 'another company changed: still served from the cache');
    auth.callerChanged(`c${user.company}`);
    statements = [];
    assert.equal((await app.get('/users/me.json', { token: user.token })).status, 200);
    assert.equal(lookups(), 1, 'looked up again after its company changed');
    auth.callerChanged(`u${user.user}`);
    statements = [];
    assert.equal((await app.get('/users/me.json', { token: user.token })).status, 200);
    assert.equal(lookups(), 1, 'looked up again after its user changed');
    auth.callerChanged(null);
    statements = [];
    assert.equal((await app.get('/users/me.json', { token: user.token })).status, 200);
    assert.equal(lookups(), 1, 'notifications missed: every caller looked up again');
  });

  test('a listening server drops a caller another process changed when the notification arrives', async () => {
    await app.listen();
    const user = await app.actor('Dropped');
    assert.equal((await app.get('/users/me.json', { token: user.token })).status, 200);
    const auth = app.services.auth as TokenAuthenticator;
    const original = auth.callerChanged;
    const dropped = new Promise<void>((resolve) => {
      auth.callerChanged = (payload) => {
        original(payload);
        if (payload === `u${user.user}`) resolve();
      };
    });
    try {
      // As another process would: no forgetCachedCallers here. Fastify answers listen() before it
      // runs the onListen hooks, so the server's LISTEN may come after a first change: the change
      // is made again until the server's own listener hears one and drops the caller.
      let heard = false;
      void dropped.then(() => {
        heard = true;
      });
      for (let tries = 0; !heard; tries++) {
        assert.ok(tries < 100, 'the listening server never heard the change');
        await app.services.db.updateTable('users').set({ token_nonce: newNonce() }).where('id', '=', user.user).execute();
        await Promise.race([dropped, new Promise((r) => setTimeout(r, 50))]);
      }
      assert.equal((await app.get('/users/me.json', { token: user.token })).status, 401);
    } finally {
      auth.callerChanged = original;
    }
  });
});
