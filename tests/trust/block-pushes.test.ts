import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { addWebhook, deliverAll, startReceiver, type Receiver } from '../events/support.ts';
import { addFreight, openFreight, publish } from '../freights/helpers.ts';
import { about, openStream, type SseStream } from '../live/support.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addOffer, eventually, FREIGHT, notificationsOf } from '../vehicles/helpers.ts';
import { takenFreight } from './helpers.ts';

/**
 * Issue 39, item 1 (docs/reference.md#trust): a block stops every channel from the blocked company to the
 * blocker. The review's attacks, after A blocked C: C publishes a freight whitelisted to A
 * (visibility -2, whitelist [A]) or with winner_direct = A, and A's stream and webhook received
 * `freight.published` (the outbox held a row for A); C invited A's vehicle offer to its freight and
 * A got `freight.invited` and a notification; C messaged A on A's freights. Each is sent here as
 * the review sent it, beside the same push from B, whom nobody blocked (the control: it arrives).
 * Absence on a stream is read behind a barrier: a market freight of another company that every
 * stream receives after everything written before it.
 */
describe(`a block stops every push from the blocked company (${TEST_DB})`, () => {
  let app: TestApp;
  let base: string;
  let receiver: Receiver;
  let blocker: Actor; // A
  let blocked: Actor; // C
  let control: Actor; // B: a company nobody blocked, addressed the same way
  let other: Actor; // publishes the barriers
  const streams = new Map<number, SseStream>();

  before(async () => {
    app = await startTestApp();
    app.setNow(new Date('2030-05-01T10:00:00Z'));
    base = await app.listen();
    receiver = await startReceiver();
    blocker = await app.actor('Blocker A');
    blocked = await app.actor('Blocked C');
    control = await app.actor('Control B');
    other = await app.actor('Other');
    for (const who of [blocker, control]) {
      await addWebhook(app, who, `${receiver.url}/c/${who.company}`);
      streams.set(who.company, await openStream(base, { token: who.token }));
    }
    const res = await app.post(`/companies/block/${blocked.company}.json`, { token: blocker.token, json: {} });
    assert.equal(res.body.status, 'success', res.text);
  });
  after(async () => {
    for (const s of streams.values()) s.close();
    await receiver?.close();
    await app?.close();
  });

  const barrier = async () => {
    const id = await openFreight(app, other, { from: 'airport:MUC', to: 'airport:CDG', weight: 10 });
    for (const s of streams.values()) await s.waitFor(about('freight.published', id));
  };
  /** The types of the events on `who`'s stream about the freight (data.route.id or data.message.freight). */
  const streamed = (who: Actor, freight: number) =>
    streams
      .get(who.company)!
      .events.filter((e) => e.json.data?.route?.id === freight || e.json.data?.message?.freight === freight)
      .map((e) => e.json.type as string);
  /** The outbox's rows for the company about the freight, by type. */
  const outbox = async (who: Actor, freight: number) =>
    (
      await sql<{
        type: string;
      }>`select type from events where company_id = ${who.company} and freight_id = ${freight} order by seq`.execute(app.services.db)
    ).rows.map((r) => r.type);
  /** The webhook deliveries queued for the company about the freight. */
  const deliveries = async (who: Actor, freight: number) =>
    (
      await sql<{ type: string }>`select e.type from webhook_deliveries d join events e on e.seq = d.event_seq
        join webhooks w on w.id = d.webhook_id where w.company_id = ${who.company} and e.freight_id = ${freight}`.execute(app.services.db)
    ).rows.map((r) => r.type);
  /** What the webhook receiver got for the company about the freight, once everything due was delivered. */
  const received = async (who: Actor, freight: number) => {
    await deliverAll(app);
    return receiver.received
      .filter((r) => r.path === `/c/${who.company}` && (r.json?.data?.route?.id === freight || r.json?.data?.message?.freight === freight))
      .map((r) => r.json.type as string);
  };
  /** Every channel of the blocker about `freight` is empty; the control's carry `type`. */
  const onlyControlHears = async (freight: number, type: string, control_: Actor | null = control) => {
    await barrier();
    assert.deepEqual(await outbox(blocker, freight), [], 'no outbox row for the blocker');
    assert.deepEqual(await deliveries(blocker, freight), [], 'no webhook delivery queued for the blocker');
    assert.deepEqual(streamed(blocker, freight), [], 'nothing on the blocker’s stream');
    assert.deepEqual(await received(blocker, freight), [], 'nothing at the blocker’s webhook');
    if (control_) {
      assert.ok((await outbox(control_, freight)).includes(type), `the control has its ${type} row`);
      assert.ok(streamed(control_, freight).includes(type), `the control’s stream has ${type}`);
      // The app's own dispatcher may hold the delivery in flight: it arrives within moments.
      await eventually(async () => (await received(control_, freight)).includes(type), `the control’s webhook gets ${type}`);
    }
  };

  test('a freight whitelisted to the blocker (visibility -2, whitelist [A]): published to B, nothing to A', async () => {
    const id = await addFreight(app, blocked, { ...FREIGHT });
    await publish(app, blocked, id, { visibility: -2, whitelist: [blocker.company, control.company] });
    await onlyControlHears(id, 'freight.published');
    // Nor on a draft created whitelisted and published as it is, nor its later changes.
    const draft = await addFreight(app, blocked, { ...FREIGHT, visibility: -2, whitelist: [blocker.company, control.company] });
    await publish(app, blocked, draft);
    const edit = await app.post(`/freights/edit/${draft}.json`, { token: blocked.token, json: { weight: 13000 } });
    assert.equal(edit.body.status, 'success', edit.text);
    await onlyControlHears(draft, 'freight.updated');
  });

  test('winner_direct = A: nothing to A; winner_direct = B reaches B', async () => {
    const toBlocker = await app.post('/freights/add.json', { token: blocked.token, json: { ...FREIGHT, winner_direct: blocker.company } });
    assert.equal(toBlocker.body.status, 'success', toBlocker.text);
    assert.equal(toBlocker.body.data.status, 'open');
    const toControl = await app.post('/freights/add.json', { token: blocked.token, json: { ...FREIGHT, winner_direct: control.company } });
    await onlyControlHears(toBlocker.body.data.id, 'freight.published', null);
    await onlyControlHears(toControl.body.data.id, 'freight.published');
  });

  test('an invitation of the blocker’s vehicle offer is refused: no whitelist entry, no event, no notification', async () => {
    const [offerA, offerB] = [await addOffer(app, blocker), await addOffer(app, control)];
    const freight = await addFreight(app, blocked, { ...FREIGHT });
    await publish(app, blocked, freight, { visibility: -2, whitelist: [other.company] });
    const refused = await app.post(`/vehicles/invite/${offerA.id}.json`, { token: blocked.token, json: { freight } });
    assert.equal(refused.status, 200, refused.text);
    assert.equal(refused.body.status, 'error', refused.text);
    assert.equal(refused.body.code, 'vehicle.invite.blocked');
    const invited = await app.post(`/vehicles/invite/${offerB.id}.json`, { token: blocked.token, json: { freight } });
    assert.equal(invited.body.status, 'success', invited.text);
    await onlyControlHears(freight, 'freight.invited');
    const row = await app.services.db.selectFrom('freights').select('whitelist').where('id', '=', freight).executeTakeFirstOrThrow();
    assert.deepEqual(row.whitelist, [other.company, control.company], 'only B joined the whitelist');
    assert.deepEqual(
      (await notificationsOf(app, blocker)).filter((n) => n.route?.id === freight || n.route === freight),
      [],
      'no notification for A',
    );
    assert.equal((await notificationsOf(app, control)).filter((n) => n.type === 'freight.invited').length, 1);
  });

  test('messages to the blocker on its own freights, and on the blocked company’s, are refused; nothing is stored or pushed', async () => {
    const own = await openFreight(app, blocker, { ...FREIGHT });
    const say = (who: Actor, freight: number, json: Record<string, unknown>) =>
      app.post(`/freights/messages/${freight}.json`, { token: who.token, json });
    const refused = await say(blocked, own, { text: 'Still there? We can do it for less.' });
    assert.equal(refused.body.status, 'error', refused.text);
    assert.equal(refused.body.code, 'messages.blocked');
    assert.deepEqual(refused.body.data.errors, [{ field: 'company', reason: refused.body.message }]);
    // The control's message arrives: it is what A's channels would have carried.
    assert.equal((await say(control, own, { text: 'We can take it.' })).body.status, 'success');
    await barrier();
    assert.deepEqual(
      streamed(blocker, own).filter((t) => t === 'message.created'),
      ['message.created'],
      'the control’s message only',
    );
    const stored = await sql<{
      n: number;
    }>`select count(*)::int as n from deal_messages where from_company_id = ${blocked.company}`.execute(app.services.db);
    assert.equal(stored.rows[0]!.n, 0, 'no message of the blocked company stored');
    const conversations = (await app.get(`/freights/messages/${own}.json`, { token: blocker.token })).body.data.conversations;
    assert.deepEqual(
      conversations.map((c: any) => c.company.id),
      [control.company],
      'no conversation with the blocked company',
    );

    // The blocked company's own freight, whitelisted to A: writing to A there is refused too.
    const theirs = await openFreight(app, blocked, { ...FREIGHT }, { visibility: -2, whitelist: [blocker.company, control.company] });
    const toA = await say(blocked, theirs, { text: 'Look at this one', company: blocker.company });
    assert.equal(toA.body.code, 'messages.blocked', toA.text);
    assert.equal((await say(blocked, theirs, { text: 'Look at this one', company: control.company })).body.status, 'success');
    await onlyControlHears(theirs, 'message.created');
    // The blocker still writes to the blocked company: the block is one-sided.
    assert.equal((await say(blocker, theirs, { text: 'Not interested.' })).body.status, 'success');
  });

  test('a deal made before the block: the blocked company’s documents, delivery steps and rating reach the blocker by no push', async () => {
    const unblock = () => app.post(`/companies/unblock/${blocked.company}.json`, { token: blocker.token, json: {} });
    const block = () => app.post(`/companies/block/${blocked.company}.json`, { token: blocker.token, json: {} });
    await unblock();
    const taken = await takenFreight(app, blocked, blocker, { ...FREIGHT });
    await block();
    const since = (await sql<{ seq: string }>`select max(seq) as seq from events`.execute(app.services.db)).rows[0]!.seq;
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
    const doc = await app.post(`/freights/documents/${taken}.json`, {
      token: blocked.token,
      json: { kind: 'cmr', name: 'cmr.pdf', content: pdf },
    });
    assert.equal(doc.body.status, 'success', doc.text);
    const step = await app.post(`/freights/delivery/${taken}.json`, { token: blocked.token, json: { delivery_status: 3 } });
    assert.equal(step.body.status, 'success', step.text);
    const rating = await app.post(`/companies/rate/${taken}.json`, { token: blocked.token, json: { score: 1, comment: 'Late.' } });
    assert.equal(rating.body.status, 'success', 'a rating is not a push: a block does not escape one');
    await barrier();
    const types = (
      await sql<{ type: string }>`select type from events where company_id = ${blocker.company} and freight_id = ${taken}
        and seq > ${since}`.execute(app.services.db)
    ).rows.map((r) => r.type);
    assert.deepEqual(types, [], 'no document.added, freight.delivery_status or rating.received for A');
    // One-sided: the blocker's doing still reaches the blocked company.
    const own = await app.post(`/freights/documents/${taken}.json`, {
      token: blocker.token,
      json: { kind: 'pod', name: 'pod.pdf', content: pdf },
    });
    assert.equal(own.body.status, 'success', own.text);
    const toBlocked = await sql<{ type: string }>`select type from events where company_id = ${blocked.company} and freight_id = ${taken}
      and type = 'document.added' and seq > ${since}`.execute(app.services.db);
    assert.equal(toBlocked.rows.length, 1, 'the blocked company hears of the blocker’s document');
  });
});
