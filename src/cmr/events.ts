import type { Db } from '../db/schema.ts';
import { DOCUMENT, type DocumentRead } from '../deals/index.ts';
import type { FreightRow } from '../freights/index.ts';
import type { Clock } from '../kernel/time.ts';
import { announce } from '../webhooks/index.ts';
import type { CmrView } from './note.ts';

/**
 * `cmr.signed` (docs/reference.md#events, #ecmr), written to the outbox in the signature's transaction: to
 * the freight's other party (the owner when the carrier signs, the winner when the sender signs;
 * both when the consignee signs, which is no company's doing), with the signature, the note's
 * status and head, and the note's new PDF among the documents.
 */

export async function cmrSigned(
  db: Db,
  clock: Clock,
  freight: Pick<FreightRow, 'id' | 'company_id' | 'winner_id'>,
  cmr: CmrView,
  document: DocumentRead,
  signer: number | null,
): Promise<void> {
  const parties = [freight.company_id, ...(freight.winner_id === null ? [] : [freight.winner_id])];
  const recipients = [...new Set(parties)].filter((c) => c !== signer);
  const signature = cmr.signatures.at(-1)!;
  const data = {
    cmr: { number: cmr.number, freight: freight.id, status: cmr.status, hash: cmr.hash, signature },
    document: DOCUMENT.present(document, { clock }),
  };
  await announce(
    db,
    clock,
    'cmr.signed',
    recipients.map((companyId) => ({ companyId, freightId: freight.id, from: signer === null ? [] : [signer], data: () => data })),
  );
}
