import fs from 'node:fs';
import { migrations } from '../../db/migrations/index.ts';
import { BackupRefused, type Engine, type Manifest, type TableFingerprint } from './archive.ts';

/** What a backup reports. */
export interface BackupResult {
  file: string;
  engine: Engine;
  bytes: number;
  created: string;
  schema: string;
  tables: number;
  rows: number;
  /** how long writes waited for the snapshot (the embedded database pauses for the copy of its files) */
  paused_ms: number;
  seconds: number;
}

/** What a restore reports: what it restored, and which migrations it ran on it. */
export interface RestoreResult {
  file: string;
  engine: Engine;
  created: string;
  schema: string;
  tables: number;
  rows: number;
  /** rows per table, the largest first */
  table_rows: Record<string, number>;
  migrated: string[];
  /** where the database that was replaced was kept (--replace), else null */
  replaced: string | null;
  seconds: number;
}

const ENGINE_NAMES: Record<Engine, string> = { pglite: 'the embedded database', postgres: 'PostgreSQL' };
export const engineName = (engine: Engine) => ENGINE_NAMES[engine];

/** The exchange's version, from its package.json (two levels up from src/ops/backup and from dist/ops/backup). */
export function appVersion(): string {
  try {
    return String(JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/** The last migration of a schema: how its version is named. */
export const schemaName = (applied: readonly string[]) => [...applied].sort().at(-1) ?? 'empty';

/**
 * Whether this version of the exchange can restore the manifest: of the engine it runs on, and of
 * a schema it knows (every migration the backup had applied is one of ours). Answers the
 * migrations a restore will run after it (the backup's schema is older).
 */
export function checkRestorable(manifest: Manifest, engine: Engine, file: string): string[] {
  if (manifest.engine !== engine) {
    const how =
      manifest.engine === 'postgres'
        ? 'set DATABASE_URL to the PostgreSQL database to restore it into'
        : 'unset DATABASE_URL and point DATA_DIR at the directory to restore it into';
    throw new BackupRefused(`${file} is a backup of ${engineName(manifest.engine)}, not of ${engineName(engine)}: ${how}`);
  }
  if (!manifest.migrations.length) throw new BackupRefused(`${file} holds no freight-exchange schema`);
  const known = new Set(Object.keys(migrations));
  const newer = manifest.migrations.filter((m) => !known.has(m));
  if (newer.length)
    throw new BackupRefused(
      `${file} was made by a newer freight-exchange (its schema has ${newer.join(', ')}, which this version does not know): ` +
        'restore it with that version or a later one',
    );
  return Object.keys(migrations)
    .filter((m) => !manifest.migrations.includes(m))
    .sort();
}

export const totalRows = (tables: readonly TableFingerprint[]) => tables.reduce((n, t) => n + t.rows, 0);

export function rowsByTable(tables: readonly TableFingerprint[]): Record<string, number> {
  return Object.fromEntries([...tables].sort((a, b) => b.rows - a.rows || a.name.localeCompare(b.name)).map((t) => [t.name, t.rows]));
}

/** "freights 1,000,000, bids 2,400,000, … (47 tables, 3,512,009 rows)" */
export function describeTables(tables: readonly TableFingerprint[]): string {
  const top = Object.entries(rowsByTable(tables))
    .filter(([, n]) => n > 0)
    .slice(0, 5)
    .map(([name, n]) => `${name} ${n.toLocaleString('en')}`);
  return `${tables.length} tables, ${totalRows(tables).toLocaleString('en')} rows${top.length ? `: ${top.join(', ')}${tables.length > 5 ? ', …' : ''}` : ''}`;
}
