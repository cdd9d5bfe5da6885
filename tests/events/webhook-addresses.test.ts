import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConfigError, readConfig } from '../../src/config/config.ts';
import { isAllowedAddress, isPublicAddress, refuseLiteral } from '../../src/webhooks/address.ts';
import { ADDRESS_REFUSED, NO_ANSWER } from '../../src/webhooks/send.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { addWebhook, deliverAll, dispatcher, startReceiver, type Receiver } from './support.ts';

/**
 * Which receiver addresses are refused (docs/reference.md#events): IPv6 forms that carry an IPv4 address
 * are judged by that address, at registration and at delivery; WEBHOOK_ALLOW_PRIVATE.
 */

/** IPv4 addresses of each kind the rule knows; only `public` may be reached. */
const IPV4 = {
  loopback: '127.0.0.1',
  'private 10/8': '10.1.2.3',
  'private 172.16/12': '172.16.5.4',
  'private 192.168/16': '192.168.0.10',
  'link-local (cloud metadata)': '169.254.169.254',
  'carrier-grade NAT': '100.64.0.1',
  unspecified: '0.0.0.0',
  public: '93.184.215.14',
} as const;
const PUBLIC_V4 = IPV4.public;

/** The two 16-bit groups of an IPv4 address, in hex; `invert` for Teredo's client address. */
function groups(v4: string, invert = false): string {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  const mask = invert ? 0xffff : 0;
  return [((a << 8) | b) ^ mask, ((c << 8) | d) ^ mask].map((g) => g.toString(16)).join(':');
}

/** Every IPv6 form that carries an IPv4 address to an IPv4 host, written from that address. */
const FORMS: Record<string, (v4: string) => string> = {
  'IPv4-mapped': (v4) => `::ffff:${v4}`,
  'IPv4-mapped, hex': (v4) => `::ffff:${groups(v4)}`,
  'IPv4-mapped, long': (v4) => `0:0:0:0:0:ffff:${v4}`,
  'IPv4-compatible': (v4) => `::${v4}`,
  'IPv4-compatible, hex': (v4) => `::${groups(v4)}`,
  'NAT64 64:ff9b::/96': (v4) => `64:ff9b::${v4}`,
  '6to4 2002::/16': (v4) => `2002:${groups(v4)}::1`,
  'Teredo server': (v4) => `2001:0:${groups(v4)}:8000:63bf:${groups(PUBLIC_V4, true)}`,
  'Teredo client': (v4) => `2001:0:${groups(PUBLIC_V4)}:8000:63bf:${groups(v4, true)}`,
};

/** [form, kind, address, public?]: every form with every kind of IPv4, plus plain addresses. */
const ROWS: Array<[string, string, string, boolean]> = [
  ...Object.entries(FORMS).flatMap(([form, write]) =>
    Object.entries(IPV4).map(([kind, v4]): [string, string, string, boolean] => [form, kind, write(v4), v4 === PUBLIC_V4]),
  ),
  ...Object.entries(IPV4).map(([kind, v4]): [string, string, string, boolean] => ['IPv4', kind, v4, v4 === PUBLIC_V4]),
  ['IPv6', 'loopback', '::1', false],
  ['IPv6', 'unspecified', '::', false],
  ['IPv6', 'link-local', 'fe80::1', false],
  ['IPv6', 'unique-local', 'fd00::1', false],
  ['IPv6', 'multicast', 'ff02::1', false],
  ['IPv6', 'documentation', '2001:db8::1', false],
  ['IPv6', 'public', '2606:4700:4700::1111', true],
  // Local-use NAT64 (RFC 8215): where the IPv4 sits depends on the operator's prefix; refused whatever it carries.
  ['NAT64 64:ff9b:1::/48', 'public', `64:ff9b:1::${PUBLIC_V4}`, false],
  ['NAT64 64:ff9b:1::/48', 'loopback', '64:ff9b:1::127.0.0.1', false],
  ['IPv4-translated ::ffff:0:a.b.c.d', 'loopback', '::ffff:0:127.0.0.1', false],
];

describe('webhook receiver addresses', () => {
  test('the rule, form by form', () => {
    for (const [form, kind, address, expected] of ROWS) {
      assert.equal(isPublicAddress(address), expected, `${form} of ${kind}: ${address}`);
      // The delivery-side check of an IP-literal URL host (brackets as in a URL) is the same rule.
      const host = address.includes(':') ? `[${address}]` : address;
      assert.equal(refuseLiteral(host) === null, expected, `at delivery: ${form} of ${kind}: ${host}`);
    }
  });

  test('WEBHOOK_ALLOW_PRIVATE: unset in demo public and loopback, true everything, false public only; production public, where true is a configuration error', () => {
    const production = { APP_ENV: 'production', TOKEN_SECRET: 'x'.repeat(20) };
    assert.equal(readConfig({}).webhooks.addresses, 'loopback');
    assert.equal(readConfig({ WEBHOOK_ALLOW_PRIVATE: '' }).webhooks.addresses, 'loopback');
    assert.equal(readConfig({ WEBHOOK_ALLOW_PRIVATE: 'false' }).webhooks.addresses, 'public');
    assert.equal(readConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks.addresses, 'any');
    assert.equal(readConfig(production).webhooks.addresses, 'public');
    assert.equal(readConfig({ ...production, WEBHOOK_ALLOW_PRIVATE: 'false' }).webhooks.addresses, 'public');
    assert.throws(
      () => readConfig({ ...production, WEBHOOK_ALLOW_PRIVATE: 'true' }),
      (err: Error) => err instanceof ConfigError && /WEBHOOK_ALLOW_PRIVATE/.test(err.message) && /production/.test(err.message),
    );
    assert.throws(() => readConfig({ WEBHOOK_ALLOW_PRIVATE: 'sometimes' }), /WEBHOOK_ALLOW_PRIVATE must be true or false/);
  });

  test('the loopback rule: public addresses and loopback as written; every other refused range, and loopback carried in IPv6, refused', () => {
    for (const [form, kind, address, expected] of ROWS) {
      const allowed = expected || address === '127.0.0.1' || address === '::1';
      assert.equal(isAllowedAddress(address, 'loopback'), allowed, `${form} of ${kind}: ${address}`);
      assert.equal(isAllowedAddress(address, 'public'), expected, `${form} of ${kind}: ${address}`);
      assert.equal(isAllowedAddress(address, 'any'), true);
    }
    for (const address of ['127.0.0.1', '127.45.6.7', '::1', '0:0:0:0:0:0:0:1']) assert.ok(isAllowedAddress(address, 'loopback'), address);
  });
});

/** Registration and delivery in an app whose receivers must be public (production, or demo with WEBHOOK_ALLOW_PRIVATE=false). */
function publicOnlyApp(label: string, env: Record<string, string>) {
  describe(`${label}: receivers at public addresses only (${TEST_DB})`, () => {
    let app: TestApp;
    let receiver: Receiver;
    before(async () => {
      app = await startTestApp({ env });
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver?.close();
      await app?.close();
    });

    const register = (who: Actor, url: string) => app.post('/webhooks/add.json', { token: who.token, json: { url, events: ['*'] } });

    test('registration refuses every form of a non-public address and accepts the public ones', async () => {
      for (const form of ['IPv4', 'IPv6', ...Object.keys(FORMS), 'NAT64 64:ff9b:1::/48']) {
        const who = await app.actor('Forwarder'); // at most 20 webhooks per company
        for (const [, kind, address, expected] of ROWS.filter((r) => r[0] === form)) {
          const host = address.includes(':') ? `[${address}]` : address;
          const res = await register(who, `http://${host}:8080/hook`);
          assert.equal(res.body.status, expected ? 'success' : 'error', `${form} of ${kind}: ${host} ${res.text}`);
          if (!expected) assert.match(res.body.message, /^url: /);
        }
      }
      const who = await app.actor('Local');
      for (const url of [`${receiver.url}/x`, 'http://localhost/x', 'http://[::127.0.0.1]/x'])
        assert.equal((await register(who, url)).body.status, 'error', url);
    });

    test('delivery refuses them too: stored webhooks at IPv6 forms of loopback are not called', async () => {
      const who = await app.actor('Stored');
      const port = new URL(receiver.url).port;
      // As if registered under another rule, or through a name that pointed elsewhere then.
      const hosts = [
        '127.0.0.1',
        ...['IPv4-mapped', 'IPv4-compatible', 'NAT64 64:ff9b::/96', '6to4 2002::/16', 'Teredo client'].map(
          (form) => `[${FORMS[form]!('127.0.0.1')}]`,
        ),
      ];
      for (const host of hosts) {
        await app.services.db
          .insertInto('webhooks')
          .values({
            company_id: who.company,
            user_id: who.user,
            url: `http://${host}:${port}/internal`,
            events: ['*'],
            secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
            created: new Date(),
          })
          .execute();
      }
      const hooks = (await app.get('/webhooks/index.json', { token: who.token })).body.data.webhooks as Array<{ id: number; url: string }>;
      assert.equal(hooks.length, hosts.length);
      for (const hook of hooks) await app.post(`/webhooks/test/${hook.id}.json`, { token: who.token });
      await deliverAll(app);
      assert.equal(receiver.received.length, 0);
      for (const hook of hooks) {
        const log = (await app.get(`/webhooks/deliveries/${hook.id}.json`, { token: who.token })).body.data.deliveries;
        assert.equal(log[0].attempt, 1, hook.url);
        assert.equal(log[0].error, ADDRESS_REFUSED, hook.url);
      }
    });
  });
}

publicOnlyApp('APP_ENV=production', { APP_ENV: 'production' });
publicOnlyApp('APP_ENV=demo with WEBHOOK_ALLOW_PRIVATE=false', { WEBHOOK_ALLOW_PRIVATE: 'false' });

describe(`APP_ENV=demo, WEBHOOK_ALLOW_PRIVATE unset: public addresses and loopback (${TEST_DB})`, () => {
  let app: TestApp;
  let receiver: Receiver;
  before(async () => {
    app = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: '' } });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  const register = (who: Actor, url: string) => app.post('/webhooks/add.json', { token: who.token, json: { url, events: ['*'] } });

  test('registration takes loopback and public receivers and refuses every other range, loopback carried in IPv6 included', async () => {
    const port = new URL(receiver.url).port;
    const who = await app.actor('Integrator');
    for (const url of [
      `${receiver.url}/a`,
      `http://localhost:${port}/b`,
      `http://[::1]:${port}/c`,
      'http://127.8.9.10/d',
      'https://8.8.8.8/e',
    ])
      assert.equal((await register(who, url)).body.status, 'success', url);
    const prober = await app.actor('Prober');
    for (const host of [
      '10.1.2.3',
      '172.16.5.4',
      '192.168.0.10',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '198.18.0.1',
      '[fd00::1]',
      '[fe80::1]',
      '[::]',
      '[::ffff:127.0.0.1]',
      '[::127.0.0.1]',
      '[64:ff9b::7f00:1]',
      '[::ffff:10.0.0.1]',
      '[2002:a9fe:a9fe::1]',
    ]) {
      const res = await register(prober, `http://${host}:${port}/probe`);
      assert.equal(res.body.status, 'error', `${host}: ${res.text}`);
      assert.match(res.body.message, /^url: /);
    }
    assert.deepEqual((await app.get('/webhooks/index.json', { token: prober.token })).body.data.webhooks, []);
  });

  test('delivery reaches a loopback receiver and refuses a stored private address', async () => {
    const who = await app.actor('Deliveries');
    const port = new URL(receiver.url).port;
    const hook = await addWebhook(app, who, `${receiver.url}/loop`);
    // As if registered under another rule: a private address, and loopback through an IPv4-mapped form.
    for (const host of ['10.1.2.3', '[::ffff:127.0.0.1]'])
      await app.services.db
        .insertInto('webhooks')
        .values({
          company_id: who.company,
          user_id: who.user,
          url: `http://${host}:${port}/stored`,
          events: ['*'],
          secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
          created: new Date(),
        })
        .execute();
    const hooks = (await app.get('/webhooks/index.json', { token: who.token })).body.data.webhooks as Array<{ id: number; url: string }>;
    for (const h of hooks) await app.post(`/webhooks/test/${h.id}.json`, { token: who.token });
    await deliverAll(app);
    assert.deepEqual(
      receiver.received.map((r) => r.path),
      ['/loop'],
    );
    for (const h of hooks.filter((x) => x.id !== hook.id)) {
      const log = (await app.get(`/webhooks/deliveries/${h.id}.json`, { token: who.token })).body.data.deliveries;
      assert.equal(log[0].error, ADDRESS_REFUSED, h.url);
    }
  });

  test('the delivery log tells no kind of failed connection from another: refused, reset, not HTTP, timeout, TLS, DNS', async () => {
    const who = await app.actor('Port Scanner');
    // Receivers that fail in every way a port can: closed, reset at once, answering something
    // that is not HTTP, never answering (the timeout); TLS spoken to a plain HTTP port; a name
    // that does not resolve.
    const closed = await freePort();
    const reset = await rawServer((socket) => socket.destroy());
    const garbage = await rawServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    const silent = await rawServer(() => {});
    const targets: Record<string, string> = {
      refused: `http://127.0.0.1:${closed}/x`,
      reset: `http://127.0.0.1:${reset.port}/x`,
      'not HTTP': `http://127.0.0.1:${garbage.port}/x`,
      timeout: `http://127.0.0.1:${silent.port}/x`,
      TLS: `https://127.0.0.1:${new URL(receiver.url).port}/secure`,
      DNS: 'http://no-such-host.invalid/x',
    };
    const ids: Record<string, number> = {};
    try {
      for (const [kind, url] of Object.entries(targets)) {
        ids[kind] = (await addWebhook(app, who, url)).id;
        await app.post(`/webhooks/test/${ids[kind]}.json`, { token: who.token });
      }
      const answered = await addWebhook(app, who, `${receiver.url}/error`);
      receiver.answer = (r) => (r.path === '/error' ? 500 : 200);
      await app.post(`/webhooks/test/${answered.id}.json`, { token: who.token });
      const logged: string[] = [];
      const log = { error: () => {}, info: (o: object) => logged.push(JSON.stringify(o)) };
      await deliverAll(app, dispatcher(app, { timeoutMs: 500 }, log));

      const session = await browserSession(app, who);
      for (const [kind, id] of Object.entries(ids)) {
        const res = await app.get(`/webhooks/deliveries/${id}.json`, { token: who.token });
        const [entry] = res.body.data.deliveries;
        assert.equal(entry.attempt, 1, kind);
        assert.equal(entry.status, null, kind);
        assert.equal(entry.error, NO_ANSWER, `${kind}: one wording for every attempt without an answer`);
        assert.equal(entry.duration_ms, null, `${kind}: how long it took is not shown either`);
        const page = await app.get(`/webhooks/deliveries/${id}`, { headers: { cookie: session.cookie } });
        assert.equal(page.status, 200);
        // Random ids and form tokens can spell anything ("…hhSSlE…"): they are left out of the look.
        const scrub = (text: string) => text.replace(/evt_[\w-]+/g, 'evt').replace(/value="[^"]*"/g, '');
        for (const text of [res.text, page.text])
          assert.doesNotMatch(scrub(text), /ECONN|EPROTO|ENOTFOUND|EAI_|within \d+ ms|hang up|SSL|wrong version|Parse Error|HPE_/i, kind);
      }
      // An answer keeps its status (and its duration).
      const [entry] = (await app.get(`/webhooks/deliveries/${answered.id}.json`, { token: who.token })).body.data.deliveries;
      assert.equal(entry.status, 500);
      assert.equal(entry.error, null);
      assert.equal(typeof entry.duration_ms, 'number');
      // The server's log keeps the reason for the operator.
      assert.ok(logged.some((l) => /ECONNREFUSED/.test(l)) && logged.some((l) => /ENOTFOUND/.test(l)), logged.join('\n'));
    } finally {
      receiver.answer = () => 200;
      await Promise.all([reset, garbage, silent].map((s) => s.close()));
    }
  });
});

/** A port nothing listens on (listened on, then closed). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** A TCP server on loopback that treats each connection as `onConnection` says. */
async function rawServer(onConnection: (socket: net.Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
