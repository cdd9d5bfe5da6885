import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { createCompany, createUser } from '../../src/accounts/commands.ts';
import { TokenIssuer } from '../../src/accounts/tokens.ts';
import { openDatabase } from '../../src/db/connection.ts';
import type { DB } from '../../src/db/schema.ts';
import { createPostgresDatabase, migratedDataDir, TEST_DB } from '../support/databases.ts';
import { SERVER_NODE_FLAGS } from '../support/server-flags.ts';

/** Real server processes (bin/freight-exchange.js serve) on a database of the engine under test. */

export const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
const TOKEN_SECRET = 'reliability-secret-0123456789abcdef';

export interface ServerActor {
  company: number;
  user: number;
  email: string;
  password: string;
  token: string;
}

export interface ServerDatabase {
  /** DATA_DIR or DATABASE_URL, and the token secret, for the server's environment. */
  env: Record<string, string>;
  actors: ServerActor[];
  /** Runs `work` on the database while no server holds it (PGlite: after the server exited). */
  inspect<T>(work: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

/**
 * A migrated database for server processes, with one company and user per label.
 * PGlite: the migrated snapshot the test files share, unpacked into a new DATA_DIR (no initdb: migratedDataDir).
 */
export async function serverDatabase(labels: string[]): Promise<ServerDatabase> {
  const tokens = new TokenIssuer(TOKEN_SECRET, 'demo');
  let open: () => ReturnType<typeof openDatabase>;
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  if (TEST_DB === 'postgres') {
    const pg = await createPostgresDatabase({ migrated: true });
    env = { DATABASE_URL: pg.url, DATA_DIR: '' };
    open = () => openDatabase({ databaseUrl: pg.url, dataDir: '' });
    drop = pg.drop;
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-reliability-'));
    await migratedDataDir(dataDir);
    env = { DATABASE_URL: '', DATA_DIR: dataDir };
    open = () => openDatabase({ databaseUrl: undefined, dataDir });
    drop = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const inspect = async <T>(work: (db: Kysely<DB>) => Promise<T>): Promise<T> => {
    const database = await open();
    try {
      return await work(database.db);
    } finally {
      await database.close();
    }
  };
  const actors = await inspect(async (db) => {
    const out: ServerActor[] = [];
    for (const [i, label] of labels.entries()) {
      const company = await createCompany(db, `${label} ${i + 1} Ltd`);
      const email = `${label.toLowerCase().replace(/[^a-z0-9]/g, '')}${i + 1}@example.test`;
      const password = `pw-${label}-${i}-0123`;
      const user = await createUser(db, tokens, { company: company.id, email, password });
      out.push({ company: company.id, user: user.id, email, password, token: user.token });
    }
    return out;
  });
  return { env: { ...env, TOKEN_SECRET, APP_ENV: 'demo' }, actors, inspect, drop };
}

export interface ServerProcess {
  base: string;
  child: ChildProcessWithoutNullStreams;
  exited: Promise<number | null>;
  /** Everything the process wrote (stdout and stderr). */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `freight-exchange serve` on a free port (PORT=0; the port is read from the start log)
 * and waits until /healthz answers. `cwd` defaults to the checkout.
 */
export async function startServer(env: Record<string, string>, options: { cwd?: string; timeoutMs?: number } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, 'bin/freight-exchange.js'), 'serve'], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  let exitCode: number | null | undefined;
  void exited.then((c) => (exitCode = c));
  const until = Date.now() + (options.timeoutMs ?? 60_000);
  let base: string | undefined;
  while (!base) {
    if (exitCode !== undefined) throw new Error(`the server exited (${exitCode}) before listening:\n${out.slice(-3000)}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the server did not listen in time:\n${out.slice(-3000)}`);
    }
    const m = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(out);
    if (m) base = m[1];
    else await new Promise((r) => setTimeout(r, 25));
  }
  for (;;) {
    const res = await fetch(`${base}/healthz`).catch(() => undefined);
    if (res?.status === 200) break;
    if (exitCode !== undefined || Date.now() > until) throw new Error(`/healthz never answered 200:\n${out.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    base,
    child,
    exited,
    output: () => out,
    async kill(signal) {
      if (exitCode === undefined) child.kill(signal);
      return exited;
    },
  };
}
