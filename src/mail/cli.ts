import { withDatabase } from '../accounts/index.ts';
import { print, type Command } from '../cli/command.ts';
import { sendsMail } from '../config/mail.ts';
import { Clock } from '../kernel/time.ts';
import { mailStatus, retryFailed } from './outbox.ts';

/** The operator's view of the mail outbox (docs/reference.md#mail): what waits, what failed and why; failed mails queued again. */
export const mailCommands: Command[] = [
  {
    words: ['mail', 'status'],
    usage: 'mail status [--json]',
    help: 'The mail outbox: mails waiting and retrying, the oldest, digest items, failures of the last 24 hours and the last error.',
    options: { json: { type: 'boolean' } },
    async run(values, config, io) {
      const clock = new Clock(config.timezone);
      const status = await withDatabase(config, (db) => mailStatus(db, clock.now(), sendsMail(config.mail), (d) => clock.format(d)));
      const human = [
        `sending: ${status.sending ? 'yes' : 'no (SMTP_URL unset)'}`,
        `queued: ${status.queued} (retrying: ${status.retrying}, oldest: ${status.oldest_queued ?? '-'})`,
        `digest items waiting: ${status.digest_items}`,
        `failed in the last 24 hours: ${status.failed_24h}`,
        `events not turned into mail: ${status.unfanned}`,
        `last error: ${status.last_error ?? '-'}`,
      ].join('\n');
      print(io, !!values.json, status, human);
    },
  },
  {
    words: ['mail', 'retry'],
    usage: 'mail retry [--json]',
    help: 'Queues every failed mail again, due now (after the mail server is fixed).',
    options: { json: { type: 'boolean' } },
    async run(values, config, io) {
      const clock = new Clock(config.timezone);
      const queued = await withDatabase(config, (db) => retryFailed(db, clock.now()));
      print(io, !!values.json, { queued }, `queued again: ${queued}`);
    },
  },
];
