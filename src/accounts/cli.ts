import type { Kysely } from 'kysely';
import { print, positiveInt, required, type Command } from '../cli/command.ts';
import type { Config } from '../config/config.ts';
import { openDatabase } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import { AccountInputError, createCompany, createUser, rotateToken, setPasswordOf } from './commands.ts';
import { setVerified } from './profile.ts';
import { Clock } from '../kernel/time.ts';
import { resolveTokenSecret } from './secret.ts';
import { findUserByLogin } from './store.ts';
import { TokenIssuer } from './tokens.ts';

/** Opens the database (refused while a server holds the embedded one), runs, closes. */
export async function withDatabase<T>(config: Config, work: (db: Kysely<DB>, tokens: TokenIssuer) => Promise<T>): Promise<T> {
  const database = await openDatabase(config);
  try {
    const tokens = new TokenIssuer(await resolveTokenSecret(config, database.db), config.appEnv);
    return await work(database.db, tokens);
  } finally {
    await database.close();
  }
}

const DEMO = {
  companies: ['Demo Shipper GmbH', 'Demo Carrier Rhein', 'Demo Carrier Nord'],
  users: [
    {
      company: 0,
      email: 'shipper@demo.example',
      username: 'shipper',
      realname: 'Sandra Shipper',
      password: 'shipper-demo',
      language: 'eng',
    },
    { company: 1, email: 'carrier@demo.example', username: 'carrier', realname: 'Carl Carrier', password: 'carrier-demo', language: 'eng' },
    {
      company: 2,
      email: 'spediteur@demo.example',
      username: 'spediteur',
      realname: 'Nora Nord',
      password: 'spediteur-demo',
      language: 'deu',
    },
  ],
};

export const accountCommands: Command[] = [
  {
    words: ['company', 'create'],
    usage: 'company create --name NAME [--json]',
    options: { name: { type: 'string' }, json: { type: 'boolean' } },
    async run(values, config, io) {
      const name = required(values, 'name');
      const company = await withDatabase(config, (db) => createCompany(db, name));
      print(io, !!values.json, company, `created company ${company.id}: ${company.name}`);
    },
  },
  {
    words: ['company', 'verify'],
    usage: 'company verify --id N [--revoke] [--json]',
    help: 'marks a company as verified by the operator (its verified mark beside its name everywhere), or with --revoke takes the mark away',
    options: { id: { type: 'string' }, revoke: { type: 'boolean' }, json: { type: 'boolean' } },
    async run(values, config, io) {
      const id = positiveInt(values, 'id');
      const revoke = values.revoke === true;
      const company = await withDatabase(config, (db) => setVerified(db, id, !revoke, new Date()));
      if (!company) throw new AccountInputError(`--id: no company with id ${id}`);
      const verifiedAt = company.verified_at ? new Clock(config.timezone).format(company.verified_at) : null;
      const value = { id: company.id, name: company.name, verified: company.verified_at !== null, verified_at: verifiedAt };
      print(
        io,
        !!values.json,
        value,
        revoke
          ? `company ${company.id} (${company.name}) is no longer verified`
          : `company ${company.id} (${company.name}) verified since ${verifiedAt}`,
      );
    },
  },
  {
    words: ['user', 'create'],
    usage: 'user create --company ID --email EMAIL --password PW [--username NAME] [--realname NAME] [--language eng] [--json]',
    options: {
      company: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      username: { type: 'string' },
      realname: { type: 'string' },
      language: { type: 'string' },
      json: { type: 'boolean' },
    },
    async run(values, config, io) {
      const input = {
        company: positiveInt(values, 'company'),
        email: required(values, 'email'),
        password: required(values, 'password'),
        username: values.username as string | undefined,
        realname: values.realname as string | undefined,
        language: values.language as string | undefined,
      };
      const user = await withDatabase(config, (db, tokens) => createUser(db, tokens, input));
      print(io, !!values.json, user, `created user ${user.id} (${user.email}) in company ${user.company}\nAPI token: ${user.token}`);
    },
  },
  {
    words: ['user', 'token', 'rotate'],
    usage: 'user token rotate --user ID|EMAIL|USERNAME [--json]',
    options: { user: { type: 'string' }, json: { type: 'boolean' } },
    async run(values, config, io) {
      const ref = required(values, 'user');
      const user = await withDatabase(config, (db, tokens) => rotateToken(db, tokens, ref));
      print(
        io,
        !!values.json,
        user,
        `new API token of user ${user.id} (${user.email}): ${user.token}\nthe old token is refused from now on; ${user.sessions_ended} browser session(s) ended`,
      );
    },
  },
  {
    words: ['user', 'password', 'set'],
    usage: 'user password set --user ID|EMAIL|USERNAME --password PW [--json]',
    options: { user: { type: 'string' }, password: { type: 'string' }, json: { type: 'boolean' } },
    async run(values, config, io) {
      const ref = required(values, 'user');
      const password = required(values, 'password');
      const result = await withDatabase(config, (db) => setPasswordOf(db, ref, password));
      print(
        io,
        !!values.json,
        result,
        `password of user ${result.id} (${result.email}) set; ${result.sessions_ended} browser session(s) ended`,
      );
    },
  },
  {
    words: ['seed', 'demo'],
    usage: 'seed demo [--json]',
    options: { json: { type: 'boolean' } },
    async run(values, config, io) {
      const result = await withDatabase(config, async (db, tokens) => {
        // Idempotent: a second run reports the demo accounts that exist instead of failing.
        const companies: { id: number; name: string }[] = [];
        const users = [];
        for (const [i, name] of DEMO.companies.entries()) {
          const owner = DEMO.users.find((u) => u.company === i)!;
          const existing = await findUserByLogin(db, owner.email);
          companies.push(existing ? { id: existing.company_id, name: existing.company_name } : await createCompany(db, name));
        }
        for (const u of DEMO.users) {
          const existing = await findUserByLogin(db, u.email);
          const company = companies[u.company]!;
          const created = existing
            ? {
                id: existing.id,
                company: existing.company_id,
                email: existing.email,
                token: tokens.issue(existing.id, existing.token_nonce),
              }
            : await createUser(db, tokens, { ...u, company: company.id });
          users.push({ ...created, username: u.username, realname: u.realname, password: u.password, language: u.language });
        }
        return { companies, users };
      });
      const human = [
        'demo accounts (log in with e-mail or username):',
        ...result.users.map((u) => `  ${u.email} / ${u.username}  password: ${u.password}  company ${u.company}  token: ${u.token}`),
      ].join('\n');
      print(io, !!values.json, result, human);
    },
  },
];
