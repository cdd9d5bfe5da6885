import fs from 'node:fs';
import path from 'node:path';
import { CliError, type Command, print, required } from '../../cli/command.ts';
import { BackupRefused } from './archive.ts';
import { engineName, describeTables } from './common.ts';
import { backupEmbedded, restoreEmbedded } from './embedded.ts';
import { backupPostgres, restorePostgres } from './postgres.ts';
import { progressOn, size } from './progress.ts';

/** `backup` and `restore` (README, "Operating it"): the database DATABASE_URL or DATA_DIR names. */
export const backupCommands: Command[] = [
  {
    words: ['backup'],
    usage: 'backup --to FILE [--json]',
    help:
      'Writes a backup of the whole database (every table, every document) to FILE while the server runs: the embedded ' +
      "database's files, copied by the running server (or by this command when none runs); PostgreSQL by pg_dump.",
    options: { to: { type: 'string' }, json: { type: 'boolean' } },
    async run(values, config, io) {
      const to = path.resolve(required(values, 'to'));
      if (fs.existsSync(to)) throw new CliError(`--to: ${to} exists; name a new file (a backup never overwrites one)`);
      if (!fs.existsSync(path.dirname(to))) throw new CliError(`--to: the directory ${path.dirname(to)} does not exist`);
      const progress = progressOn(io.interactive);
      const result = await refusals(() =>
        config.databaseUrl ? backupPostgres(config, to, progress) : backupEmbedded(config, to, progress),
      );
      const paused = result.engine === 'pglite' ? `; writes paused ${(result.paused_ms / 1000).toFixed(1)} s for the copy` : '';
      print(
        io,
        !!values.json,
        result,
        `backed up ${engineName(result.engine)} (schema ${result.schema}, ${result.tables} tables, ${result.rows.toLocaleString('en')} rows) ` +
          `to ${to} (${size(result.bytes)}) in ${result.seconds.toFixed(1)} s${paused}`,
      );
    },
  },
  {
    words: ['restore'],
    usage: 'restore --from FILE [--replace] [--json]',
    help:
      'Restores a backup into an empty DATA_DIR or DATABASE_URL database (with --replace over an existing one, which is kept aside), ' +
      'checks every table against the backup, then runs the migrations of an older schema. The server must be stopped.',
    options: { from: { type: 'string' }, replace: { type: 'boolean' }, json: { type: 'boolean' } },
    async run(values, config, io) {
      const from = path.resolve(required(values, 'from'));
      const progress = progressOn(io.interactive);
      const replace = !!values.replace;
      const result = await refusals(() =>
        config.databaseUrl ? restorePostgres(config, from, replace, progress) : restoreEmbedded(config, from, replace, progress),
      );
      const target = config.databaseUrl ? 'the database of DATABASE_URL' : config.dataDir;
      const tables = Object.entries(result.table_rows).map(([name, rows]) => ({ name, rows, checksum: '' }));
      print(
        io,
        !!values.json,
        result,
        `restored the backup of ${result.created.slice(0, 16).replace('T', ' ')} UTC (${engineName(result.engine)}, schema ${result.schema}; ${describeTables(tables)}) ` +
          `into ${target} in ${result.seconds.toFixed(1)} s` +
          (result.migrated.length ? `; migrated to ${result.migrated.at(-1)} (${result.migrated.length} migrations)` : '') +
          (result.replaced ? `; the database it replaced is kept as ${result.replaced}` : ''),
      );
    },
  },
];

/** A refusal reaches the user as its message (one line, exit 1); anything else as a failure. */
async function refusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof BackupRefused) throw new CliError(err.message);
    throw err;
  }
}
