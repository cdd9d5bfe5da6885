import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serverDatabase, startServer, type ServerDatabase, type ServerProcess } from './server-process.ts';

/**
 * The server started from a working directory other than the checkout (as a service manager
 * or `npx` from elsewhere does) renders its pages. Issue 10: run through tsx, the sources were
 * compiled with the working directory's tsconfig (none: pages answered 500 "React is not
 * defined"). The directory holds another project's tsconfig.json and package.json, and tsx's
 * cache is off, so nothing compiled from the checkout can hide a regression.
 *
 * @engine-independent: what is tested is how the sources are found and compiled, the same on
 * either database; scripts/test.mjs runs this file once (on the embedded database).
 */

let database: ServerDatabase;
let server: ServerProcess | undefined;
let elsewhere: string;

before(async () => {
  database = await serverDatabase(['Shipper']);
  elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-elsewhere-'));
  fs.writeFileSync(path.join(elsewhere, 'tsconfig.json'), JSON.stringify({ compilerOptions: { jsx: 'react', strict: false } }));
  fs.writeFileSync(path.join(elsewhere, 'package.json'), JSON.stringify({ name: 'another-project', type: 'commonjs' }));
});
after(async () => {
  await server?.kill('SIGKILL');
  await database.drop();
  fs.rmSync(elsewhere, { recursive: true, force: true });
});

test('pages answer 200 when the server runs from another working directory, and SIGTERM stops it', async () => {
  server = await startServer({ ...database.env, TSX_DISABLE_CACHE: '1' }, { cwd: elsewhere });
  const login = await fetch(`${server.base}/users/login`);
  const html = await login.text();
  assert.equal(login.status, 200, html.slice(0, 500));
  assert.match(html, /<form method="post" action="\/users\/login"/);

  // A logged-in page too (layout, tables, the user's menu).
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(csrf, 'the login form has a CSRF token');
  const jar = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const [who] = database.actors;
  const post = await fetch(`${server.base}/users/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, 'auth[user]': who!.email, 'auth[password]': who!.password }).toString(),
  });
  assert.equal(post.status, 302, await post.text());
  const cookie = `${jar}; ${post.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')}`;
  for (const page of ['/freights/enlist/10', '/freights/add', '/pricing/search/results', '/cdr/cases/index']) {
    const res: Response = await fetch(`${server.base}${page}`, { headers: { cookie }, redirect: 'manual' });
    const text = await res.text();
    assert.equal(res.status, 200, `${page}: ${text.slice(0, 300)}`);
    assert.match(text, /<!doctype html>/i);
    assert.doesNotMatch(text, /React is not defined/);
  }
  // JSON calls too, including a place suggestion (it starts the cities worker thread).
  for (const path of ['/users/me.json', '/freights/enlist/8.json', '/places/suggest.json?q=Frankfurt&for=filter']) {
    const res: Response = await fetch(`${server.base}${path}`, { headers: { cookie } });
    assert.equal(res.status, 200, `${path}: ${(await res.text()).slice(0, 300)}`);
  }
  // The compiled server carries its worker threads (dist/): the city data answers in time.
  let cities: Array<{ kind: string; label: string }> = [];
  for (const until = Date.now() + 30_000; !cities.length && Date.now() < until; ) {
    const res: Response = await fetch(`${server.base}/places/suggest.json?q=Frankfurt&for=filter`, { headers: { cookie } });
    cities = ((await res.json()).data.places as typeof cities).filter((p) => p.kind === 'city');
    if (!cities.length) await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(
    cities.some((c) => /Frankfurt/.test(c.label)),
    JSON.stringify(cities),
  );
  assert.doesNotMatch(server.output(), /React is not defined|"level":50/, 'no server errors logged');
  // Whatever it served, SIGTERM ends the process (nothing left holding the event loop).
  const stopped = await Promise.race([
    server.kill('SIGTERM'),
    new Promise((r) => setTimeout(() => r('still running 30 s after SIGTERM'), 30_000)),
  ]);
  assert.equal(stopped, 0, server.output().slice(-1000));
  server = undefined;
});
