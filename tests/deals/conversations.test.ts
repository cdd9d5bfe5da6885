import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import { TEST_DB } from '../support/databases.ts';
import { bidOn, confirmBoth } from '../support/fixtures.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { takenFreight } from '../trust/helpers.ts';
import { browserSession, csrfOf } from '../support/session.ts';
import { conversations, fieldError, say, success, unread } from './helpers.ts';

/** docs/reference.md#deal-room: the conversation beside a freight, its read marks and who may take part. */
describe(`conversations beside a freight (${TEST_DB})`, () => {
  let app: TestApp;
  let shipper: Actor, carrierA: Actor, carrierB: Actor, outsider: Actor;

  before(async () => {
    app = await startTestApp();
    shipper = await app.actor('Shipper');
    carrierA = await app.actor('CarrierA');
    carrierB = await app.actor('CarrierB');
    outsider = await app.actor('Outsider');
  });
  after(() => app?.close());

  test('a carrier writes to the owner, the owner answers; each sees what it may, oldest first', async () => {
    const freight = await openFreight(app, shipper);
    const first = success(await say(app, carrierA, freight, { text: '  Is the loading ramp free at 6?  ' })).message;
    assert.equal(first.freight, freight);
    assert.deepEqual(first.from, { id: carrierA.company, name: carrierA.companyName, verified: false });
    assert.deepEqual(first.to, { id: shipper.company, name: shipper.companyName, verified: false });
    assert.equal(first.text, 'Is the loading ramp free at 6?', 'trimmed');
    assert.match(first.created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    success(await say(app, carrierB, freight, { text: 'Can you take a tail-lift truck?' }));
    const answer = success(await say(app, shipper, freight, { text: 'Yes, from 5:30.', company: carrierA.company })).message;
    assert.deepEqual(answer.to, { id: carrierA.company, name: carrierA.companyName, verified: false });

    const owner = success(await conversations(app, shipper, freight)).conversations;
    assert.deepEqual(
      owner.map((c: any) => [c.company.id, c.messages.map((m: any) => m.text)]),
      [
        [carrierA.company, ['Is the loading ramp free at 6?', 'Yes, from 5:30.']],
        [carrierB.company, ['Can you take a tail-lift truck?']],
      ],
    );
    const own = success(await conversations(app, carrierA, freight)).conversations;
    assert.equal(own.length, 1);
    assert.equal(own[0].company.id, carrierA.company);
    assert.deepEqual(
      own[0].messages.map((m: any) => m.text),
      ['Is the loading ramp free at 6?', 'Yes, from 5:30.'],
    );
    assert.ok(!JSON.stringify(own).includes('tail-lift'), "another carrier's conversation stays hidden");
  });

  test('unread counts per freight, and reading the conversation marks it read', async () => {
    const one = await openFreight(app, shipper);
    const two = await openFreight(app, shipper);
    const before = await unread(app, shipper);
    success(await say(app, carrierA, one, { text: 'first' }));
    success(await say(app, carrierA, one, { text: 'second' }));
    success(await say(app, carrierB, two, { text: 'third' }));
    const now = await unread(app, shipper);
    assert.equal(now.count, before.count + 3);
    assert.deepEqual(
      now.freights.filter((f) => f.freight === one || f.freight === two),
      [
        { freight: two, count: 1 },
        { freight: one, count: 2 },
      ],
    );
    // The writer's own messages are not unread for it.
    assert.ok(!(await unread(app, carrierA)).freights.some((f) => f.freight === one));
    success(await conversations(app, shipper, one));
    const after = await unread(app, shipper);
    assert.equal(after.count, before.count + 1);
    assert.ok(!after.freights.some((f) => f.freight === one));
    // The answer is unread for the carrier until it reads its conversation.
    success(await say(app, shipper, one, { text: 'answer', company: carrierA.company }));
    assert.deepEqual(
      (await unread(app, carrierA)).freights.find((f) => f.freight === one),
      { freight: one, count: 1 },
    );
    success(await conversations(app, carrierA, one));
    assert.ok(!(await unread(app, carrierA)).freights.some((f) => f.freight === one));
  });

  test('a company that may not see the freight gets 404, whether it reads or writes', async () => {
    const hidden = await openFreight(app, shipper, {}, { visibility: -2, whitelist: [carrierA.company] });
    assert.equal((await say(app, outsider, hidden, { text: 'hello' })).status, 404);
    assert.equal((await conversations(app, outsider, hidden)).status, 404);
    assert.equal((await say(app, outsider, 99_999_999, { text: 'hello' })).status, 404);
    assert.equal((await conversations(app, outsider, 99_999_999)).status, 404);
    assert.equal((await app.get('/freights/messages/abc.json', { token: outsider.token })).status, 404);
    success(await say(app, carrierA, hidden, { text: 'whitelisted, so I may write' }));
  });

  test('the owner names whom it answers, and only a company that may see the freight', async () => {
    const hidden = await openFreight(app, shipper, {}, { visibility: -2, whitelist: [carrierA.company] });
    fieldError(await say(app, shipper, hidden, { text: 'to nobody' }), 'messages.company_required', 'company');
    fieldError(await say(app, shipper, hidden, { text: 'to myself', company: shipper.company }), 'messages.company_required', 'company');
    fieldError(await say(app, shipper, hidden, { text: 'to whom?', company: 'the carrier' }), 'messages.company_required', 'company');
    fieldError(
      await say(app, shipper, hidden, { text: 'to a stranger', company: outsider.company }),
      'messages.company_not_audience',
      'company',
    );
    fieldError(await say(app, shipper, hidden, { text: 'to no company', company: 99_999_999 }), 'messages.company_not_audience', 'company');
    assert.deepEqual(success(await conversations(app, shipper, hidden)).conversations, [], 'nothing was written');
    success(await say(app, shipper, hidden, { text: 'to the whitelisted carrier', company: carrierA.company }));
  });

  test('text: 1 to 4,000 characters, else a field error and nothing written', async () => {
    const freight = await openFreight(app, shipper);
    for (const text of [undefined, '', '   ', 'x'.repeat(4001), 42, ['a']])
      fieldError(await say(app, carrierA, freight, { text }), 'messages.text_invalid', 'text');
    assert.deepEqual(success(await conversations(app, carrierA, freight)).conversations, []);
    assert.equal(success(await say(app, carrierA, freight, { text: 'x'.repeat(4000) })).message.text.length, 4000);
  });

  test('characters are code points: 4,000 emoji (8,000 UTF-16 units) are accepted, 4,001 refused', async () => {
    const freight = await openFreight(app, shipper);
    const emoji = '\u{1F69A}'; // 🚚, a surrogate pair in UTF-16
    fieldError(await say(app, carrierA, freight, { text: emoji.repeat(4001) }), 'messages.text_invalid', 'text');
    fieldError(await say(app, carrierA, freight, { text: `${emoji.repeat(4000)}x` }), 'messages.text_invalid', 'text');
    assert.deepEqual(success(await conversations(app, carrierA, freight)).conversations, [], 'nothing written');
    const sent = success(await say(app, carrierA, freight, { text: emoji.repeat(4000) })).message;
    assert.equal([...sent.text].length, 4000);
    assert.equal(sent.text, emoji.repeat(4000), 'stored and answered whole');
    const read = success(await conversations(app, carrierA, freight)).conversations[0].messages[0];
    assert.equal(read.text, emoji.repeat(4000));
    // Umlauts and letters with marks are one character each too.
    success(await say(app, carrierA, freight, { text: 'ä'.repeat(4000) }));
  });

  test('masking holds: a bidder that lost keeps its conversation readable, the freight stays masked', async () => {
    const freight = await openFreight(app, shipper, { from_addr: 'Secret Dock 7' });
    const bid = await app.post('/quotes/add.json', {
      token: carrierB.token,
      json: { route: freight, amount: '800.00', currency_code: 'EUR' },
    });
    success(bid);
    success(await say(app, carrierB, freight, { text: 'My offer stands.' }));
    await takenFreightOf(freight);
    const view = success(await app.get(`/freights/view/${freight}.json`, { token: carrierB.token })).route;
    assert.equal(view.from_addr, null, 'masked');
    assert.equal(view.winner, null, 'masked');
    const own = success(await conversations(app, carrierB, freight)).conversations;
    assert.deepEqual(
      own[0].messages.map((m: any) => m.text),
      ['My offer stands.'],
    );
    assert.ok(!JSON.stringify(own).includes(String(carrierA.companyName)), 'the winner is not named');
    success(await say(app, carrierB, freight, { text: 'Pity. Next time.' }));
    success(await say(app, shipper, freight, { text: 'Thank you all the same.', company: carrierB.company }));
    // A company that only saw it in the market (no bid) lost sight of it: 404.
    assert.equal((await say(app, outsider, freight, { text: 'still there?' })).status, 404);
  });

  /** Awards the open freight to carrierA through the API (bid, both confirmations). */
  async function takenFreightOf(freight: number) {
    await confirmBoth(app, shipper, carrierA, (await bidOn(app, carrierA, freight, '900.00')).id);
  }

  test('the page: the freight shows the conversation, its form posts back to it, the header links the unread', async () => {
    const freight = await takenFreight(app, shipper, carrierA);
    success(await say(app, carrierA, freight, { text: 'Truck is on its way.' }));
    const session = await browserSession(app, shipper);
    const page = await app.get(`/freights/view/${freight}`, { headers: { cookie: session.cookie } });
    assert.equal(page.status, 200);
    assert.match(page.text, /id="messages"/);
    assert.match(page.text, /Truck is on its way\./);
    assert.match(page.text, /href="\/messages\/unread"/);
    // Showing the page read the conversation.
    assert.ok(!(await unread(app, shipper)).freights.some((f) => f.freight === freight));
    const sent = await app.post(`/freights/messages/${freight}`, {
      headers: { cookie: session.cookie },
      form: { _csrf: csrfOf(page.text), company: String(carrierA.company), text: 'See you at the ramp.' },
    });
    assert.equal(sent.status, 302, sent.text);
    assert.equal(sent.headers.location, `/freights/view/${freight}#messages`);
    const own = success(await conversations(app, carrierA, freight)).conversations;
    assert.deepEqual(
      own[0].messages.map((m: any) => m.text),
      ['Truck is on its way.', 'See you at the ramp.'],
    );
    const list = await app.get('/messages/unread', { headers: { cookie: session.cookie } });
    assert.equal(list.status, 200);
  });

  test('companies are named as every list names them: linked to their profile, with the verified mark (JSON and page)', async () => {
    const verified = await app.actor('Verified Haulage');
    await app.services.db.updateTable('companies').set({ verified_at: new Date() }).where('id', '=', verified.company).execute();
    const freight = await openFreight(app, shipper);
    success(await say(app, carrierA, freight, { text: 'Still free?' }));
    await confirmBoth(app, shipper, verified, (await bidOn(app, verified, freight, '900.00')).id);
    const sent = success(await say(app, verified, freight, { text: 'Loaded, on the way.' })).message;
    assert.deepEqual(sent.from, { id: verified.company, name: verified.companyName, verified: true });
    assert.deepEqual(sent.to, { id: shipper.company, name: shipper.companyName, verified: false });
    const owner = success(await conversations(app, shipper, freight)).conversations;
    assert.deepEqual(
      owner.map((c: any) => c.company),
      [
        { id: verified.company, name: verified.companyName, verified: true },
        { id: carrierA.company, name: carrierA.companyName, verified: false },
      ].sort((a, b) => a.id - b.id),
    );
    // The documents name their uploader the same way.
    const doc = success(
      await app.post(`/freights/documents/${freight}.json`, {
        token: verified.token,
        json: { kind: 'cmr', name: 'cmr.pdf', content: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') },
      }),
    ).document;
    assert.deepEqual(doc.company, { id: verified.company, name: verified.companyName, verified: true });

    // The owner's page: each conversation's heading and each message's author link to the
    // profile, the verified one with its mark; the documents' uploader too.
    const { cookie } = await browserSession(app, shipper);
    const page = (await app.get(`/freights/view/${freight}`, { headers: { cookie } })).text;
    const messages = page.slice(page.indexOf('id="messages"'), page.indexOf('id="documents"'));
    const headingOf = (company: number) => new RegExp(`<h3>With <span class="company-name"><a href="/companies/view/${company}">`);
    assert.match(messages, headingOf(verified.company));
    assert.match(messages, headingOf(carrierA.company));
    const verifiedLinks = messages.match(
      new RegExp(`<a href="/companies/view/${verified.company}">[^<]*</a> <span class="verified"[^>]*data-testid="verified-mark"`, 'g'),
    );
    assert.equal(verifiedLinks?.length, 2, 'the heading and the message, each with the mark');
    assert.doesNotMatch(
      messages,
      new RegExp(`<a href="/companies/view/${carrierA.company}">[^<]*</a> <span class="verified"`),
      'no mark for a company not verified',
    );
    const documentsPart = page.slice(page.indexOf('id="documents"'));
    assert.match(documentsPart, new RegExp(`<a href="/companies/view/${verified.company}">[^<]*</a> <span class="verified"`));
  });
});
