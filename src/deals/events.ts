import type { Db } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';
import { announce } from '../webhooks/index.ts';
import { DOCUMENT, MESSAGE } from './schema.ts';
import { documentById, messageById, type DocumentRead } from './store.ts';

/**
 * The deal room's events (docs/reference.md#events, #deal-room), written to the outbox in the transaction of
 * what they announce: `message.created` to the receiving company, `document.added` to the
 * freight's other party. Both name only what the recipient reads through the API anyway.
 */

export async function messageCreated(
  db: Db,
  clock: Clock,
  messageId: number,
  sender: number,
  recipient: number,
  freightId: number,
): Promise<void> {
  await announce(db, clock, 'message.created', [
    {
      companyId: recipient,
      freightId,
      from: [sender],
      data: async () => {
        const row = await messageById(db, messageId);
        return { message: row ? MESSAGE.present(row, { clock }) : null };
      },
    },
  ]);
}

/** `uploader`: the party that added it; null for the exchange's own transport order (nobody's doing but the exchange's). */
export async function documentAdded(
  db: Db,
  clock: Clock,
  documentId: number | DocumentRead,
  uploader: number | null,
  recipients: readonly number[],
  freightId: number,
): Promise<void> {
  // The document as just written (its row given), else read.
  const row = typeof documentId === 'number' ? await documentById(db, documentId) : documentId;
  const document = row ? DOCUMENT.present(row, { clock }) : null;
  const from = uploader === null ? [] : [uploader];
  await announce(
    db,
    clock,
    'document.added',
    recipients.map((companyId) => ({ companyId, freightId, from, data: () => ({ document }) })),
  );
}
