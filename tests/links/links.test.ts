import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { deleteEndedLinks, issueLink, liveLinks, openLink, revokeLinks } from '../../src/links/index.ts';
import { openFreight } from '../freights/helpers.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

/** links/: the secret addresses of the driver's tracking page (§18) and the consignee's signing page (§19). */
describe(`links without an account (${TEST_DB})`, () => {
  let app: TestApp;
  let shipper: Actor, carrier: Actor;
  const now = new Date('2026-11-28T10:00:00Z');
  const day = 86_400_000;

  before(async () => {
    app = await startTestApp();
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
  });
  after(() => app?.close());

  test('a token opens its freight for its purpose only, and is stored only as its hash', async () => {
    const db = app.services.db;
    const freight = await openFreight(app, shipper);
    const link = await issueLink(db, { freightId: freight, purpose: 'tracking', companyId: carrier.company, userId: null, now });
    assert.match(link.token, /^[A-Za-z0-9_-]{43}$/);
    const opened = await openLink(db, 'tracking', link.token, now);
    assert.deepEqual(opened && { freight: opened.freightId, company: opened.companyId }, { freight, company: carrier.company });
    assert.equal(await openLink(db, 'cmr', link.token, now), null, 'another purpose');
    const stored = await db.selectFrom('freight_links').select('token_hash').where('id', '=', link.id).executeTakeFirstOrThrow();
    assert.notEqual(stored.token_hash, link.token);
    assert.equal(await openLink(db, 'tracking', stored.token_hash, now), null, 'the stored hash opens nothing');
    // A changed character, an empty, an oversized or a non-string token: the same null, no error.
    const flipped = (link.token[0] === 'A' ? 'B' : 'A') + link.token.slice(1);
    for (const bad of [flipped, '', 'x'.repeat(10_000), `${link.token}=`, undefined as unknown as string]) {
      assert.equal(await openLink(db, 'tracking', bad, now), null);
    }
  });

  test('a link expires at the earlier of its asked end and the longest lifetime', async () => {
    const db = app.services.db;
    const freight = await openFreight(app, shipper);
    const short = await issueLink(db, {
      freightId: freight,
      purpose: 'cmr',
      companyId: carrier.company,
      userId: null,
      now,
      expires: new Date(now.getTime() + 2 * day),
    });
    assert.equal(short.expires.getTime(), now.getTime() + 2 * day);
    assert.ok(await openLink(db, 'cmr', short.token, new Date(now.getTime() + 2 * day - 1)));
    assert.equal(await openLink(db, 'cmr', short.token, new Date(now.getTime() + 2 * day)), null);
    const long = await issueLink(db, {
      freightId: freight,
      purpose: 'cmr',
      companyId: carrier.company,
      userId: null,
      now,
      expires: new Date(now.getTime() + 365 * day),
    });
    assert.equal(long.expires.getTime(), now.getTime() + 14 * day, 'capped');
  });

  test('revoking ends every link of the freight and purpose; the ended are deleted after 30 days', async () => {
    const db = app.services.db;
    const freight = await openFreight(app, shipper);
    const other = await openFreight(app, shipper);
    const input = { purpose: 'tracking' as const, companyId: carrier.company, userId: null, now };
    const a = await issueLink(db, { ...input, freightId: freight });
    const b = await issueLink(db, { ...input, freightId: freight });
    const c = await issueLink(db, { ...input, freightId: freight, purpose: 'cmr' });
    const d = await issueLink(db, { ...input, freightId: other });
    assert.deepEqual(
      (await liveLinks(db, freight, 'tracking', now)).map((l) => l.id),
      [b.id, a.id],
    );
    assert.equal(await revokeLinks(db, freight, now, 'tracking'), 2);
    assert.equal(await openLink(db, 'tracking', a.token, now), null);
    assert.equal(await openLink(db, 'tracking', b.token, now), null);
    assert.ok(await openLink(db, 'cmr', c.token, now), 'another purpose keeps opening');
    assert.ok(await openLink(db, 'tracking', d.token, now), 'another freight keeps opening');
    assert.equal(await revokeLinks(db, freight, now), 1, 'delivery ends every purpose');
    assert.equal(await openLink(db, 'cmr', c.token, now), null);

    assert.equal(await deleteEndedLinks(db, new Date(now.getTime() + 29 * day)), 0);
    const later = new Date(now.getTime() + 31 * day);
    const gone = await deleteEndedLinks(db, later);
    assert.ok(gone >= 3);
    const left = await db.selectFrom('freight_links').select('id').where('freight_id', '=', freight).execute();
    assert.deepEqual(left, []);
    // d has not ended but expired 17 days before `later`: kept until 30 days after expiry.
    assert.ok(await db.selectFrom('freight_links').select('id').where('id', '=', d.id).executeTakeFirst());
  });

  test('deleting a freight deletes its links', async () => {
    const db = app.services.db;
    const freight = await openFreight(app, shipper);
    const link = await issueLink(db, { freightId: freight, purpose: 'tracking', companyId: carrier.company, userId: null, now });
    await db.deleteFrom('freights').where('id', '=', freight).execute();
    assert.equal(await openLink(db, 'tracking', link.token, now), null);
  });
});
