import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type App, buildApp } from '../../src/app.ts';
import type { Endpoint } from '../../src/kernel/route.tsx';
import type { LiveHub } from '../../src/live/hub.ts';
import type { AlertWorker } from '../../src/alerts/index.ts';
import type { MailWorker } from '../../src/mail/index.ts';
import { createCompany, createUser } from '../../src/accounts/commands.ts';
import type { PasswordCost } from '../../src/accounts/passwords.ts';
import type { TokenIssuer } from '../../src/accounts/tokens.ts';
import { readConfig, type Config } from '../../src/config/config.ts';
import type { Database } from '../../src/db/connection.ts';
import type { Services } from '../../src/kernel/context.ts';
import { Clock } from '../../src/kernel/time.ts';
import { freshDatabase } from './databases.ts';

/**
 * The scrypt cost of the actors' passwords: a sixteenth of the exchange's (PASSWORD_COST, ~40 ms of
 * CPU a hash). A run creates thousands of actors, ~2 % of its CPU at the full cost; a stored hash
 * names its parameters and a login verifies by them, so logins go the same way. Users made by the
 * command line and password changes keep the full cost (tests/platform/conventions.test.ts checks
 * a user made as the exchange makes them).
 */
const ACTOR_PASSWORD_COST: Readonly<PasswordCost> = { N: 1024, r: 8, p: 1 };

/** A company with one user: the usual party of a test (shipper, carrier, outsider). */
export interface Actor {
  company: number;
  companyName: string;
  user: number;
  email: string;
  username: string;
  password: string;
  token: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** Parsed JSON when the answer is JSON, otherwise the text. */
  body: any;
  text: string;
}

export interface RequestOptions {
  /** Sent as `Authorization: TokenPass <token>`. */
  token?: string;
  /** A JSON body. */
  json?: unknown;
  /** A form body, encoded with bracket keys by the caller (a string) or flat pairs. */
  form?: string | Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface TestApp {
  http: FastifyInstance;
  /** The app's route table (every endpoint, paths without `.json`). */
  endpoints: readonly Endpoint[];
  services: Services;
  database: Database;
  tokens: TokenIssuer;
  config: Config;
  /** The live board's streams of this app (docs/reference.md#live-board). */
  live: LiveHub;
  /** the worker computing alerts after their commits (requests through the harness wait for it) */
  alerts: AlertWorker;
  /** writes the freights' view presentations a view found stale (requests through the harness wait for it) */
  presentations: App['presentations'];
  /** the mail worker (with SMTP_URL in `env`; tests drain it), else null */
  mail: MailWorker | null;
  /** the sweep of what killed uploads left (src/deals/sweep.ts) */
  uploads: App['uploads'];
  /** The waterfall turns' sweeper of this app (docs/reference.md#one-step): one pass now, at the app's clock. */
  waterfalls: { sweep(): Promise<number> };
  /** The tenders' sweeper (docs/reference.md#tenders): closes tenders past their deadline now, at the app's clock. */
  tenders: { sweep(): Promise<number> };
  /** Moves the exchange's clock (deadlines, expiry); `null` returns to real time. */
  setNow(date: Date | null): void;
  company(name?: string): Promise<{ id: number; name: string }>;
  /** A new company with one user. */
  actor(label?: string, options?: { language?: string }): Promise<Actor>;
  /** Another user of an existing company. */
  colleague(of: Actor, label?: string): Promise<Actor>;
  request(method: string, url: string, options?: RequestOptions): Promise<ApiResponse>;
  get(url: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Listens on a free loopback port (browser tests); answers the base URL. */
  listen(): Promise<string>;
  post(url: string, options?: RequestOptions): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** a database of the test's own (a primary with replicas), instead of a fresh one of the engine under test */
  database?: Database;
}

/** A complete app on a fresh database of the engine under test (tests/support/databases.ts). */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = readConfig({ APP_ENV: 'demo', TOKEN_SECRET: 'test-secret-0123456789abcdef', ...options.env });
  const database = options.database ?? (await freshDatabase());
  let fixedNow: Date | null = null;
  const clock = new Clock(config.timezone, () => fixedNow ?? new Date());
  const { http, services, tokens, endpoints, live, alerts, presentations, mail, uploads, waterfalls, tenders } = await buildApp({
    config,
    database,
    clock,
  });
  await http.ready();
  let seq = 0;

  const request = async (method: string, url: string, o: RequestOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { 'user-agent': 'freight-exchange-tests / 1.0', ...o.headers };
    if (o.token) headers.authorization = `TokenPass ${o.token}`;
    let payload: string | undefined;
    if (o.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = JSON.stringify(o.json);
    } else if (o.form !== undefined) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      payload = typeof o.form === 'string' ? o.form : new URLSearchParams(o.form).toString();
    }
    const res = await http.inject({ method: method as 'GET', url, headers, payload, query: o.query });
    // Alerts run after the commit, after the answer (src/alerts): a test reads them once they
    // are written, as a person would a moment later; tests/alerts/queue.test.ts checks the delay itself.
    await alerts.idle();
    // A view that found its freight's stored presentation stale writes it after the answer (src/freights/presented.ts).
    await presentations.idle();
    const type = String(res.headers['content-type'] ?? '');
    return {
      status: res.statusCode,
      headers: res.headers,
      text: res.body,
      body: type.includes('application/json') ? res.json() : res.body,
    };
  };

  const app: TestApp = {
    http,
    endpoints,
    services,
    database,
    tokens,
    config,
    live,
    alerts,
    presentations,
    mail,
    uploads,
    waterfalls,
    tenders,
    setNow(date) {
      fixedNow = date;
    },
    company: (name) => createCompany(services.db, name ?? `Company ${++seq}`),
    async actor(label, opts) {
      const tag = `${label ?? 'user'}${++seq}`.toLowerCase().replace(/[^a-z0-9]/g, '');
      const company = await createCompany(services.db, `${label ?? 'Company'} ${seq} Ltd`);
      const password = `pw-${randomBytes(4).toString('hex')}`;
      const email = `${tag}@example.test`;
      const user = await createUser(
        services.db,
        tokens,
        { company: company.id, email, password, username: tag, language: opts?.language },
        ACTOR_PASSWORD_COST,
      );
      return { company: company.id, companyName: company.name, user: user.id, email, username: tag, password, token: user.token };
    },
    async colleague(of, label) {
      const tag = `${label ?? 'colleague'}${++seq}`.toLowerCase().replace(/[^a-z0-9]/g, '');
      const password = `pw-${randomBytes(4).toString('hex')}`;
      const email = `${tag}@example.test`;
      const user = await createUser(services.db, tokens, { company: of.company, email, password, username: tag }, ACTOR_PASSWORD_COST);
      return { ...of, user: user.id, email, username: tag, password, token: user.token };
    },
    request,
    get: (url, o) => request('GET', url, o),
    async listen() {
      await http.listen({ port: 0, host: '127.0.0.1' });
      const address = http.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      return `http://127.0.0.1:${address.port}`;
    },
    post: (url, o) => request('POST', url, o),
    async close() {
      await http.close();
      await database.close();
    },
  };
  return app;
}
