import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sweepDigests } from '../../src/mail/digest.ts';
import { fanOut } from '../../src/mail/fanout.ts';
import { openFreight } from '../freights/helpers.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { flush, mailApp, startSmtp, to, type TestSmtp } from './support.ts';

/**
 * docs/reference.md#mail: the daily digest at 07:00 in APP_TIMEZONE, one mail per user and kind,
 * gathering what came since; computed by a sweep any process may run, as often as it likes.
 * The clock is the app's (moved by the test).
 */
describe('mail: the daily digest', () => {
  let smtp: TestSmtp;
  let app: TestApp;
  let shipper: Actor;
  let carrier: Actor;
  // 2031-03-10 is a Monday; Berlin is UTC+1 in March (before the change on the 30th).
  const berlin = (wall: string) => new Date(`${wall}+01:00`);

  before(async () => {
    smtp = await startSmtp();
    app = await mailApp(smtp, { env: { APP_TIMEZONE: 'Europe/Berlin' } });
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier', { language: 'deu' });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  test('alerts (daily by default) wait for 07:00, then arrive as one mail per user and kind', async () => {
    app.setNow(berlin('2031-03-10T10:00:00'));
    const saved = await app.post('/searches/add.json', {
      token: carrier.token,
      json: { name: 'Hessen', filter: 8, params: { from: 'DE-6' }, alert: 1 },
    });
    assert.equal(saved.body.status, 'success', saved.text);
    // Bids of the shipper's freights go into a digest too, for the shipper: another kind, another mail.
    const freights: number[] = [];
    for (const [i, zip] of ['60311', '65183', '64283'].entries()) {
      app.setNow(berlin(`2031-03-10T1${i}:30:00`));
      freights.push(
        await openFreight(app, shipper, { from: `city:${zip}`, from_country: 'DE', to: 'city:80331', to_country: 'DE', weight: 1000 + i }),
      );
    }
    assert.equal((await flush(app, smtp)).length, 0, 'nothing at once');

    app.setNow(berlin('2031-03-11T06:59:59'));
    assert.equal((await flush(app, smtp)).length, 0, 'nothing before 07:00');

    app.setNow(berlin('2031-03-11T07:00:00'));
    const got = await flush(app, smtp);
    assert.equal(got.length, 1, 'one digest');
    const [digest] = to(got, carrier.email);
    assert.ok(digest);
    assert.equal(digest.mail.subject, 'Suchaufträge vom 11.03.2031: 3');
    for (const [i, zip] of ['60311', '65183', '64283'].entries()) {
      assert.ok((digest.mail.text ?? '').includes(zip), `freight ${i + 1} named`);
      assert.ok((digest.mail.text ?? '').includes(`/freights/view/${freights[i]}`));
    }
    assert.match(digest.mail.text ?? '', /täglich um 07:00|Täglich um 07:00/);

    // The sweep again (this process or another), later the same day: nothing more.
    app.setNow(berlin('2031-03-11T09:00:00'));
    assert.equal(await sweepDigests(app.services.db, app.services.clock, app.services.clock.now()), 0);
    assert.equal((await flush(app, smtp)).length, 0);
  });

  test('what comes after 07:00 waits for the next day’s digest; an empty day sends none', async () => {
    app.setNow(berlin('2031-03-11T12:00:00'));
    await openFreight(app, shipper, { from: 'city:60311', from_country: 'DE', to: 'city:01067', to_country: 'DE', weight: 700 });
    assert.equal((await flush(app, smtp)).length, 0);
    app.setNow(berlin('2031-03-12T07:00:05'));
    const got = await flush(app, smtp);
    assert.equal(got.length, 1);
    assert.equal(got[0]!.mail.subject, 'Suchaufträge vom 12.03.2031: 1');
    app.setNow(berlin('2031-03-13T07:00:05'));
    assert.equal((await flush(app, smtp)).length, 0, 'no digest without news');
  });

  test('two sweeps at once write each digest once', async () => {
    app.setNow(berlin('2031-03-13T15:00:00'));
    await openFreight(app, shipper, { from: 'city:60311', from_country: 'DE', to: 'city:20095', to_country: 'DE', weight: 600 });
    await app.alerts.idle();
    app.setNow(berlin('2031-03-14T07:00:00'));
    // Fan-out first (a digest waits for the events before its cut), then both sweeps together.
    while ((await fanOut(app.services.db, app.services.clock.now())) > 0);
    const digests = () => app.services.db.selectFrom('mail_messages').select('id').where('digest_day', '=', '2031-03-14').execute();
    const [a, b] = await Promise.all([0, 1].map(() => sweepDigests(app.services.db, app.services.clock, app.services.clock.now())));
    assert.equal((await digests()).length, 1);
    assert.equal((a ?? 0) + (b ?? 0), 1, 'one sweep wrote it, the other found it written');
    assert.equal((await flush(app, smtp)).length, 1);
  });
});
