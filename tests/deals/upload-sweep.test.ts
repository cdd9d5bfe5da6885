import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { DocumentUpload } from '../../src/deals/upload.ts';
import { UPLOAD_SWEEP_MS } from '../../src/deals/sweep.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { pdfOf } from './helpers.ts';

/**
 * Issue 39, item 11 (docs/choices.md, Reliability: "Leftovers of killed uploads are swept").
 * The review: uploads killed with their process left their parts (up to 49 MB) until another
 * upload started an hour later, and nobody could see them. A killed upload leaves what
 * DocumentUpload wrote before the kill: its note and its parts, never its row. They are swept
 * when the server starts listening and every 5 minutes, once no upload can still be running
 * (10 minutes: the server ends any request not received within 120 s), and /healthz counts them.
 */
describe(`what killed uploads leave (${TEST_DB})`, () => {
  let app: TestApp;
  const t0 = new Date('2030-05-01T10:00:00Z');

  before(async () => {
    app = await startTestApp();
    app.setNow(t0);
  });
  after(() => app?.close());

  /** An upload of `size` bytes whose process was killed before its row was written. */
  const killedUpload = async (size: number) => {
    const upload = new DocumentUpload(app.services.db, app.services.clock.now());
    const bytes = pdfOf(size);
    for (let at = 0; at < size; at += 64 * 1024) await upload.write(bytes.subarray(at, at + 64 * 1024));
    // The process dies here: no finish, no discard.
  };
  const parts = async () =>
    (await sql<{ n: number }>`select count(*)::int as n from deal_document_parts`.execute(app.services.db)).rows[0]!.n;
  const health = async () => {
    const res = await app.get('/healthz');
    assert.equal(res.status, 200, res.text);
    return res.body.uploads;
  };

  test('a killed 5 MB upload: counted in /healthz, swept at start once no upload can still run, a running one kept', async () => {
    await killedUpload(5 * 1024 * 1024);
    assert.equal(await parts(), 20, '20 parts of 256 KiB');
    assert.deepEqual(await health(), { running: 1, abandoned: 0, abandoned_parts: 0, abandoned_bytes: 0 }, 'possibly still running');

    // Eleven minutes later: no upload runs that long, so it was killed; another upload is under way.
    app.setNow(new Date(t0.getTime() + 11 * 60_000));
    await killedUpload(1536 * 1024);
    assert.deepEqual(await health(), { running: 1, abandoned: 1, abandoned_parts: 20, abandoned_bytes: 5 * 1024 * 1024 });

    // The server starts listening: the sweep runs at once.
    await app.listen();
    for (let i = 0; i < 100 && (await parts()) > 4; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await parts(), 4, 'the killed upload’s parts are gone, the running one’s (a megabyte written so far) kept');
    assert.deepEqual(await health(), { running: 1, abandoned: 0, abandoned_parts: 0, abandoned_bytes: 0 });
  });

  test('the sweep the timer runs (every 5 minutes): what is left goes, once; two processes sweeping at once remove it once', async () => {
    assert.equal(UPLOAD_SWEEP_MS, 5 * 60_000);
    app.setNow(new Date(t0.getTime() + 30 * 60_000));
    await killedUpload(1024 * 1024);
    app.setNow(new Date(t0.getTime() + 45 * 60_000));
    const [one, two] = await Promise.all([app.uploads.sweep(), app.uploads.sweep()]);
    assert.equal(one!.uploads + two!.uploads, 2, 'the two left (the one from the test before and this one), each removed once');
    assert.equal(one!.parts + two!.parts, 8);
    assert.equal(await parts(), 0);
    assert.deepEqual(await health(), { running: 0, abandoned: 0, abandoned_parts: 0, abandoned_bytes: 0 });
  });
});
