import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { eventsByAwb, type StatusEvent } from '../events/index.ts';
import type { Caller } from '../kernel/context.ts';
import { ownEntry, readString, type Params } from '../kernel/params.ts';
import type { Clock } from '../kernel/time.ts';
import { checkRateSheet, storeRateSheet } from '../pricing/index.ts';
import { recordStatusEvents } from './status-events.ts';
import { decodeContent, utf8Text } from './content.ts';
import { parseFsu } from './fsu.ts';
import { nextTurn } from '../kernel/pace.ts';
import { FileRefused } from '../kernel/refused.ts';
import { parseStatusCsv } from './status-csv.ts';
import { abandonFile, finishFile, storeFile, type FileRow, type NewFile } from './store.ts';
import { parseXfsu } from './xfsu.ts';

/** The readers of status files: each gives the same status events for the same facts. */
const STATUS_READERS: Record<string, (text: string, clock: Clock) => Promise<StatusEvent[]>> = {
  status: parseStatusCsv,
  fsu: (text, clock) => parseFsu(text, clock.now()),
  xfsu: (text) => parseXfsu(text),
};

const MAX_NAME = 255;

/**
 * How much is stored per statement or transaction. The embedded database has one connection
 * and runs in this process: other requests get it only between transactions, so they stay a
 * few milliseconds short. PostgreSQL serves other requests on other connections meanwhile.
 */
const SIZES = {
  pglite: { events: 200, awbs: 50, rateLines: 250 },
  postgres: { events: 500, awbs: 125, rateLines: 1000 },
} as const;
type Sizes = (typeof SIZES)[keyof typeof SIZES];

/**
 * Receives one pushed file: decodes it, reads it whole (FileRefused 406 or FileTooLarge 413
 * before anything is stored), then stores it. A file with problems is never half-imported.
 * Every step runs in slices with turns of the event loop between them, and the database work in
 * short transactions (the embedded database has one connection): other requests go on.
 */
export async function pushFile(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  params: Params,
  engine: keyof typeof SIZES = 'pglite',
): Promise<FileRow> {
  const sizes = SIZES[engine];
  const { encoding, bytes } = await decodeContent(params.encoding, params.content);
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
    sha256: await sha256(bytes),
    records: 0,
    status: 'importing',
    message: null,
    sheet_id: null,
    created: now,
  };

  const readStatus = action ? ownEntry(STATUS_READERS, action) : undefined;
  if (readStatus) {
    const text = utf8Text(bytes);
    const events = await readStatus(text, clock);
    const row = await storeFile(db, file, bytes);
    return importing(db, row.id, async () => {
      const shipments = await storeStatusEvents(db, { companyId: caller.companyId, fileId: row.id }, events, clock.at(now), sizes);
      return finishFile(db, row.id, { records: events.length, message: `${events.length} status events, ${shipments} milk-run shipments` });
    });
  }

  if (action === 'rates') {
    const csvText = utf8Text(bytes);
    let checked: Awaited<ReturnType<typeof checkRateSheet>>;
    try {
      // The command line's importer: the file is checked before anything is stored.
      checked = await checkRateSheet(db, {
        companyId: caller.companyId,
        name: readString(params.sheet_name) ?? (name.replace(/\.[^.]*$/, '') || 'file push'),
        currency: readString(params.currency),
        visibility: readString(params.visibility),
        validFrom: readString(params.valid_from),
        validTo: readString(params.valid_to),
        csvText,
        now,
        batchLines: sizes.rateLines,
        quickStatistics: engine === 'pglite',
      });
    } catch (err) {
      if (err instanceof FileRefused) {
        // Named as the other pushed files' problems: by field, else by column.
        throw new FileRefused(
          err.problems.map((p) => ({
            line: p.line,
            field: p.field ?? (p.column !== null && p.column !== undefined ? `column ${p.column}` : null),
            message: p.message,
          })),
          err.total,
        );
      }
      throw err;
    }
    const row = await storeFile(db, file, bytes);
    return importing(db, row.id, async () => {
      let stored!: FileRow;
      // The sheet becomes searchable in the same transaction that marks this file processed.
      await storeRateSheet(db, checked, async (trx, result) => {
        stored = await finishFile(trx, row.id, {
          records: result.lines,
          sheet_id: result.sheetId,
          message: `rate sheet ${result.sheetId}, ${result.lines} lines`,
        });
      });
      return stored;
    });
  }

  const row = await storeFile(db, file, bytes);
  return finishFile(db, row.id, {
    status: 'ignored',
    records: 0,
    message: action ? `unknown action "${action}": stored, not processed` : 'no action: stored, not processed',
  });
}

/** Runs a stored file's import; when the database fails part-way, the file's events are removed and the file marked failed. */
async function importing(db: Kysely<DB>, fileId: number, run: () => Promise<FileRow>): Promise<FileRow> {
  try {
    return await run();
  } catch (err) {
    await abandonFile(db, fileId, `import failed: ${String((err as Error)?.message ?? err)}`).catch(() => {});
    throw err;
  }
}

/**
 * Status events in short transactions of at most `sizes.events` events and `sizes.awbs` AWBs (in
 * AWB order, so concurrent pushes lock milk-run shipments in one order; an AWB's events oldest
 * first, so an AWB spread over several transactions folds as in one), a turn of the event loop
 * between them. Answers the number of milk-run shipments touched.
 */
async function storeStatusEvents(
  db: Kysely<DB>,
  source: { companyId: number; fileId: number },
  events: readonly StatusEvent[],
  /** stopped at the push's instant: every batch is written at the same time */
  clock: Clock,
  sizes: Sizes,
): Promise<number> {
  const byAwb = eventsByAwb(events);
  const awbs = [...byAwb.keys()].sort();
  await nextTurn();
  const touched = new Set<string>();
  let chunk: StatusEvent[] = [];
  let chunkAwbs = 0;
  const flush = async () => {
    if (chunk.length === 0) return;
    const batch = chunk;
    chunk = [];
    chunkAwbs = 0;
    await db.transaction().execute((trx) => recordStatusEvents(trx, source, batch, clock));
    await nextTurn();
  };
  for (const awb of awbs) {
    const list = byAwb.get(awb)!.sort((a, b) => a.time.getTime() - b.time.getTime());
    touched.add(awb);
    if (chunkAwbs >= sizes.awbs) await flush();
    chunkAwbs++;
    for (const e of list) {
      if (chunk.length >= sizes.events) {
        await flush();
        chunkAwbs = 1;
      }
      chunk.push(e);
    }
  }
  await flush();
  return touched.size;
}

/** SHA-256 of the content, a megabyte per turn of the event loop. */
async function sha256(bytes: Buffer): Promise<string> {
  const hash = createHash('sha256');
  const SLICE = 1024 * 1024;
  for (let at = 0; at < bytes.length; at += SLICE) {
    hash.update(bytes.subarray(at, at + SLICE));
    if (at + SLICE < bytes.length) await nextTurn();
  }
  return hash.digest('hex');
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
