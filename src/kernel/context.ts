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
  /** The API token, repeated in every envelope's `auth`. */
  token: string;
}

/** Resolves callers; implemented by the accounts module, used by every route. */
export interface Authenticator {
  byToken(token: string): Promise<Caller | null>;
  bySession(sessionId: string): Promise<Caller | null>;
}

/** What every module gets: the database, the configuration, the clock, authentication. */
export interface Services {
  db: Kysely<DB>;
  dbKind: 'pglite' | 'postgres';
  config: Config;
  clock: Clock;
  auth: Authenticator;
}

export type Format = 'json' | 'html';

export interface Ctx<C extends Caller | null = Caller> {
  req: FastifyRequest;
  reply: FastifyReply;
  services: Services;
  db: Kysely<DB>;
  clock: Clock;
  caller: C;
  /** Query, form and JSON body merged (api.md, Endpoints 2). */
  params: Params;
  /** Path parameters, as strings. */
  path: Record<string, string>;
  format: Format;
  language: Language;
  t: Translate;
}
