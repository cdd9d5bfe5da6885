import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../src/admin.ts';
import { startWorld } from '../support/fixtures.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { migratedDeployment } from '../support/databases.ts';
import { browserSession } from '../support/session.ts';
import { openFreight } from '../freights/helpers.ts';
import { deliveredFreight, profileOf } from './helpers.ts';

/** docs/reference.md#trust: company profiles, editing the own profile, VAT ids, the operator's verification. */

let app: TestApp;
let shipper: Actor, carrier: Actor, outsider: Actor;

before(async () => ({ app, shipper, carrier, outsider } = await startWorld({ env: { APP_TIMEZONE: 'Europe/Berlin' } })));
after(() => app.close());

const PROFILE_KEYS = [
  'id',
  'name',
  'country',
  'city',
  'postcode',
  'vat_id',
  'phone',
  'website',
  'description',
  'fleet_size',
  'founded',
  'member_since',
  'verified',
  'verified_at',
  'completed',
  'ratings',
];

describe('GET /companies/view/{id}.json', () => {
  test('any logged-in user reads exactly the profile fields; unknown ids are 404; no token is 401', async () => {
    const res = await profileOf(app, outsider, carrier.company);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    const c = res.body.data.company;
    assert.deepEqual(Object.keys(c), PROFILE_KEYS);
    assert.equal(c.id, carrier.company);
    assert.equal(c.name, carrier.companyName);
    assert.equal(c.verified, false);
    assert.equal(c.verified_at, null);
    assert.match(c.member_since, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.deepEqual(c.completed, { as_owner: 0, as_carrier: 0 });
    assert.deepEqual(c.ratings, { count: 0, average: null });
    for (const bad of ['999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
      assert.equal((await app.get(`/companies/view/${bad}.json`, { token: outsider.token })).status, 404, bad);
    }
    assert.equal((await app.get(`/companies/view/${carrier.company}.json`)).status, 401);
  });

  test('completed counts the freights awarded and closed, as owner and as carrier', async () => {
    await deliveredFreight(app, shipper, carrier);
    await deliveredFreight(app, shipper, carrier);
    await deliveredFreight(app, carrier, shipper);
    const s = (await profileOf(app, outsider, shipper.company)).body.data.company;
    const c = (await profileOf(app, outsider, carrier.company)).body.data.company;
    assert.deepEqual(s.completed, { as_owner: 2, as_carrier: 1 });
    assert.deepEqual(c.completed, { as_owner: 1, as_carrier: 2 });
  });
});

describe('POST /companies/edit.json', () => {
  test('changes the own company’s profile fields and answers the profile', async () => {
    const res = await app.post('/companies/edit.json', {
      token: carrier.token,
      json: {
        country: 'de',
        city: 'Leipzig',
        postcode: '04109',
        vat_id: 'DE 136 695 976',
        phone: '+49 341 123456',
        website: 'carrier.example',
        description: 'Tautliners and reefers\nacross Europe.',
        fleet_size: 42,
        founded: '1998',
      },
    });
    assert.equal(res.body.status, 'success', res.text);
    const c = res.body.data.company;
    assert.equal(c.country, 'DE');
    assert.equal(c.city, 'Leipzig');
    assert.equal(c.postcode, '04109');
    assert.equal(c.vat_id, 'DE136695976');
    assert.equal(c.phone, '+49 341 123456');
    assert.equal(c.website, 'https://carrier.example');
    assert.equal(c.description, 'Tautliners and reefers\nacross Europe.');
    assert.equal(c.fleet_size, 42);
    assert.equal(c.founded, 1998);
    assert.deepEqual((await profileOf(app, outsider, carrier.company)).body.data.company, c);
    // Only the fields sent change; an empty one clears.
    const again = await app.post('/companies/edit.json', { token: carrier.token, json: { city: '', fleet_size: 43 } });
    assert.equal(again.body.data.company.city, null);
    assert.equal(again.body.data.company.fleet_size, 43);
    assert.equal(again.body.data.company.postcode, '04109');
    // Another company's profile is untouched.
    assert.equal((await profileOf(app, outsider, shipper.company)).body.data.company.city, null);
  });

  test('name, verification and counts cannot be changed: ignored with a warning', async () => {
    const before = (await profileOf(app, carrier, carrier.company)).body.data.company;
    const res = await app.post('/companies/edit.json', {
      token: carrier.token,
      json: {
        name: 'Renamed GmbH',
        verified: true,
        verified_at: '2020-01-01 00:00:00',
        completed: { as_owner: 100, as_carrier: 100 },
        ratings: { count: 50, average: 5 },
        member_since: '2000-01-01 00:00:00',
        id: shipper.company,
        phone: '0341 99',
      },
    });
    assert.equal(res.body.status, 'success');
    const fields = (res.body.warnings as Array<{ field: string }>).map((w) => w.field).sort();
    assert.deepEqual(fields, ['completed', 'id', 'member_since', 'name', 'ratings', 'verified', 'verified_at']);
    const after = (await profileOf(app, outsider, carrier.company)).body.data.company;
    assert.deepEqual({ ...after, phone: before.phone }, before);
    assert.equal(after.phone, '0341 99');
    const row = await app.services.db
      .selectFrom('companies')
      .select(['name', 'verified_at'])
      .where('id', '=', carrier.company)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { name: carrier.companyName, verified_at: null });
  });

  test('an invalid VAT id (format or check digit) is a field error and changes nothing', async () => {
    const before = (await profileOf(app, carrier, carrier.company)).body.data.company;
    for (const vat of ['DE136695977', 'DE12345', 'XX123456789', 'FR1234', 'not a vat', 'x'.repeat(500), 12]) {
      const res = await app.post('/companies/edit.json', { token: carrier.token, json: { vat_id: vat, city: 'Halle' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'error', String(vat));
      assert.equal(res.body.code, 'companies.invalid');
      assert.deepEqual(
        res.body.data.errors.map((e: { field: string }) => e.field),
        ['vat_id'],
      );
      assert.match(res.body.message, /vat_id/);
    }
    assert.deepEqual((await profileOf(app, carrier, carrier.company)).body.data.company, before);
    // Valid ids of other EU countries; without a prefix the profile's country is taken.
    // The VAT id's own country decides, not the profile's (docs/choices.md): a company in DE may
    // hold a registration of another member state.
    assert.equal((await app.post('/companies/edit.json', { token: carrier.token, json: { country: 'DE' } })).body.status, 'success');
    for (const [vat, stored] of [
      ['ATU13585627', 'ATU13585627'],
      ['NL 004495445B01', 'NL004495445B01'],
      ['136695976', 'DE136695976'],
    ]) {
      const res = await app.post('/companies/edit.json', { token: carrier.token, json: { vat_id: vat } });
      assert.equal(res.body.status, 'success', `${vat}: ${res.text}`);
      assert.equal(res.body.data.company.vat_id, stored);
    }
  });

  test('other bad values are field errors, each named; nothing is half-written', async () => {
    const before = (await profileOf(app, carrier, carrier.company)).body.data.company;
    const res = await app.post('/companies/edit.json', {
      token: carrier.token,
      json: {
        country: 'Germany',
        fleet_size: -1,
        founded: 3000,
        website: 'not a site',
        phone: 'call me',
        city: 'x'.repeat(101),
        description: ['x'],
      },
    });
    assert.equal(res.body.status, 'error');
    assert.deepEqual(res.body.data.errors.map((e: { field: string }) => e.field).sort(), [
      'city',
      'country',
      'description',
      'fleet_size',
      'founded',
      'phone',
      'website',
    ]);
    assert.deepEqual((await profileOf(app, carrier, carrier.company)).body.data.company, before);
  });
});

describe('freight-exchange company verify', () => {
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  const cli = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), interactive: false });
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  };
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-trust-cli-'));
    process.env.DATA_DIR = dataDir;
    process.env.TOKEN_SECRET = 'trust-cli-secret-0123456789';
    process.env.APP_TIMEZONE = 'Europe/Berlin';
    const deployment = await migratedDeployment(dataDir);
    Object.assign(process.env, deployment.env);
    drop = deployment.drop;
  });
  after(async () => {
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('--json verifies and revokes; --help says what it does; bad input changes nothing', async () => {
    const created = JSON.parse((await cli('company', 'create', '--name', 'Verified Haulage', '--json')).stdout);
    const verified = await cli('company', 'verify', '--id', String(created.id), '--json');
    assert.equal(verified.code, 0, verified.stderr);
    const v = JSON.parse(verified.stdout);
    assert.deepEqual(Object.keys(v), ['id', 'name', 'verified', 'verified_at']);
    assert.equal(v.id, created.id);
    assert.equal(v.verified, true);
    assert.match(v.verified_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Verifying again keeps the first time.
    const again = JSON.parse((await cli('company', 'verify', '--id', String(created.id), '--json')).stdout);
    assert.equal(again.verified_at, v.verified_at);

    const revoked = await cli('company', 'verify', '--id', String(created.id), '--revoke', '--json');
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.deepEqual(JSON.parse(revoked.stdout), { id: created.id, name: 'Verified Haulage', verified: false, verified_at: null });

    const help = await cli('company', 'verify', '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /company verify --id N \[--revoke\]/);
    assert.match(help.stdout, /verified/);
    assert.match((await cli('--help')).stdout, /company verify/);

    for (const args of [['--id', '999999'], ['--id', 'abc'], [], ['--id', '0']]) {
      const r = await cli('company', 'verify', ...args, '--json');
      assert.notEqual(r.code, 0, args.join(' '));
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.split('\n').length, 1);
    }
  });
});

describe('verification in the app', () => {
  test('a verified company shows verified and verified_at in its profile and the mark beside its freights', async () => {
    const now = new Date();
    await app.services.db.updateTable('companies').set({ verified_at: now }).where('id', '=', shipper.company).execute();
    const c = (await profileOf(app, outsider, shipper.company)).body.data.company;
    assert.equal(c.verified, true);
    assert.equal(c.verified_at, app.services.clock.format(now));
    const { openFreight } = await import('../freights/helpers.ts');
    const id = await openFreight(app, shipper);
    const view = await app.get(`/freights/view/${id}.json`, { token: outsider.token });
    assert.deepEqual(view.body.data.route._company, { id: shipper.company, name: shipper.companyName, verified: true });
    const list = await app.get('/freights/enlist/8.json', { token: outsider.token });
    const row = list.body.data.routes.find((r: { id: number }) => r.id === id);
    assert.equal(row._company.verified, true);
    const other = list.body.data.routes.find((r: { _company: { id: number } }) => r._company.id === carrier.company);
    if (other) assert.equal(other._company.verified, false);
  });
});

describe('the profile page and the mark on the pages', () => {
  const html = async (who: Actor, url: string) => {
    const session = await browserSession(app, who);
    return app.get(url, { headers: { cookie: session.cookie } });
  };
  /** The table row (or card) holding `marker`. */
  const rowWith = (page: string, marker: string) => {
    const at = page.indexOf(marker);
    assert.ok(at >= 0, `${marker} on the page`);
    return page.slice(page.lastIndexOf('<tr', at), page.indexOf('</tr>', at));
  };
  const MARK = 'data-testid="verified-mark"';

  test('an unknown or unreadable company id is the 404 page', async () => {
    for (const id of ['999999', 'abc', '0']) {
      const res = await html(outsider, `/companies/view/${id}`);
      assert.equal(res.status, 404, id);
      assert.match(res.text, /<h1>Not found<\/h1>/, id);
      assert.ok(!res.text.includes('data-testid="profile-form"'), `${id}: not the settings page`);
    }
  });

  test('list rows and bid rows name the company with a link to its profile, and the mark when it is verified', async () => {
    const verifiedOwner = await app.actor('Verified owner');
    const plainOwner = await app.actor('Plain owner');
    const verifiedBidder = await app.actor('Verified bidder');
    const plainBidder = await app.actor('Plain bidder');
    const viewer = await app.actor('List viewer');
    await app.services.db
      .updateTable('companies')
      .set({ verified_at: new Date() })
      .where('id', 'in', [verifiedOwner.company, verifiedBidder.company])
      .execute();
    const verifiedFreight = await openFreight(app, verifiedOwner);
    const plainFreight = await openFreight(app, plainOwner);

    const list = (await html(viewer, '/freights/enlist/8?limit=100')).text;
    const verifiedRow = rowWith(list, `href="/freights/view/${verifiedFreight}"`);
    assert.ok(verifiedRow.includes(`<a href="/companies/view/${verifiedOwner.company}">${verifiedOwner.companyName}</a>`), verifiedRow);
    assert.ok(verifiedRow.includes(MARK), 'the verified owner’s mark');
    const plainRow = rowWith(list, `href="/freights/view/${plainFreight}"`);
    assert.ok(plainRow.includes(`<a href="/companies/view/${plainOwner.company}">${plainOwner.companyName}</a>`), plainRow);
    assert.ok(!plainRow.includes(MARK), 'no mark for a company not verified');

    for (const bidder of [verifiedBidder, plainBidder]) {
      const res = await app.post('/quotes/add.json', {
        token: bidder.token,
        json: { route: verifiedFreight, amount: '700', currency_code: 'EUR' },
      });
      assert.equal(res.body.status, 'success', res.text);
    }
    const page = (await html(verifiedOwner, `/freights/view/${verifiedFreight}`)).text;
    const bids = page.slice(page.indexOf('data-testid="bids"'));
    const verifiedBid = rowWith(bids, `href="/companies/view/${verifiedBidder.company}"`);
    assert.ok(verifiedBid.includes(`>${verifiedBidder.companyName}</a>`));
    assert.ok(verifiedBid.includes(MARK), 'the verified bidder’s mark');
    const plainBid = rowWith(bids, `href="/companies/view/${plainBidder.company}"`);
    assert.ok(plainBid.includes(`>${plainBidder.companyName}</a>`));
    assert.ok(!plainBid.includes(MARK));
  });
});
