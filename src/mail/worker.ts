import { createTransport, type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';
import { Nap } from '../kernel/sweeper.ts';
import { sweepDigests } from './digest.ts';
import { fanOut } from './fanout.ts';
import { writeLetters, type Letter } from './letters.ts';
import { claimMails, pruneMail, recordMails, type ClaimedMail, type MailOutcome } from './outbox.ts';
import type { UnsubscribeTokens } from './unsubscribe.ts';

/**
 * The mail worker of a server process (docs/reference.md#mail): fans events out to users, writes the
 * digests once 07:00 has passed, and sends what is due through the SMTP server, a few mails at
 * once over pooled connections. Every process that listens runs one; they share the work through
 * the database only (outbox.ts), so any number of them sends each mail once. Nothing here runs in
 * a request: a mail server that is slow, refuses or is gone delays only mail.
 */

type LogFn = (obj: object, msg: string) => void;

/** The SMTP side: nodemailer's pooled transport in the server; tests may hand in another `send`. */
export interface MailTransport {
  send(message: OutgoingMail): Promise<void>;
  close(): void;
}

export interface OutgoingMail {
  from: string;
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  messageId: string;
  date: Date;
  headers: Record<string, string>;
}

export interface MailWorkerDeps {
  db: Kysely<DB>;
  clock: Clock;
  from: string;
  publicUrl: string;
  tokens: UnsubscribeTokens;
  transport: MailTransport;
  log?: { error: LogFn; warn?: LogFn };
  /** How often an idle worker looks for work (ms). */
  pollMs?: number;
}

/** Mails in flight per process (the pool's connections carry them in turn), claimed in batches of at most BATCH. */
export const MAX_IN_FLIGHT = 64;
const BATCH = 32;
/** SMTP connections per process. */
const CONNECTIONS = 4;
/** A claimed mail is this process's for so long: longer than the worst SMTP conversation of a full queue. */
const LEASE_MS = 5 * 60_000;
const SWEEP_EVERY_MS = 10_000;
const PRUNE_EVERY_MS = 3600_000;

/** nodemailer's pooled SMTP transport for SMTP_URL (its query may carry options, e.g. `?tls.rejectUnauthorized=false`). */
export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter: Transporter = createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: 500,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(m) {
      await transporter.sendMail({
        from: m.from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        messageId: m.messageId,
        date: m.date,
        headers: m.headers,
      });
    },
    close: () => transporter.close(),
  };
}

/** An SMTP failure as the outbox keeps it: permanent when the server refused the recipient or the message for good (5xx). */
export function smtpFailure(err: unknown): MailOutcome {
  const e = err as { code?: string; responseCode?: number; command?: string; message?: string };
  const permanent =
    typeof e.responseCode === 'number' &&
    e.responseCode >= 500 &&
    (e.code === 'EENVELOPE' || e.code === 'EMESSAGE' || /^(RCPT|DATA)/i.test(e.command ?? ''));
  const text = [e.code, e.responseCode, e.message].filter((x) => x !== undefined && x !== '').join(' ');
  return { kind: 'failed', error: text || String(err), permanent };
}

export class MailWorker {
  private stopping = false;
  private loop: Promise<void> | null = null;
  private readonly nap = new Nap();
  private readonly inFlight = new Set<Promise<void>>();
  /** Mails of the batches in flight. */
  private sending = 0;
  private lastSweep = 0;
  private lastPrune = 0;

  constructor(private readonly deps: MailWorkerDeps) {}

  start(): void {
    if (this.loop || this.stopping) return;
    this.loop = this.run();
  }

  /** Stops claiming and waits for the mails in flight (their outcomes are written), then closes the connections. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.nap.wake();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    this.deps.transport.close();
  }

  /** Everything due now, to the end: fan out, digests, send (tests drive this). Answers how many mails were attempted. */
  async drain(): Promise<number> {
    const now = this.deps.clock.now();
    while ((await fanOut(this.deps.db, now)) > 0);
    await sweepDigests(this.deps.db, this.deps.clock, now);
    let attempted = 0;
    for (;;) {
      const claimed = await claimMails(this.deps.db, this.deps.clock.now(), LEASE_MS, BATCH);
      if (!claimed.length) return attempted;
      await this.sendAll(claimed);
      attempted += claimed.length;
    }
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let more = false;
      try {
        const now = this.deps.clock.now();
        more = (await fanOut(this.deps.db, now)) > 0;
        if (Date.now() - this.lastSweep >= SWEEP_EVERY_MS) {
          this.lastSweep = Date.now();
          await sweepDigests(this.deps.db, this.deps.clock, now);
        }
        if (Date.now() - this.lastPrune >= PRUNE_EVERY_MS) {
          this.lastPrune = Date.now();
          await pruneMail(this.deps.db, now);
        }
        const free = Math.min(MAX_IN_FLIGHT - this.sending, BATCH);
        if (free > 0) {
          const claimed = await claimMails(this.deps.db, this.deps.clock.now(), LEASE_MS, free);
          if (claimed.length) {
            this.sending += claimed.length;
            const p: Promise<void> = this.sendAll(claimed).finally(() => {
              this.sending -= claimed.length;
              this.inFlight.delete(p);
              this.nap.wake();
            });
            this.inFlight.add(p);
          }
          more ||= claimed.length >= free;
        }
      } catch (err) {
        if (!this.stopping) this.deps.log?.error({ err }, 'mail worker: a round failed');
      }
      if (this.stopping) break;
      if (!more || this.sending >= MAX_IN_FLIGHT) await this.nap.sleep(this.deps.pollMs ?? 1000);
    }
  }

  /** Writes the letters of claimed mails, sends them through the pool at once, records every outcome. */
  private async sendAll(mails: readonly ClaimedMail[]): Promise<void> {
    const { db, clock } = this.deps;
    let letters: Map<number, Letter>;
    try {
      letters = await writeLetters(this.deps, mails);
    } catch (err) {
      // Nothing sent: each is tried again after its delay, with the reason kept.
      this.deps.log?.error({ err }, 'mail worker: could not write the letters');
      await recordMails(
        db,
        clock.now(),
        mails.map((mail) => ({
          mail,
          outcome: { kind: 'failed', error: `could not write the mail: ${(err as Error).message}`, permanent: false },
        })),
      ).catch(() => undefined);
      return;
    }
    const results = await Promise.all(
      mails.map(async (mail) => {
        const letter = letters.get(mail.id);
        if (!letter) return { mail, outcome: { kind: 'dropped', reason: 'nothing to send' } as MailOutcome };
        if (letter.kind === 'skip') return { mail, outcome: letter.outcome };
        try {
          await this.deps.transport.send({
            from: this.deps.from,
            to: { name: letter.to.realname, address: letter.to.email },
            subject: letter.composed.subject,
            text: letter.composed.text,
            html: letter.composed.html,
            // The same on every attempt: a mail a server took without our hearing it, sent again, is the same message.
            messageId: `<mail-${mail.id}@${new URL(this.deps.publicUrl).hostname}>`,
            date: clock.now(),
            headers: {
              'List-Unsubscribe': `<${letter.unsubscribe}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
              'Auto-Submitted': 'auto-generated',
            },
          });
          return { mail, outcome: { kind: 'sent' } as MailOutcome };
        } catch (err) {
          return { mail, outcome: smtpFailure(err) };
        }
      }),
    );
    const failed = results.filter((r) => r.outcome.kind === 'failed');
    if (failed.length)
      this.deps.log?.warn?.(
        { failed: failed.length, of: results.length, error: (failed[0]!.outcome as { error: string }).error },
        'mail: the SMTP server did not take every mail; they are retried',
      );
    try {
      await recordMails(db, clock.now(), results);
    } catch (err) {
      // The leases run out and the mails are claimed again (a mail the server took may then go twice, with the same Message-ID).
      this.deps.log?.error({ err }, 'mail worker: could not record outcomes');
    }
  }
}
