import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { create as createTar, Parser, type ReadEntry } from 'tar';

/**
 * The backup file (docs: README "Operating it"): a tar archive, gzip-compressed for the embedded
 * database, whose first member is the manifest (MANIFEST_NAME, JSON) and the rest its payload:
 * the data directory's files under `pgdata/` (embedded), or `database.pgdump` in pg_dump's custom
 * format (PostgreSQL). The manifest names each payload file with its size and SHA-256, the
 * schema (the migrations applied) and every table's row count and checksum, so a restore can
 * refuse a foreign, truncated or newer file before it changes anything, and check afterwards
 * that it restored exactly what was backed up. `tar tvf` lists it; `tar xf FILE database.pgdump`
 * hands pg_restore its dump.
 */

export const MANIFEST_NAME = 'freight-exchange-backup.json';
export const FORMAT = 'freight-exchange-backup';
export const FORMAT_VERSION = 1;
/** A manifest is small (a line per file and table); anything bigger is not ours. */
const MAX_MANIFEST_BYTES = 8 << 20;

export type Engine = 'pglite' | 'postgres';

/** A table as the backup found it: rows and an order-independent checksum of their text (fingerprint.ts). */
export interface TableFingerprint {
  name: string;
  rows: number;
  checksum: string;
}

export interface PayloadFile {
  name: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  engine: Engine;
  /** ISO time the snapshot was taken */
  created: string;
  /** the exchange's version (package.json) and the database server's */
  app_version: string;
  server_version: string;
  /** the migrations applied, by name, in the order of their names */
  migrations: string[];
  tables: TableFingerprint[];
  payload: PayloadFile[];
}

/** A file that cannot be restored (foreign, truncated, damaged, of another engine or a newer schema): nothing was changed. */
export class BackupRefused extends Error {}

/** Reads a file's SHA-256 and size. */
export async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * Writes the archive `to` (through a temporary name, renamed when complete: a file under the
 * final name is always whole): the manifest, then `files` (paths relative to `cwd`, in order).
 * `progress` is told of the bytes written.
 */
export async function writeArchive(
  to: string,
  cwd: string,
  manifest: Manifest,
  files: string[],
  options: { gzip: boolean; progress?: (bytes: number) => void },
): Promise<number> {
  fs.writeFileSync(path.join(cwd, MANIFEST_NAME), `${JSON.stringify(manifest, null, 1)}\n`, { mode: 0o600 });
  const partial = `${to}.partial-${process.pid}`;
  let written = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      written += chunk.length;
      options.progress?.(written);
      done(null, chunk);
    },
  });
  try {
    const tar = createTar(
      // Level 1: the data directory's pages compress about as well at 1 as at 6, four times faster.
      { cwd, gzip: options.gzip ? { level: 1 } : false, portable: true, noDirRecurse: true },
      [MANIFEST_NAME, ...files],
    );
    // The file holds every company's data: readable by its owner only.
    await pipeline(tar, count, fs.createWriteStream(partial, { mode: 0o600 }));
    fs.renameSync(partial, to);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
  return written;
}

/** Every directory and file under `dir` (relative paths, directories before what they hold). */
export function listTree(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(rel, ...listTree(dir, rel));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

const SAFE_NAME = /^(?:pgdata(?:\/[A-Za-z0-9_.-]+)*|database\.pgdump)\/?$/;

/**
 * Reads an archive: the manifest first (`accept` may refuse it: of another engine, a newer
 * schema), then each payload file into `into`, checked against the manifest's size and SHA-256
 * as it arrives. Anything else — not a tar, no manifest first, a member the manifest does not
 * name, a path outside `into`, a link, a file cut short, a wrong hash, a file missing at the end —
 * is refused with BackupRefused. The caller removes `into` on a refusal.
 */
export async function readArchive(
  file: string,
  into: string,
  accept: (manifest: Manifest) => void,
  progress?: (bytes: number, total: number) => void,
): Promise<Manifest> {
  let total: number;
  try {
    total = fs.statSync(file).size;
  } catch (err) {
    throw new BackupRefused(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let manifest: Manifest | undefined;
  /** the file began as a backup does (its manifest's header was read) */
  let ours = false;
  let failure: Error | undefined;
  const seen = new Map<string, PayloadFile>();
  const writes: Promise<void>[] = [];
  /** members still being read: when the input ends first, the file was cut inside one */
  const unfinished = new Set<ReadEntry>();
  const parser = new Parser({ strict: true });
  const refuse = (message: string) => {
    failure ??= new BackupRefused(message);
    parser.abort(failure);
  };
  parser.on('entry', (entry: ReadEntry) => {
    if (failure) return entry.resume();
    if (!manifest) {
      if (entry.path !== MANIFEST_NAME || entry.type !== 'File' || entry.size > MAX_MANIFEST_BYTES) {
        entry.resume();
        return refuse(`${file} is not a freight-exchange backup (it does not begin with ${MANIFEST_NAME})`);
      }
      ours = true;
      unfinished.add(entry);
      entry.on('end', () => unfinished.delete(entry));
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => {
        const text = Buffer.concat(chunks);
        // The input ended inside the manifest (its header names more bytes than came): cut short, not foreign.
        if (text.length < entry.size)
          return refuse(`${file} is incomplete: it ends inside ${MANIFEST_NAME}; was it cut short while copying?`);
        try {
          manifest = parseManifest(text.toString('utf8'), file);
          accept(manifest);
        } catch (err) {
          refuse((err as Error).message);
        }
      });
      return;
    }
    const name = entry.path;
    if (entry.type === 'Directory') {
      if (!SAFE_NAME.test(name) || name.split('/').includes('..')) return refuse(`${file} holds an unexpected directory ${name}`);
      fs.mkdirSync(path.join(into, name), { recursive: true, mode: 0o700 });
      return entry.resume();
    }
    const expected = manifest.payload.find((p) => p.name === name);
    if (entry.type !== 'File' || !expected || !SAFE_NAME.test(name) || name.split('/').includes('..') || seen.has(name)) {
      entry.resume();
      return refuse(`${file} holds ${name}, which its manifest does not name: damaged or not ours`);
    }
    seen.set(name, expected);
    unfinished.add(entry);
    entry.on('end', () => unfinished.delete(entry));
    const target = path.join(into, name);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    const hash = createHash('sha256');
    let size = 0;
    const check = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
      flush(done) {
        const sha = hash.digest('hex');
        done(
          size === expected.size && sha === expected.sha256
            ? null
            : new BackupRefused(`${name} in ${file} is damaged (its checksum differs)`),
        );
      },
    });
    writes.push(
      pipeline(entry, check, fs.createWriteStream(target, { mode: 0o600 })).catch((err) => {
        refuse(err instanceof BackupRefused ? err.message : `${name}: ${(err as Error).message}`);
      }),
    );
  });
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      read += chunk.length;
      progress?.(read, total);
      done(null, chunk);
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const input = fs.createReadStream(file, { highWaterMark: 1 << 20 });
      // The parser may report more than one error (a foreign file's every header): the first decides.
      input.on('error', reject);
      counter.on('error', reject);
      parser.on('error', reject);
      parser.on('abort', reject);
      parser.once('end', resolve);
      input.pipe(counter).pipe(parser as unknown as NodeJS.WritableStream);
    });
  } catch (err) {
    // zlib's "unexpected end of file", tar's "truncated input": a file cut short, or not a tar at all.
    failure ??= new BackupRefused(
      !ours
        ? `${file} is not a freight-exchange backup (${(err as Error).message})`
        : `${file} is incomplete or damaged (${(err as Error).message}): was it cut short while copying?`,
    );
  }
  if (unfinished.size) {
    failure ??= new BackupRefused(`${file} is incomplete: it ends inside ${[...unfinished][0]!.path}; was it cut short while copying?`);
    for (const entry of unfinished) entry.destroy(failure);
  }
  await Promise.all(writes);
  if (failure) throw failure;
  if (!manifest) throw new BackupRefused(`${file} is not a freight-exchange backup (it does not begin with ${MANIFEST_NAME})`);
  const missing = manifest.payload.filter((p) => !seen.has(p.name));
  if (missing.length)
    throw new BackupRefused(
      `${file} is incomplete: ${missing.length} of its ${manifest.payload.length} files are missing (e.g. ${missing[0]!.name})`,
    );
  return manifest;
}

function parseManifest(text: string, file: string): Manifest {
  let m: Partial<Manifest>;
  try {
    m = JSON.parse(text) as Partial<Manifest>;
  } catch {
    throw new BackupRefused(`${file} is not a freight-exchange backup (its manifest is not JSON)`);
  }
  if (m?.format !== FORMAT) throw new BackupRefused(`${file} is not a freight-exchange backup`);
  if (m.version !== FORMAT_VERSION)
    throw new BackupRefused(`${file} is a backup of format ${m.version}; this version of freight-exchange reads format ${FORMAT_VERSION}`);
  const ok =
    (m.engine === 'pglite' || m.engine === 'postgres') &&
    typeof m.created === 'string' &&
    Array.isArray(m.migrations) &&
    m.migrations.every((x) => typeof x === 'string') &&
    Array.isArray(m.tables) &&
    m.tables.every((t) => typeof t?.name === 'string' && Number.isSafeInteger(t.rows) && typeof t.checksum === 'string') &&
    Array.isArray(m.payload) &&
    m.payload.every((p) => typeof p?.name === 'string' && Number.isSafeInteger(p.size) && /^[0-9a-f]{64}$/.test(String(p.sha256)));
  if (!ok) throw new BackupRefused(`${file} has a damaged manifest`);
  return m as Manifest;
}
