import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { claimDue, MAX_IN_FLIGHT_PER_COMPANY, MAX_SLOW_IN_FLIGHT, SLOW_MS } from '../../src/webhooks/dispatcher.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addWebhook, dispatcher, startReceiver, type Receiver } from './support.ts';

/**
 * Webhook delivery is fair between companies: a company's hanging receiver with a long queue
 * holds at most MAX_IN_FLIGHT_PER_COMPANY attempts, counted in the database (every process
 * alike), and claims go round-robin, so another company's delivery is claimed at once. Slow
 * companies are claimed for into slots of their own, so any number of hanging receivers leaves
 * a process's ordinary slots to the others. A webhook deleted while its attempt runs is nothing
 * to complain about.
 */

const LEASE_MS = 60_000;
const BACKLOG = 48;

async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe(`fair webhook delivery (${TEST_DB})`, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A company whose receiver never answers, with BACKLOG events queued, then a healthy company with one. */
  async function scenario() {
    const app = await startTestApp();
    cleanups.push(() => app.close());
    const hanging = await startReceiver();
    hanging.answer = () => 'hold';
    const healthy = await startReceiver();
    cleanups.push(
      () => hanging.close(),
      () => healthy.close(),
    );
    const slow = await app.actor('Slow Forwarding');
    const fine = await app.actor('Prompt Haulage');
    const slowHook = await addWebhook(app, slow, `${hanging.url}/hang`);
    const fineHook = await addWebhook(app, fine, `${healthy.url}/ok`);
    for (let i = 0; i < BACKLOG; i++) await queueTest(app, slow, slowHook.id);
    await queueTest(app, fine, fineHook.id);
    return { app, hanging, healthy, slow, fine, slowHook, fineHook };
  }

  async function queueTest(app: TestApp, who: Actor, hookId: number): Promise<void> {
    const res = await app.post(`/webhooks/test/${hookId}.json`, { token: who.token });
    assert.equal(res.body.status, 'success', res.text);
  }

  const claimedOf = (jobs: Array<{ webhook_id: number }>, hookId: number) => jobs.filter((j) => j.webhook_id === hookId).length;

  test('the first claim takes the healthy company’s delivery; the hanging company gets at most its share', async () => {
    const { app, slowHook, fineHook } = await scenario();
    const jobs = await claimDue(app.services.db, app.services.clock.now(), LEASE_MS, 16);
    assert.equal(claimedOf(jobs, fineHook.id), 1, 'the healthy delivery is in the first claim');
    assert.equal(claimedOf(jobs, slowHook.id), MAX_IN_FLIGHT_PER_COMPANY);
    assert.ok(MAX_IN_FLIGHT_PER_COMPANY < 16, 'a company never holds every slot of a process');
  });

  test('the cap holds across processes: claims at once, and claims while its attempts are in flight', async () => {
    const { app, slowHook } = await scenario();
    const now = app.services.clock.now();
    // Two processes claiming at the same moment (PostgreSQL: two connections of the pool).
    const [a, b] = await Promise.all([0, 1].map(() => claimDue(app.services.db, now, LEASE_MS, 16)));
    const ids = [...a!, ...b!].filter((j) => j.webhook_id === slowHook.id).map((j) => j.id);
    assert.equal(ids.length, MAX_IN_FLIGHT_PER_COMPANY);
    assert.equal(new Set(ids).size, ids.length, 'no attempt claimed twice');
    assert.equal(claimedOf(await claimDue(app.services.db, now, LEASE_MS, 16), slowHook.id), 0, 'its share is in flight');

    // Leases that ran out (their process died) no longer count as in flight: the company gets its share again.
    const later = new Date(now.getTime() + LEASE_MS + 1000);
    assert.equal(claimedOf(await claimDue(app.services.db, later, LEASE_MS, 16), slowHook.id), MAX_IN_FLIGHT_PER_COMPANY);
  });

  test('the cap is the company’s: its webhooks take turns, and one with nothing due still counts its attempts in flight', async () => {
    const app = await startTestApp();
    cleanups.push(() => app.close());
    const hanging = await startReceiver();
    hanging.answer = () => 'hold';
    cleanups.push(() => hanging.close());
    const claim = () => claimDue(app.services.db, app.services.clock.now(), LEASE_MS, 16);

    const turns = await app.actor('Two Hooks Cargo');
    const early = await addWebhook(app, turns, `${hanging.url}/early`);
    const late = await addWebhook(app, turns, `${hanging.url}/late`);
    for (let i = 0; i < MAX_IN_FLIGHT_PER_COMPANY; i++) await queueTest(app, turns, early.id);
    await queueTest(app, turns, late.id);
    const jobs = await claim();
    assert.equal(jobs.length, MAX_IN_FLIGHT_PER_COMPANY);
    assert.equal(claimedOf(jobs, late.id), 1, 'the later webhook gets a turn although the other queued first');

    const counted = await app.actor('Busy Hooks Cargo');
    const busy = await addWebhook(app, counted, `${hanging.url}/busy`);
    const idle = await addWebhook(app, counted, `${hanging.url}/idle`);
    for (let i = 0; i < MAX_IN_FLIGHT_PER_COMPANY - 1; i++) await queueTest(app, counted, busy.id);
    assert.equal(claimedOf(await claim(), busy.id), MAX_IN_FLIGHT_PER_COMPANY - 1);
    for (let i = 0; i < 2; i++) await queueTest(app, counted, idle.id);
    assert.equal(claimedOf(await claim(), idle.id), 1, 'one turn left for the company');
    assert.equal((await claim()).length, 0, 'the company is at its cap');
  });

  test('a running dispatcher delivers the healthy company’s event while every hanging attempt is still open', async () => {
    const { app, hanging, healthy, slowHook } = await scenario();
    // The hanging requests would end only at this timeout (stop() aborts them first).
    const d = dispatcher(app, { timeoutMs: 60_000, pollMs: 20 });
    cleanups.push(() => d.stop());
    d.start();
    await waitFor(() => healthy.received.length === 1, 50_000, 'the healthy delivery');
    const recorded = await app.services.db.selectFrom('webhook_attempts').select('id').where('webhook_id', '=', slowHook.id).execute();
    assert.deepEqual(recorded, [], 'no attempt of the hanging receiver has ended yet');
    await waitFor(() => hanging.received.length === MAX_IN_FLIGHT_PER_COMPANY, 50_000, 'the hanging company’s share');
    assert.equal(hanging.received.length, MAX_IN_FLIGHT_PER_COMPANY);
  });

  test('companies a process found slow are claimed for into its slow slots only', async () => {
    const app = await startTestApp();
    cleanups.push(() => app.close());
    const hanging = await startReceiver();
    hanging.answer = () => 'hold';
    cleanups.push(() => hanging.close());
    const slow: Actor[] = [];
    const slowHooks: number[] = [];
    for (let i = 0; i < 5; i++) {
      const who = await app.actor(`Known Slow ${i}`);
      const hook = await addWebhook(app, who, `${hanging.url}/slow${i}`);
      for (let n = 0; n < 3; n++) await queueTest(app, who, hook.id);
      slow.push(who);
      slowHooks.push(hook.id);
    }
    const fine = await app.actor('Prompt Air');
    const fineHook = await addWebhook(app, fine, `${hanging.url}/fine`);
    await queueTest(app, fine, fineHook.id);
    const now = app.services.clock.now();

    // This process knows the five are slow and has no slow slot free: only the healthy delivery is claimed.
    const jobs = await claimDue(app.services.db, now, LEASE_MS, 16, { slowLimit: 0, slowCompanies: slow.map((a) => a.company) });
    assert.deepEqual(
      jobs.map((j) => [j.webhook_id, j.slow]),
      [[fineHook.id, false]],
    );
    // With slow slots free, they get them, marked as slow claims.
    const slowJobs = await claimDue(app.services.db, now, LEASE_MS, 0, { slowLimit: 2, slowCompanies: slow.map((a) => a.company) });
    assert.equal(slowJobs.length, 2);
    assert.ok(slowJobs.every((j) => j.slow && slowHooks.includes(j.webhook_id)));
  });

  test('a company with an attempt in flight longer than SLOW_MS is slow to every process, which knows nothing of it', async () => {
    const app = await startTestApp();
    cleanups.push(() => app.close());
    const stalled = await app.actor('Stalled Freight');
    const hook = await addWebhook(app, stalled, 'http://127.0.0.1:9/stalled');
    for (let n = 0; n < 6; n++) await queueTest(app, stalled, hook.id);
    const now = app.services.clock.now();
    const first = await claimDue(app.services.db, now, LEASE_MS, 2, { slowLimit: 0 });
    assert.deepEqual(
      first.map((j) => [j.webhook_id, j.slow]),
      [
        [hook.id, false],
        [hook.id, false],
      ],
    );
    const later = new Date(now.getTime() + SLOW_MS + 500);
    assert.equal((await claimDue(app.services.db, later, LEASE_MS, 16, { slowLimit: 0 })).length, 0, 'no ordinary slot for it');
    const slowJobs = await claimDue(app.services.db, later, LEASE_MS, 16, { slowLimit: 16 });
    assert.deepEqual(
      slowJobs.map((j) => [j.webhook_id, j.slow]),
      [
        [hook.id, true],
        [hook.id, true],
      ],
      'its share, in the slow slots',
    );
  });

  test('five and more companies whose receivers hang, then a healthy one: its event is delivered while every hanging attempt is still open', async (t) => {
    const app = await startTestApp();
    cleanups.push(() => app.close());
    const hanging = await startReceiver();
    hanging.answer = () => 'hold';
    const healthy = await startReceiver();
    cleanups.push(
      () => hanging.close(),
      () => healthy.close(),
    );
    // More hanging companies than the ordinary slots hold (16 / 4) and than the slow slots hold (64 / 4).
    const HANGING = MAX_SLOW_IN_FLIGHT / MAX_IN_FLIGHT_PER_COMPANY + 2;
    const hooks: number[] = [];
    for (let i = 0; i < HANGING; i++) {
      const who = await app.actor(`Hanging Receiver ${i}`);
      const hook = await addWebhook(app, who, `${hanging.url}/hang${i}`);
      for (let n = 0; n < MAX_IN_FLIGHT_PER_COMPANY + 1; n++) await queueTest(app, who, hook.id);
      hooks.push(hook.id);
    }
    const fine = await app.actor('Healthy Forwarding');
    const fineHook = await addWebhook(app, fine, `${healthy.url}/ok`);
    // The hanging requests would end only at this timeout (stop() aborts them first).
    const d = dispatcher(app, { timeoutMs: 60_000, pollMs: 50 });
    cleanups.push(() => d.stop());
    d.start();
    // Every ordinary slot of the process taken by a hanging receiver, and long enough for them to be slow.
    await waitFor(() => hanging.received.length >= 16, 30_000, 'the hanging receivers to hold the ordinary slots');
    await new Promise((r) => setTimeout(r, SLOW_MS + 200));
    const queued = Date.now();
    await queueTest(app, fine, fineHook.id);
    await waitFor(() => healthy.received.length === 1, 20_000, 'the healthy delivery (before any hanging attempt times out)');
    const recorded = await app.services.db.selectFrom('webhook_attempts').select('id').where('webhook_id', 'in', hooks).execute();
    assert.deepEqual(recorded, [], 'no attempt of a hanging receiver has ended yet');
    t.diagnostic(`the healthy delivery came ${Date.now() - queued} ms after its event, ${hanging.received.length} hanging requests open`);
  });

  test('deleting a webhook while its attempt is in flight records nothing and logs no error', async () => {
    const app = await startTestApp();
    cleanups.push(() => app.close());
    const receiver: Receiver = await startReceiver();
    receiver.answer = () => 'hold';
    let closed = false;
    cleanups.push(async () => {
      if (!closed) await receiver.close();
    });
    const who = await app.actor('Deleting Logistics');
    const hook = await addWebhook(app, who, `${receiver.url}/gone`);
    await queueTest(app, who, hook.id);
    await queueTest(app, who, hook.id);

    const lines: Array<{ level: string; msg: string }> = [];
    const log = {
      error: (_: object, msg: string) => lines.push({ level: 'error', msg }),
      info: (_: object, msg: string) => lines.push({ level: 'info', msg }),
      debug: (_: object, msg: string) => lines.push({ level: 'debug', msg }),
    };
    const d = dispatcher(app, { timeoutMs: 60_000 }, log);
    const delivering = d.deliverDue();
    await waitFor(() => receiver.received.length === 2, 30_000, 'both attempts to reach the receiver');
    const del = await app.post(`/webhooks/delete/${hook.id}.json`, { token: who.token });
    assert.equal(del.body.status, 'success');
    // The receiver drops the connections: both attempts end (failed) after their webhook is gone.
    await receiver.close();
    closed = true;
    assert.equal(await delivering, 2);
    assert.deepEqual(
      lines.filter((l) => l.level === 'error'),
      [],
    );
    assert.ok(lines.some((l) => l.level === 'debug'));
    const left = await app.services.db.selectFrom('webhook_attempts').select('id').where('webhook_id', '=', hook.id).execute();
    assert.deepEqual(left, []);
  });
});
