import type { Kysely, Transaction } from 'kysely';
import { mayReach, companyRef, type CompanyRef } from '../accounts/index.ts';
import type { DB, Db } from '../db/schema.ts';
import {
  DELIVERY,
  lockFreight,
  setDeliveryStatus,
  visibleFreights,
  type AwardStep,
  type BidRow,
  type FreightRow,
  type Role,
} from '../freights/index.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import type { DocumentInput } from './content.ts';
import { sha256 } from './content.ts';
import { documentAdded, messageCreated } from './events.ts';
import { amendedOrder, orderDisplayId, readTransportOrder, type OrderTransport, type TransportOrder } from './order.ts';
import { transportOrderPdf } from './pdf.ts';
import { isDocumentParty, otherParties, ownConversation, sideOf } from './policy.ts';
import {
  documentById,
  documentContent,
  finishUpload,
  documentsOf,
  dropUpload,
  insertDocument,
  insertMessage,
  insertOrderVersion,
  markRead,
  messageById,
  messagesOf,
  orderOf,
  orderVersionsOf,
  unreadByFreight,
  type DocumentRead,
  type MessageRead,
} from './store.ts';
import { TEXT_MAX, TEXT_MIN } from './tables.ts';

/**
 * What happens in a freight's deal room (docs/reference.md#deal-room), each in one place: who sees the
 * freight is the freights module's policy, read in one statement (`visibleFreights`); a message
 * or a document and its event are written in one transaction, so nothing is half written.
 */

/** A freight as a company may see it, with its role on it. */
export interface Seen {
  row: FreightRow;
  role: Role;
}

/** The freight as the company may see it, with its role; undefined when it may not (a 404). */
export async function seenBy(db: Kysely<DB>, clock: Clock, companyId: number, freightId: number): Promise<Seen | undefined> {
  const [found] = await visibleFreights(db, clock.now(), companyId, [freightId]);
  return found ? { row: found.row, role: found.role } : undefined;
}

export type PostRefusal = 'messages.text_invalid' | 'messages.company_required' | 'messages.company_not_audience' | 'messages.blocked';
export type Posted = { kind: 'done'; message: MessageRead } | { kind: 'not_found' } | { kind: 'refused'; reason: PostRefusal };

/**
 * A message's text: 1 to 4,000 characters once trimmed, else undefined. Characters are code
 * points (4,000 emoji fit), not UTF-16 units; a text of more units than 4,000 code points can
 * have is refused before they are counted.
 */
export function readText(raw: unknown): string | undefined {
  const text = typeof raw === 'string' ? raw.trim() : undefined;
  if (text === undefined || text.length > 2 * TEXT_MAX) return undefined;
  const chars = codePoints(text);
  return chars >= TEXT_MIN && chars <= TEXT_MAX ? text : undefined;
}

/** The code points of a text (a surrogate pair is one). */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Writes a message: a company that may see the freight to its owner; the owner to `company`,
 * which must itself be allowed to see the freight (a conversation exists only between the owner
 * and a company that may see it), else the message is refused. A recipient that blocked the
 * sender's company takes no message from it (docs/reference.md#trust, accounts/blocks.ts mayReach, the
 * rule every push asks): refused, nothing written; the blocker still writes to the blocked.
 */
export async function postMessage(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  freightId: number,
  rawText: unknown,
  rawCompany: number | undefined,
): Promise<Posted> {
  const seen = await seenBy(db, clock, caller.companyId, freightId);
  if (!seen) return { kind: 'not_found' };
  const text = readText(rawText);
  if (text === undefined) return { kind: 'refused', reason: 'messages.text_invalid' };
  const owner = seen.row.company_id;
  let partner: number;
  if (sideOf(seen.role) === 'owner') {
    if (rawCompany === undefined || rawCompany === owner) return { kind: 'refused', reason: 'messages.company_required' };
    if (!(await seenBy(db, clock, rawCompany, freightId))) return { kind: 'refused', reason: 'messages.company_not_audience' };
    partner = rawCompany;
  } else partner = caller.companyId;
  const to = caller.companyId === owner ? partner : owner;
  if (to !== caller.companyId && !(await mayReach(db, caller.companyId, to))) return { kind: 'refused', reason: 'messages.blocked' };
  const id = await db.transaction().execute(async (trx) => {
    const written = await insertMessage(trx, {
      freightId,
      partner,
      from: caller.companyId,
      to,
      userId: caller.userId,
      text,
      created: clock.now(),
    });
    await messageCreated(trx, clock, written, caller.companyId, to, freightId);
    return written;
  });
  const message = await messageById(db, id);
  return message ? { kind: 'done', message } : { kind: 'not_found' };
}

/** A conversation: the company the owner talks to (with its verified mark) and the messages, oldest first. */
export interface Conversation {
  company: CompanyRef;
  messages: MessageRead[];
}

/** The conversations the caller's company may read (every one for the owner), marked read; undefined: a 404. */
export async function readConversations(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  freightId: number,
): Promise<Conversation[] | undefined> {
  const seen = await seenBy(db, clock, caller.companyId, freightId);
  return seen ? conversationsSeen(db, clock, caller.companyId, seen) : undefined;
}

/** The conversations of a freight the company was found to see (`seenBy`), marked read. */
export async function conversationsSeen(db: Kysely<DB>, clock: Clock, companyId: number, seen: Seen): Promise<Conversation[]> {
  const freightId = seen.row.id;
  const partner = ownConversation(sideOf(seen.role), companyId);
  const rows = await messagesOf(db, freightId, partner);
  await markRead(db, freightId, companyId, clock.now(), partner);
  const byPartner = new Map<number, Conversation>();
  for (const m of rows) {
    const from = m.partner_id === m.from_company_id;
    const company = companyRef(m.partner_id, from ? m.from_name : m.to_name, from ? m.from_verified : m.to_verified);
    const c = byPartner.get(m.partner_id) ?? { company, messages: [] };
    c.messages.push(m);
    byPartner.set(m.partner_id, c);
  }
  return [...byPartner.values()];
}

/**
 * The caller's company's unread messages, on the freights it may still see (a conversation on a
 * freight it lost sight of is not counted: it could not be read).
 */
export async function unreadOf(
  db: Kysely<DB>,
  clock: Clock,
  companyId: number,
): Promise<{ count: number; freights: Array<{ freight: number; count: number }> }> {
  const all = await unreadByFreight(db, companyId);
  const visible = new Set(
    (
      await visibleFreights(
        db,
        clock.now(),
        companyId,
        all.map((u) => u.freight),
      )
    ).map((f) => f.row.id),
  );
  const freights = all.filter((u) => visible.has(u.freight));
  return { count: freights.reduce((n, u) => n + u.count, 0), freights };
}

/** The freight when the company is one of its document parties (owner, winner), else undefined (a 404). */
export async function documentFreight(db: Kysely<DB>, clock: Clock, companyId: number, freightId: number): Promise<FreightRow | undefined> {
  const seen = await seenBy(db, clock, companyId, freightId);
  return seen && isDocumentParty(seen.row, companyId) ? seen.row : undefined;
}

/**
 * Attaches a party's document to the freight (found by `documentFreight` before the document was
 * read), its bytes stored as parts already (upload.ts): the row and the other party's event in
 * one transaction; should that fail, the parts go.
 */
export async function addDocument(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  freight: FreightRow,
  input: DocumentInput,
): Promise<DocumentRead | undefined> {
  const id = await orDropParts(db, input, () => db.transaction().execute((trx) => insertPartyDocument(trx, clock, caller, freight, input)));
  return documentById(db, id);
}

/** Runs `write` (which writes the document's row); when it throws, the upload's parts are removed. */
async function orDropParts<T>(db: Kysely<DB>, input: DocumentInput, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    await dropUpload(db, input.stored.id).catch(() => {});
    throw err;
  }
}

/**
 * A party's document's row written under the id its parts were stored with (upload.ts), and the
 * other party told, in the caller's transaction; answers its id.
 */
async function insertPartyDocument(
  trx: Transaction<DB>,
  clock: Clock,
  caller: Caller,
  freight: FreightRow,
  input: DocumentInput,
): Promise<number> {
  const written = await insertDocument(trx, {
    id: input.stored.id,
    freight_id: freight.id,
    company_id: caller.companyId,
    user_id: caller.userId,
    kind: input.kind,
    name: input.name,
    media_type: input.stored.mediaType,
    size: input.stored.size,
    sha256: input.stored.sha256,
    content: null,
    created: clock.now(),
  });
  await finishUpload(trx, written);
  await documentAdded(trx, clock, written, caller.companyId, otherParties(freight, caller.companyId), freight.id);
  return written;
}

/** The documents of a freight for one of its parties; undefined for anyone else (a 404). */
export async function listDocuments(
  db: Kysely<DB>,
  clock: Clock,
  companyId: number,
  freightId: number,
): Promise<DocumentRead[] | undefined> {
  return (await documentFreight(db, clock, companyId, freightId)) ? documentsOf(db, freightId) : undefined;
}

/** The documents of a freight the company was found to see; undefined when it is not one of its parties. */
export async function documentsSeen(db: Kysely<DB>, companyId: number, seen: Seen): Promise<DocumentRead[] | undefined> {
  return isDocumentParty(seen.row, companyId) ? documentsOf(db, seen.row.id) : undefined;
}

/** A document and its bytes (part by part, store.ts documentContent) for one of its freight's parties; undefined for anyone else (a 404). */
export async function downloadDocument(
  db: Kysely<DB>,
  clock: Clock,
  companyId: number,
  id: number,
): Promise<{ document: DocumentRead; bytes: AsyncGenerator<Buffer> } | undefined> {
  const document = await documentById(db, id);
  if (!document || !(await documentFreight(db, clock, companyId, document.freight_id))) return undefined;
  return { document, bytes: documentContent(db, id) };
}

/**
 * The transport order the exchange adds on award (docs/reference.md#deal-room), in the award's transaction:
 * its content (order.ts: both companies with address and VAT id, who confirmed on each side,
 * the route with its windows, the goods, the price, the references), stored as JSON text, and
 * the PDF rendered from it, which embeds the same JSON. Both parties hear of it. A freight its
 * owner carries itself has no other party: no order.
 */
async function addTransportOrder(trx: Db, clock: Clock, freight: FreightRow, bid: BidRow): Promise<TransportOrder | undefined> {
  if (freight.winner_id === null || freight.winner_id === freight.company_id) return undefined;
  // Under the award's lock of the freight: written already, nothing more (the key (freight, version) the last line).
  const written = await orderOf(trx, freight.id);
  if (written) return JSON.parse(written.content) as TransportOrder;
  const order = await readTransportOrder(trx, clock, freight, bid);
  const { json } = await writeOrderVersion(trx, clock, freight, order, null);
  // As stored (its JSON text), which is what a reader of the order gets.
  return JSON.parse(json) as TransportOrder;
}

/** The PDF's file name: `transport-order-<display id>.pdf`, `-v2` and on for later versions. */
const orderPdfName = (o: TransportOrder) =>
  `transport-order-${orderDisplayId(o).replace(/[^\p{L}\p{N}._-]+/gu, '-')}${(o.version ?? 1) > 1 ? `-v${o.version}` : ''}.pdf`;

/**
 * A version of the order written: its JSON text, the PDF rendered from it (embedding the same
 * JSON) as a document of kind `order`, and `document.added` to the parties but `by` (the
 * carrier's re-issue is told to the owner; the award's order to both). Answers the document's id
 * and the JSON text stored.
 */
async function writeOrderVersion(trx: Db, clock: Clock, freight: FreightRow, order: TransportOrder, by: number | null) {
  const json = JSON.stringify(order);
  const pdf = await transportOrderPdf(order, json, clock.now());
  const document = await insertOrderVersion(
    trx,
    {
      freight_id: freight.id,
      company_id: null,
      user_id: null,
      kind: 'order',
      name: orderPdfName(order),
      media_type: 'application/pdf',
      size: pdf.length,
      sha256: sha256(pdf),
      content: pdf,
      created: clock.now(),
    },
    { freight_id: freight.id, version: order.version ?? 1, content: json, created: clock.now() },
  );
  await documentAdded(trx, clock, document, by, otherParties(freight, by), freight.id);
  return { id: document.id, json };
}

/**
 * What a module above does with the transport order, in the transaction that issues it: on award
 * (the e-CMR is filled from it) or again with the carrier's plate and driver (the e-CMR follows
 * it while unsigned). app.ts passes them.
 */
export type OrderFollower = (trx: Transaction<DB>, clock: Clock, freight: FreightRow, order: TransportOrder) => Promise<void>;

export type TransportRefusal = 'order.carrier_only' | 'order.not_taken' | 'order.unchanged';
export type TransportGiven =
  | { kind: 'done'; order: TransportOrder; document: DocumentRead }
  | { kind: 'not_found' }
  | { kind: 'refused'; reason: TransportRefusal };

const sameTransport = (a: OrderTransport | null | undefined, b: OrderTransport) =>
  !!a &&
  a.used_transport_means.id === b.used_transport_means.id &&
  a.driver.name === b.driver.name &&
  a.driver.telephone === b.driver.telephone;

/**
 * The carrier's plate and driver (docs/choices.md, "The transport order in versions"): the winner
 * of a taken freight re-issues its order as a new version with them, in one transaction under
 * the freight's lock: the version's JSON and PDF (the earlier versions kept), `document.added`
 * to the owner, and what `amended` does beside it (the e-CMR). The owner is refused
 * (`order.carrier_only`), a freight not taken (`order.not_taken`), the same truck and driver
 * again (`order.unchanged`); anyone else, and a freight without an order: 404.
 */
export async function giveTransport(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  freightId: number,
  transport: OrderTransport,
  amended: readonly OrderFollower[],
): Promise<TransportGiven> {
  if (!(await documentFreight(db, clock, caller.companyId, freightId))) return { kind: 'not_found' };
  return db.transaction().execute(async (trx): Promise<TransportGiven> => {
    const freight = await lockFreight(trx, freightId, clock);
    if (!freight) return { kind: 'not_found' };
    const current = await orderOf(trx, freight.id);
    if (!current) return { kind: 'not_found' };
    if (freight.winner_id !== caller.companyId) return { kind: 'refused', reason: 'order.carrier_only' };
    if (freight.status !== 'taken') return { kind: 'refused', reason: 'order.not_taken' };
    const previous = JSON.parse(current.content) as TransportOrder;
    if (sameTransport(previous.transport, transport)) return { kind: 'refused', reason: 'order.unchanged' };
    const order = amendedOrder({ ...previous, version: current.version }, transport, clock.format(clock.now()) ?? '');
    const { id } = await writeOrderVersion(trx, clock, freight, order, caller.companyId);
    for (const step of amended) await step(trx, clock, freight, order);
    return { kind: 'done', order, document: (await documentById(trx, id))! };
  });
}

/**
 * The award's step of the deal room (app.ts registers it): a bid won, its transport order issued,
 * and then `issued` follow it in turn, each handed the order as stored (the e-CMR is filled from
 * it without reading it again); an own order has none. A freight whose order was written already
 * hands that one on.
 */
export function issueTransportOrder(issued: readonly OrderFollower[] = []): AwardStep {
  return async (trx, clock, won) => {
    if (!won.bid) return;
    const order = await addTransportOrder(trx, clock, won.freight, won.bid);
    if (order) for (const follow of issued) await follow(trx, clock, won.freight, order);
  };
}

/**
 * A PDF the exchange itself adds to a freight's documents on a party's act (the e-CMR's note after
 * each signature, kind `cmr`), in the caller's transaction: `by` is the company whose act it was
 * (null: the exchange's own), its user `userId`. No `document.added`: the act's own event names the
 * document (`cmr.signed`), one event per change.
 */
export async function addIssuedDocument(
  trx: Db,
  clock: Clock,
  freight: Pick<FreightRow, 'id'>,
  doc: { kind: 'cmr'; name: string; pdf: Buffer; by: number | null; userId: number | null },
): Promise<DocumentRead> {
  const id = await insertDocument(trx, {
    freight_id: freight.id,
    company_id: doc.by,
    user_id: doc.userId,
    kind: doc.kind,
    name: doc.name,
    media_type: 'application/pdf',
    size: doc.pdf.length,
    sha256: sha256(doc.pdf),
    content: doc.pdf,
    created: clock.now(),
  });
  return (await documentById(trx, id))!;
}

/**
 * A freight's transport order for one of its parties: the latest version's content as issued and
 * its PDF, and every version's PDF (newest first); undefined for anyone else, or none yet (a 404).
 */
export async function readOrder(
  db: Kysely<DB>,
  clock: Clock,
  companyId: number,
  freightId: number,
): Promise<
  | { order: TransportOrder; version: number; document: DocumentRead; versions: Array<{ version: number; document: DocumentRead }> }
  | undefined
> {
  if (!(await documentFreight(db, clock, companyId, freightId))) return undefined;
  const found = await orderOf(db, freightId);
  if (!found) return undefined;
  return {
    order: JSON.parse(found.content) as TransportOrder,
    version: found.version,
    document: found.document,
    versions: await orderVersionsOf(db, freightId),
  };
}

export type Delivered = { kind: 'done'; document: DocumentRead } | { kind: 'not_found' } | { kind: 'refused'; reason: 'pod.not_taken' };

/**
 * The proof of delivery and the delivery in one transaction (docs/choices.md, "Proof of
 * delivery"): a party of the freight (found by `documentFreight`) adds its `pod` document and
 * marks the freight delivered, the freights module's transition `taken` -> `closed` (delivery
 * status 3), or neither happens. The other party hears of the document and of the delivery.
 */
export async function deliverWithPod(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  freight: FreightRow,
  input: DocumentInput,
): Promise<Delivered> {
  let written: number | undefined;
  const moved = await orDropParts(db, input, () =>
    setDeliveryStatus(db, clock, caller, freight.id, DELIVERY.delivered, async (trx, row) => {
      written = await insertPartyDocument(trx, clock, caller, row, { ...input, kind: 'pod' });
    }),
  );
  // Not taken (refused) or gone: no row was written, so the parts go.
  if (written === undefined) await dropUpload(db, input.stored.id);
  if (moved.kind === 'not_found') return { kind: 'not_found' };
  if (moved.kind === 'refused' || written === undefined) return { kind: 'refused', reason: 'pod.not_taken' };
  const document = await documentById(db, written);
  return document ? { kind: 'done', document } : { kind: 'not_found' };
}
