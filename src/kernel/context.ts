import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.ts';
import type { DB } from '../db/schema.ts';
import type { Language, Translate } from './i18n.ts';
import type { Params } from './params.ts';
import type { Clock } from './time.ts';

/** Who is calling: a user of a company, by API token or by browser session. */
export interface Caller {
  userId: number;
  companyId: number;
  companyName: string;
  email: string;
  username: string | null;
  realname: string;
  language: Language;
  /** The API token, repeated in the envelope's `auth` of a caller that sent it (docs/reference.md#envelope). */
  token: string;
  /**
   * Came by the browser session, not by the token: its answers never carry the token (render.tsx
   * envelope), since a compressed answer that also echoes the request would let a page of another
   * site read the token out by the answers' sizes (BREACH; docs/choices.md, Safety).
   */
  session?: true;
}

/** Resolves callers; implemented by the accounts module, used by every route. */
export interface Authenticator {
  byToken(token: string): Promise<Caller | null>;
  bySession(sessionId: string): Promise<Caller | null>;
}

/**
 * Reads on replicas (db/replicas.ts), when DATABASE_READ_URL names some: where a company's read
 * goes, the fence after its write, a replica that failed.
 */
export interface ReadRouter {
  dbFor(companyId: number): Promise<Kysely<DB>>;
  wrote(companyId: number): Promise<void>;
  failed(db: Kysely<DB>): void;
  /** each replica's name, state, lag and reads, for /healthz */
  status(): Array<{ name: string; state: string; lag_bytes: number | null; reads: number }>;
}

/** What requests tell the operator's metrics (ops/metrics.ts, GET /metrics); absent unless METRICS_TOKEN is set. */
export interface Observations {
  /** A login refused by throttling (docs/reference.md#safety): a 429, or a user blocked under its other name. */
  loginThrottled(reason: 'throttled' | 'user_blocked'): void;
}

/** What every module gets: the database, the configuration, the clock, authentication. */
export interface Services {
  /** the primary: every write, and every read not routed to a replica */
  db: Kysely<DB>;
  /** replicas for the endpoints that declare `reads: 'replica'`; absent without DATABASE_READ_URL */
  reads?: ReadRouter;
  dbKind: 'pglite' | 'postgres';
  config: Config;
  clock: Clock;
  auth: Authenticator;
  /** the operator's metrics, when METRICS_TOKEN is set */
  observe?: Observations;
}

export type Format = 'json' | 'html';

export interface Ctx<C extends Caller | null = Caller> {
  req: FastifyRequest;
  reply: FastifyReply;
  services: Services;
  /** the database this request reads: the primary, or a replica for an endpoint that declares `reads` */
  db: Kysely<DB>;
  clock: Clock;
  caller: C;
  /** Query, form and JSON body merged (docs/reference.md#conventions item 2). */
  params: Params;
  /** Path parameters, as strings. */
  path: Record<string, string>;
  format: Format;
  language: Language;
  t: Translate;
}
