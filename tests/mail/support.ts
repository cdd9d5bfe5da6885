import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/harness.ts';

/** One mail a test SMTP server took: its envelope, its raw text, and as mailparser reads it. */
export interface Received {
  from: string;
  to: string[];
  raw: string;
  mail: ParsedMail;
}

/**
 * A real SMTP server of the test's own (npm smtp-server) on a free loopback port. `refuse`
 * decides per message: undefined takes it, a number answers that SMTP code to its DATA (451: try
 * later; 554: never); `vanishAfter` takes that many messages and then drops every connection and
 * stops listening, in the middle of whatever comes next.
 */
export interface TestSmtp {
  url: string;
  port: number;
  received: Received[];
  refuse?: (nth: number) => number | undefined;
  /** Messages offered so far (taken or not). */
  seen: number;
  /** Vanish when the message after this many offered (`seen`) arrives. */
  vanishAfter?: number;
  /** Recipients refused at RCPT TO with 550 (unknown user). */
  unknown: Set<string>;
  close(): Promise<void>;
  /** Drops every connection and stops listening at once (the server is gone). */
  vanish(): Promise<void>;
}

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const sockets = new Set<Socket>();
  // Once gone, a message whose answer was still to be written was never taken (it is not kept).
  let gone = false;
  const smtp: TestSmtp = {
    url: '',
    port: 0,
    seen: 0,
    received: [],
    unknown: new Set(),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
    vanish: async () => {
      gone = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.server.close(() => r()));
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (smtp.unknown.has(address.address)) return callback(Object.assign(new Error('no such user here'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const nth = ++smtp.seen;
        if (smtp.vanishAfter !== undefined && nth > smtp.vanishAfter) {
          // Gone before answering: the client never hears that this one was taken (it was not).
          void smtp.vanish();
          return;
        }
        const code = smtp.refuse?.(nth);
        if (code) return callback(Object.assign(new Error(code >= 500 ? 'refused for good' : 'try again later'), { responseCode: code }));
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        simpleParser(raw).then(
          (mail) => {
            if (gone) return;
            smtp.received.push({ ...envelope, raw, mail });
            callback();
          },
          (err) => callback(err),
        );
      });
    },
  });
  server.server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  smtp.port = (server.server.address() as { port: number }).port;
  smtp.url = `smtp://127.0.0.1:${smtp.port}`;
  return smtp;
}

export const PUBLIC_URL = 'https://freight.example';

/** A test app that sends mail to `smtp`. */
export function mailApp(smtp: TestSmtp, options: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp({
    ...options,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Freight Exchange <noreply@freight.example>', PUBLIC_URL, ...options.env },
  });
}

/** Sends everything due now (fan-out, digests, the outbox) and answers the mails the server took since `from`. */
export async function flush(app: TestApp, smtp: TestSmtp, from = smtp.received.length): Promise<Received[]> {
  assert.ok(app.mail, 'the app sends mail');
  await app.mail.drain();
  return smtp.received.slice(from);
}

/** A header of the raw mail, unfolded (mailparser restructures the List-* headers). */
export function rawHeader(received: Received, name: string): string | undefined {
  const head = received.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const m = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head);
  return m?.[1]?.trim();
}

/** The mails to one address. */
export const to = (received: readonly Received[], email: string) => received.filter((r) => r.to.includes(email));

/** Sets a user's modes through the API. */
export async function setModes(app: TestApp, token: string, email: Record<string, string>) {
  const res = await app.post('/users/settings.json', { token, json: { email } });
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data;
}

/** The mail outbox's rows, for assertions on what was queued. */
export async function outbox(app: TestApp) {
  return app.services.db.selectFrom('mail_messages').selectAll().orderBy('id').execute();
}
