import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.ts';

/**
 * The backup tests' own readings of a database, written independently of src/ops/backup (other
 * formulas, other statements), and the command line run as a separate process.
 */

const ROOT = new URL('../../', import.meta.url).pathname;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs `freight-exchange ARGS` (the compiled command, as an operator would) with `env`; resolves when it exits. */
export function cli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const base = { ...process.env };
    for (const k of ['DATA_DIR', 'DATABASE_URL', 'DATABASE_READ_URL', 'METRICS_TOKEN']) delete base[k];
    const child = spawn(process.execPath, ['bin/freight-exchange.js', ...args], {
      cwd: ROOT,
      env: { ...base, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      let json: unknown = null;
      try {
        json = JSON.parse(stdout);
      } catch {
        /* not JSON */
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

async function inStableText<T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local timezone to 'UTC'`.execute(trx);
    await sql`set local extra_float_digits to 1`.execute(trx);
    return work(trx);
  });
}

async function tableNames(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
  }>`select tablename::text as name from pg_tables where schemaname = 'public' order by 1`.execute(db);
  return rows.map((r) => r.name);
}

/** Per table: its row count and the md5 of its rows' md5s in sorted order (a whole-table digest). */
export async function tableDigests(db: Kysely<DB>): Promise<Map<string, { rows: number; digest: string }>> {
  return inStableText(db, async (trx) => {
    const out = new Map<string, { rows: number; digest: string }>();
    for (const name of await tableNames(trx)) {
      const { rows } = await sql<{ n: string; d: string }>`
        select count(*)::text as n, md5(coalesce(string_agg(h, ',' order by h), '')) as d
          from (select md5(t::text) as h from ${sql.table(name)} t) x`.execute(trx);
      out.set(name, { rows: Number(rows[0]!.n), digest: rows[0]!.d });
    }
    return out;
  });
}

/** Every row of every table, as the md5 of its text, by table. */
export async function rowHashes(db: Kysely<DB>): Promise<Map<string, Set<string>>> {
  return inStableText(db, async (trx) => {
    const out = new Map<string, Set<string>>();
    for (const name of await tableNames(trx)) {
      const { rows } = await sql<{ h: string }>`select md5(t::text) as h from ${sql.table(name)} t`.execute(trx);
      out.set(name, new Set(rows.map((r) => r.h)));
    }
    return out;
  });
}

/** Every document: its name, the SHA-256 it was stored with, and the SHA-256 of its bytes as read back (content or parts). */
export async function documentBytes(
  db: Kysely<DB>,
): Promise<Array<{ id: number; name: string; stored: string; actual: string; size: number }>> {
  const docs = await db.selectFrom('deal_documents').select(['id', 'name', 'sha256', 'size', 'content']).orderBy('id').execute();
  const out = [];
  for (const d of docs) {
    const hash = createHash('sha256');
    let size = 0;
    if (d.content) {
      hash.update(d.content);
      size = d.content.length;
    } else {
      const parts = await db.selectFrom('deal_document_parts').select('bytes').where('document_id', '=', d.id).orderBy('part').execute();
      for (const p of parts) {
        hash.update(p.bytes);
        size += p.bytes.length;
      }
    }
    out.push({ id: d.id, name: d.name, stored: d.sha256, actual: hash.digest('hex'), size });
  }
  return out;
}
