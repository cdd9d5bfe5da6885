import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import { readString, type Params } from '../kernel/params.ts';
import type { Clock } from '../kernel/time.ts';
import { applyStatusEvents } from '../milkrun/store.ts';
import { importRateSheet, RateImportError } from '../pricing/import.ts';
import { decodeContent, utf8Text } from './content.ts';
import { FileRefused } from './problems.ts';
import { parseStatusCsv } from './status-csv.ts';
import { insertAwbEvents, insertFile, type FileRow, type NewFile } from './store.ts';

/** Actions a pushed file can have (decisions.md §6); any other is stored with 0 records. */
export const ACTIONS = ['rates', 'status'] as const;

const MAX_NAME = 255;

/**
 * Receives one pushed file: decodes it, runs its action and stores it with the outcome.
 * Throws FileRefused (406) or FileTooLarge (413) before anything is stored; a file with
 * problems is never half-imported.
 */
export async function pushFile(db: Kysely<DB>, clock: Clock, caller: Caller, params: Params): Promise<FileRow> {
  const { encoding, bytes } = decodeContent(params.encoding, params.content);
  const name = (readString(params.name) ?? '').trim().slice(0, MAX_NAME);
  const action = (readString(params.action) ?? '').trim().toLowerCase().slice(0, 50) || null;
  const now = clock.now();
  const file: NewFile = {
    company_id: caller.companyId,
    user_id: caller.userId,
    name,
    action,
    encoding,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    content: bytes,
    records: 0,
    status: 'processed',
    message: null,
    sheet_id: null,
    created: now,
  };

  if (action === 'status') {
    const events = parseStatusCsv(utf8Text(bytes), clock);
    return db.transaction().execute(async (trx) => {
      const row = await insertFile(trx, { ...file, records: events.length });
      await insertAwbEvents(trx, caller.companyId, row.id, events, now);
      const shipments = await applyStatusEvents(trx, caller.companyId, events, now);
      return trx
        .updateTable('files')
        .set({ message: `${events.length} status events, ${shipments} milk-run shipments` })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  if (action === 'rates') {
    const csvText = utf8Text(bytes);
    let stored: FileRow | undefined;
    try {
      // The command line's importer: the file is checked before a transaction opens, then the
      // sheet, its lines and this file's record are stored together (nothing on a problem).
      await importRateSheet(db, {
        companyId: caller.companyId,
        name: readString(params.sheet_name) ?? (name.replace(/\.[^.]*$/, '') || 'file push'),
        currency: readString(params.currency),
        visibility: readString(params.visibility),
        validFrom: readString(params.valid_from),
        validTo: readString(params.valid_to),
        csvText,
        now,
        alsoStore: async (trx, result) => {
          stored = await insertFile(trx, { ...file, records: result.lines, sheet_id: result.sheetId, message: `rate sheet ${result.sheetId}, ${result.lines} lines` });
        },
      });
    } catch (err) {
      if (err instanceof RateImportError) {
        throw new FileRefused(err.problems.map((p) => ({ line: p.line, field: p.field ?? (p.column !== null ? `column ${p.column}` : null), message: p.message })), err.total);
      }
      throw err;
    }
    return stored!;
  }

  return insertFile(db, { ...file, status: 'ignored', message: action ? `unknown action "${action}": stored, not processed` : 'no action: stored, not processed' });
}

export function presentFile(row: FileRow, clock: Clock) {
  return {
    id: row.id,
    name: row.name,
    action: row.action,
    records: row.records,
    encoding: row.encoding,
    size: row.size,
    sha256: row.sha256,
    status: row.status,
    message: row.message,
    sheet_id: row.sheet_id,
    created: clock.format(row.created),
  };
}
