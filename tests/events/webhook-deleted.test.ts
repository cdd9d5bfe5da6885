import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { attach, PDF, say, success } from '../deals/helpers.ts';
import { addFreight, openFreight } from '../freights/helpers.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addOffer, FREIGHT } from '../vehicles/helpers.ts';

/**
 * Issue 39, item 7 (docs/choices.md, Reliability: "No event bookkeeping fails the write it
 * describes"). The review: B deletes its webhook while A sends B messages; 7 of 400 messages
 * answered 500 and were not stored (PostgreSQL), and the fuzzer's one 500 was an invitation. The
 * outbox read the webhooks without a lock, then inserted their deliveries; a delete committed in
 * between broke the foreign key and rolled back the business write.
 *
 * The review's run is sent on both databases. The interleaving it hit by chance is forced on
 * PostgreSQL for every write that emits an event: the webhook's delete is held open, the write
 * is sent and waits for it, the delete commits; the write must succeed and be stored.
 */
describe(`a webhook deleted while an event for it is written (${TEST_DB})`, () => {
  let app: TestApp;
  let a: Actor;
  let b: Actor;

  before(async () => {
    app = await startTestApp();
    app.setNow(new Date('2030-05-01T10:00:00Z'));
    a = await app.actor('Shipper A');
    b = await app.actor('Carrier B');
  });
  after(() => app?.close());

  const addHook = async (who: Actor) =>
    success(await app.post('/webhooks/add.json', { token: who.token, json: { url: `http://127.0.0.1:9/c/${who.company}`, events: ['*'] } }))
      .webhook.id as number;

  test('the review’s run: B deletes and adds its webhook while A sends B 400 messages; every message stored, none a 500', async () => {
    const freight = await openFreight(app, a, { ...FREIGHT });
    success(await say(app, b, freight, { text: 'Is the ramp free?' }));
    let sending = true;
    const churn = (async () => {
      let n = 0;
      while (sending) {
        const id = await addHook(b);
        await new Promise((r) => setTimeout(r, n++ % 3));
        const gone = await app.post(`/webhooks/delete/${id}.json`, { token: b.token });
        assert.equal(gone.status, 200, gone.text);
      }
      return n;
    })();
    const answers: number[] = [];
    const failed: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 400) {
          const i = next++;
          const res = await say(app, a, freight, { text: `message ${i}`, company: b.company });
          answers.push(res.status);
          if (res.status !== 200 || res.body.status !== 'success') failed.push(`${i}: ${res.status} ${res.text.slice(0, 200)}`);
        }
      }),
    );
    sending = false;
    const rounds = await churn;
    assert.deepEqual(failed, [], 'every message answered success');
    assert.ok(rounds > 0, 'the webhook was deleted while the messages were sent');
    const stored = await sql<{ n: number }>`
      select count(*)::int as n from deal_messages where freight_id = ${freight} and text like 'message %'`.execute(app.services.db);
    assert.equal(stored.rows[0]!.n, 400, 'all 400 stored');
    const events = await sql<{ n: number }>`
      select count(*)::int as n from events where company_id = ${b.company} and type = 'message.created' and freight_id = ${freight}`.execute(
      app.services.db,
    );
    assert.equal(events.rows[0]!.n, 400, 'each with its event for B');
  });

  describe('every write that emits an event, with the delete forced between the read and the write (PostgreSQL)', {
    skip:
      TEST_DB !== 'postgres' && 'the embedded database runs one transaction at a time: nothing commits between two statements of a write',
  }, () => {
    /**
     * Holds the delete of `who`'s new webhook open, sends `write`, waits until it waits for the
     * delete (a lock), commits the delete, and answers the write's answer.
     */
    async function whileDeleting<T>(who: Actor, write: () => Promise<T>): Promise<T> {
      const hook = await addHook(who);
      let commit!: () => void;
      const held = new Promise<void>((r) => (commit = r));
      let deleted!: () => void;
      const deleting = new Promise<void>((r) => (deleted = r));
      const deleter = app.services.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('webhooks').where('id', '=', hook).execute();
        deleted();
        await held;
      });
      await deleting;
      const answer = write();
      let waited = false;
      for (let i = 0; i < 250 && !waited; i++) {
        const r = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and query ilike '%webhook%'`.execute(app.services.db);
        waited = r.rows[0]!.n > 0;
        if (!waited) await new Promise((r) => setTimeout(r, 20));
      }
      commit();
      await deleter;
      assert.ok(waited, 'the write waited for the webhook’s delete (the interleaving happened)');
      return answer;
    }

    test('a message, an invitation, a publish, a bid, an award and a document: each answers success and is stored', async () => {
      // A message from A to B.
      const freight = await openFreight(app, a, { ...FREIGHT });
      const message = await whileDeleting(b, () => say(app, a, freight, { text: 'forced', company: b.company }));
      success(message);
      const m = await sql<{ n: number }>`select count(*)::int as n from deal_messages where text = 'forced'`.execute(app.services.db);
      assert.equal(m.rows[0]!.n, 1, 'the message stored');

      // An invitation of B's vehicle offer into A's freight (the fuzzer's 500).
      const offer = await addOffer(app, b);
      const invited = await whileDeleting(b, () => app.post(`/vehicles/invite/${offer.id}.json`, { token: a.token, json: { freight } }));
      success(invited);
      const inv = await sql<{ n: number }>`
        select count(*)::int as n from events where type = 'freight.invited' and freight_id = ${freight}`.execute(app.services.db);
      assert.equal(inv.rows[0]!.n, 1, 'the invitation and its event stored');

      // A publish whitelisted to B (B gets a freight.published of its own).
      const draft = await addFreight(app, a, { ...FREIGHT });
      const published = await whileDeleting(b, () =>
        app.post(`/freights/view/${draft}.json`, { token: a.token, json: { action: 'publish', visibility: -2, whitelist: [b.company] } }),
      );
      assert.equal(published.status, 302, published.text);
      const row = await app.services.db.selectFrom('freights').select('status').where('id', '=', draft).executeTakeFirstOrThrow();
      assert.equal(row.status, 'open', 'published');

      // A bid by B on A's freight (A's webhook deleted).
      const bid = await whileDeleting(a, () =>
        app.post('/quotes/add.json', { token: b.token, json: { route: freight, amount: '950.00', currency_code: 'EUR' } }),
      );
      const bidId = success(bid).bid.id as number;

      // The award: A confirms (B's webhook deleted), then B confirms (A's deleted).
      const first = await whileDeleting(b, () => app.post(`/quotes/confirm/${bidId}.json`, { token: a.token }));
      assert.equal(first.status, 302, first.text);
      const second = await whileDeleting(a, () => app.post(`/quotes/confirm/${bidId}.json`, { token: b.token }));
      success(second);
      const won = await app.services.db.selectFrom('freights').select('winner_id').where('id', '=', freight).executeTakeFirstOrThrow();
      assert.equal(won.winner_id, b.company, 'awarded');

      // A document B attaches for A.
      const doc = await whileDeleting(a, () => attach(app, b, freight, 'other', 'cmr.pdf', PDF));
      const document = success(doc).document;
      assert.ok(document.id > 0, 'the document stored');

      // No delivery names a webhook that is gone (the deletes took theirs with them).
      const orphans = await sql<{ n: number }>`
        select count(*)::int as n from webhook_deliveries d where not exists (select 1 from webhooks w where w.id = d.webhook_id)`.execute(
        app.services.db,
      );
      assert.equal(orphans.rows[0]!.n, 0);
    });
  });
});
