import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCompany, createUser } from '../../src/accounts/commands.ts';
import { TokenIssuer } from '../../src/accounts/tokens.ts';
import { main } from '../../src/admin.ts';
import { readConfig } from '../../src/config/config.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { migratedDeployment, TEST_DB } from '../support/databases.ts';

/** The operator's view of the mail outbox (docs/reference.md#mail): `mail status` and `mail retry`. */
describe(`mail: the command line (${TEST_DB})`, () => {
  let dataDir: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  const saved = { ...process.env };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-mail-cli-'));
    process.env.DATA_DIR = dataDir;
    process.env.TOKEN_SECRET = 'mail-cli-secret-0123456789';
    delete process.env.APP_ENV;
    delete process.env.SMTP_URL;
    const deployment = await migratedDeployment(dataDir);
    Object.assign(process.env, deployment.env);
    dropDatabase = deployment.drop;
  });
  after(async () => {
    process.env = saved;
    await dropDatabase?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), interactive: false });
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  };

  test('status says what waits and what failed; retry queues the failed again', async () => {
    const empty = await cli('mail', 'status', '--json');
    assert.equal(empty.code, 0, empty.stderr);
    assert.deepEqual(JSON.parse(empty.stdout), {
      sending: false,
      queued: 0,
      retrying: 0,
      oldest_queued: null,
      digest_items: 0,
      failed_24h: 0,
      unfanned: 0,
      last_error: null,
    });
    // A mail that failed for good (the server refused its recipient), as the worker leaves it.
    const database = await openDatabase(readConfig());
    try {
      const company = await createCompany(database.db, 'Mailed Ltd');
      const user = await createUser(database.db, new TokenIssuer('mail-cli-secret-0123456789', 'demo'), {
        company: company.id,
        email: 'gone@example.test',
        password: 'pw-mail-cli',
      });
      const now = new Date();
      await database.db
        .insertInto('mail_messages')
        .values({
          user_id: user.id,
          kind: 'bids',
          event_seq: 1,
          state: 'failed',
          attempts: 1,
          next_attempt: null,
          last_error: 'EENVELOPE 550 no such user here',
          created: now,
          finished: now,
        })
        .execute();
    } finally {
      await database.close();
    }
    const failed = JSON.parse((await cli('mail', 'status', '--json')).stdout);
    assert.equal(failed.failed_24h, 1);
    assert.equal(failed.last_error, 'EENVELOPE 550 no such user here');
    const human = await cli('mail', 'status');
    assert.match(human.stdout, /failed in the last 24 hours: 1/);
    const retried = await cli('mail', 'retry', '--json');
    assert.deepEqual(JSON.parse(retried.stdout), { queued: 1 });
    const after = JSON.parse((await cli('mail', 'status', '--json')).stdout);
    assert.equal(after.queued, 1);
    assert.equal(after.failed_24h, 0);
  });
});
