import type { Kysely, Transaction } from 'kysely';
import type { DB, Db } from '../db/schema.ts';
import { addIssuedDocument, type DocumentRead, type OrderFollower } from '../deals/index.ts';
import { DELIVERY, lockFreight, setDeliveryStatus, visibleFreights, type FreightRow } from '../freights/index.ts';
import type { Clock } from '../kernel/time.ts';
import { issueLink, openLink, revokeLinks, type OpenedLink } from '../links/index.ts';
import { canonicalJson, nextLink, recomputeChain, sha256Hex, type SignatureEntry } from './chain.ts';
import { cmrSigned } from './events.ts';
import { noteFromOrder, noteNumber, type CmrNote, type CmrView } from './note.ts';

export type { CmrView, SignatureView } from './note.ts';
import { cmrPdf } from './pdf.ts';
import {
  drawNoteId,
  insertNote,
  insertSignature,
  chainOf,
  lockNote,
  noteOfFreight,
  rewriteNote,
  signaturesOf,
  type NoteRow,
  type SignatureRow,
} from './store.ts';
import { NAME_MAX, NAME_MIN, RESERVATIONS_MAX, type CmrRole, type CmrStatus } from './tables.ts';

/**
 * The electronic consignment note (docs/reference.md#ecmr), each rule in one place: issued in the
 * award's transaction from the transport order; signed by the sender (the freight's owner) and
 * the carrier (the winner) at loading in either order, then by the consignee at delivery through
 * a link, which records the freight's delivery in the same transaction; every signature appends
 * one entry to the hash chain (chain.ts), adds the note's PDF to the freight's documents (`cmr`)
 * and tells the other party (`cmr.signed`). Nothing of a note changes once written.
 */

export const statusOf = (roles: readonly CmrRole[]): CmrStatus =>
  roles.includes('consignee') ? 'delivered' : roles.includes('sender') && roles.includes('carrier') ? 'loaded' : 'issued';

/** The view of a note and its signatures, from the texts as stored. */
export function present(note: NoteRow, signatures: readonly SignatureRow[]): CmrView {
  const shown = signatures.map((s) => ({ ...(JSON.parse(s.entry) as SignatureEntry), hash: s.hash }));
  return {
    ...(JSON.parse(note.content) as CmrNote),
    status: statusOf(signatures.map((s) => s.role)),
    signatures: shown,
    hash: signatures.at(-1)?.hash ?? note.hash,
  };
}

/** Whether a freight gets a note: a road freight (any class but air) awarded to another company. */
const isRoadAward = (f: Pick<FreightRow, 'class' | 'winner_id' | 'company_id'>) =>
  f.class !== 'air' && f.winner_id !== null && f.winner_id !== f.company_id;

/**
 * The e-CMR's part in an award (app.ts has the transport order's step run it after the order):
 * the freight's note issued in the award's transaction, filled from the order as issued, which
 * deals hands it (a freight without an order, its owner carrying it, never gets here); a freight by
 * air gets none, and a second call writes nothing (the unique index on the freight).
 */
export const issueCmr: OrderFollower = async (trx, clock, freight, order) => {
  if (!isRoadAward(freight)) return;
  const id = await drawNoteId(trx);
  const note = noteFromOrder(order, noteNumber(id, order.issued));
  const content = canonicalJson(note as never);
  await insertNote(trx, { id, freight_id: freight.id, number: note.number, content, hash: sha256Hex(content), created: clock.now() });
};

/**
 * The note follows its transport order's new version (the carrier's plate and driver; deals
 * passes it the version in the re-issue's transaction, app.ts wires it) while nobody has signed
 * it: refilled from the version under its own number, its first link rewritten. From the first
 * signature on the note is frozen (docs/choices.md, "The transport order in versions"; the
 * migration 0406 trigger refuses a change then): the signed note keeps what it said, the order's
 * new version stands beside it.
 */
export const followOrder: OrderFollower = async (trx, _clock, freight, order) => {
  if (!isRoadAward(freight)) return;
  const note = await lockNote(trx, freight.id);
  if (!note || (await signaturesOf(trx, note.id)).length) return;
  const content = canonicalJson(noteFromOrder(order, note.number) as never);
  if (content !== note.content) await rewriteNote(trx, note.id, content, sha256Hex(content));
};

/** The freight when the company is one of its parties (owner, winner), else undefined (a 404). */
async function partyFreight(db: Kysely<DB>, clock: Clock, companyId: number, freightId: number): Promise<FreightRow | undefined> {
  const [found] = await visibleFreights(db, clock.now(), companyId, [freightId]);
  const row = found?.row;
  return row && (row.company_id === companyId || row.winner_id === companyId) ? row : undefined;
}

/** GET /freights/cmr/{id}: the note for the freight's owner and winner; undefined for anyone else or none (a 404). */
export async function readCmr(db: Kysely<DB>, clock: Clock, companyId: number, freightId: number): Promise<CmrView | undefined> {
  if (!(await partyFreight(db, clock, companyId, freightId))) return undefined;
  const note = await noteOfFreight(db, freightId);
  return note && present(note, await signaturesOf(db, note.id));
}

/** A signature as read from a request, bounded before anything else is done with it. */
export interface SignatureInput {
  role: CmrRole;
  name: string;
  reservations: string | null;
}

export type InputProblem = 'cmr.role_invalid' | 'cmr.name_invalid' | 'cmr.reservations_invalid';

const codePoints = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** Reads `role`, `name` (1-100 characters trimmed) and `reservations` (at most 2,000; empty: none). */
export function readSignature(
  params: Record<string, unknown>,
  roles: readonly CmrRole[],
): { ok: true; input: SignatureInput } | { ok: false; problem: InputProblem; field: string } {
  const role = params.role;
  if (typeof role !== 'string' || !(roles as readonly string[]).includes(role))
    return { ok: false, problem: 'cmr.role_invalid', field: 'role' };
  const rawName = params.name;
  const name = typeof rawName === 'string' && rawName.length <= 4 * NAME_MAX ? rawName.trim() : undefined;
  if (name === undefined || codePoints(name) < NAME_MIN || codePoints(name) > NAME_MAX)
    return { ok: false, problem: 'cmr.name_invalid', field: 'name' };
  const raw = params.reservations;
  if (raw !== undefined && raw !== null && typeof raw !== 'string')
    return { ok: false, problem: 'cmr.reservations_invalid', field: 'reservations' };
  const text =
    typeof raw === 'string' && raw.length <= 4 * RESERVATIONS_MAX ? raw.trim() : raw === undefined || raw === null ? '' : undefined;
  if (text === undefined || codePoints(text) > RESERVATIONS_MAX)
    return { ok: false, problem: 'cmr.reservations_invalid', field: 'reservations' };
  return { ok: true, input: { role: role as CmrRole, name, reservations: text === '' ? null : text } };
}

export type SignRefusal = 'cmr.already_signed' | 'cmr.wrong_party' | 'cmr.not_loaded' | 'cmr.not_taken' | 'cmr.consignee_by_link';
export type Signed =
  | { kind: 'done'; cmr: CmrView; document: DocumentRead }
  | { kind: 'not_found' }
  | { kind: 'refused'; reason: SignRefusal };

/** Thrown inside a transaction to roll it back with the refusal. */
class Refused extends Error {
  constructor(readonly reason: SignRefusal) {
    super(reason);
  }
}

/** Who signs: a party's company and user, or the consignee through a link the winner's user issued. */
export interface Signer {
  companyId: number | null;
  userId: number | null;
}

/**
 * Appends a signature to the locked note: the rules of order, the entry and its link, the note's
 * PDF among the freight's documents and the event. The freight is locked by the caller.
 */
async function append(
  trx: Transaction<DB>,
  clock: Clock,
  freight: FreightRow,
  input: SignatureInput,
  signer: Signer,
  publicUrl: string,
): Promise<{ cmr: CmrView; document: DocumentRead }> {
  const note = await lockNote(trx, freight.id);
  if (!note) throw new Refused('cmr.not_taken');
  const signatures = await signaturesOf(trx, note.id);
  const roles = signatures.map((s) => s.role);
  if (roles.includes(input.role)) throw new Refused('cmr.already_signed');
  // At loading the freight is taken; the consignee's signature is the move from taken to delivered (its row as moved).
  if (input.role !== 'consignee' && freight.status !== 'taken') throw new Refused('cmr.not_taken');
  if (input.role === 'consignee' && statusOf(roles) !== 'loaded') throw new Refused('cmr.not_loaded');
  const entry: SignatureEntry = {
    role: input.role,
    name: input.name,
    at: clock.format(clock.now()) ?? '',
    reservations: input.reservations,
  };
  const text = canonicalJson(entry as never);
  const hash = nextLink(signatures.at(-1)?.hash ?? note.hash, text);
  const row = {
    note_id: note.id,
    seq: signatures.length + 1,
    role: input.role,
    entry: text,
    hash,
    company_id: signer.companyId,
    user_id: signer.userId,
    created: clock.now(),
  };
  await insertSignature(trx, row);
  const cmr = present(note, [...signatures, row]);
  const pdf = await cmrPdf(cmr, verifyUrl(publicUrl, cmr.number, cmr.hash), clock.now());
  const document = await addIssuedDocument(trx, clock, freight, {
    kind: 'cmr',
    name: `${cmr.number}-${cmr.signatures.length}-${input.role}.pdf`,
    pdf,
    by: signer.companyId,
    userId: signer.userId,
  });
  await cmrSigned(trx, clock, freight, cmr, document, signer.companyId);
  return { cmr, document };
}

/** The inspector's address of a note at a hash (printed on the PDF and as its QR code). */
export const verifyUrl = (publicUrl: string, number: string, hash: string) =>
  `${publicUrl.replace(/\/+$/, '')}/cmr/verify/${encodeURIComponent(number)}?hash=${hash}`;

async function refusing<T>(work: () => Promise<T>): Promise<T | { kind: 'refused'; reason: SignRefusal }> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof Refused) return { kind: 'refused', reason: err.reason };
    // Two signatures of one note at once: the loser's unique index (or the lock's wait) decides.
    if ((err as { code?: unknown }).code === '23505') return { kind: 'refused', reason: 'cmr.already_signed' };
    throw err;
  }
}

/**
 * POST /freights/cmr-sign/{id}: `sender` by the freight's owner, `carrier` by its winner, in either
 * order, while the freight is taken; the consignee signs through its link only (signAsConsignee).
 */
export async function signCmr(
  db: Kysely<DB>,
  clock: Clock,
  signer: { companyId: number; userId: number },
  freightId: number,
  input: SignatureInput,
  publicUrl: string,
): Promise<Signed> {
  const seen = await partyFreight(db, clock, signer.companyId, freightId);
  if (!seen || !(await noteOfFreight(db, freightId))) return { kind: 'not_found' };
  return refusing(() =>
    db.transaction().execute(async (trx) => {
      const freight = await lockFreight(trx, freightId, clock);
      if (!freight) return { kind: 'not_found' } as const;
      if (input.role === 'consignee') throw new Refused('cmr.consignee_by_link');
      const party = input.role === 'sender' ? freight.company_id : freight.winner_id;
      if (party !== signer.companyId) throw new Refused('cmr.wrong_party');
      return { kind: 'done', ...(await append(trx, clock, freight, input, signer, publicUrl)) } as const;
    }),
  );
}

/**
 * The consignee's signature through its link (the link's freight and the winner's user who issued
 * it): appended in the delivery's own transaction (the freights module's `taken` -> `closed`,
 * delivery status 3), so the signature and the delivery commit together or neither.
 */
export async function signAsConsignee(
  db: Kysely<DB>,
  clock: Clock,
  freightId: number,
  issuer: { companyId: number; userId: number | null },
  input: Omit<SignatureInput, 'role'>,
  publicUrl: string,
): Promise<Signed> {
  let done: { cmr: CmrView; document: DocumentRead } | undefined;
  const result = await refusing(() =>
    setDeliveryStatus(db, clock, issuer, freightId, DELIVERY.delivered, async (trx, row) => {
      done = await append(trx, clock, row, { ...input, role: 'consignee' }, { companyId: null, userId: issuer.userId }, publicUrl);
      // Delivered: every link of the freight ends with it (src/links).
      await revokeLinks(trx, freightId, clock.now());
    }),
  );
  if (result.kind === 'not_found') return { kind: 'not_found' };
  if (result.kind === 'refused') {
    if (typeof result.reason === 'string' && result.reason.startsWith('cmr.'))
      return { kind: 'refused', reason: result.reason as SignRefusal };
    // Not taken any more: delivered before (by the proof of delivery), or signed already.
    return { kind: 'refused', reason: (await consigneeRefusal(db, freightId)) ?? 'cmr.not_taken' };
  }
  if (!done) return { kind: 'refused', reason: 'cmr.not_taken' };
  return { kind: 'done', ...done };
}

/** Why a consignee's signature could not be taken on a freight that is not taken: signed already, or not loaded. */
async function consigneeRefusal(db: Kysely<DB>, freightId: number): Promise<SignRefusal | undefined> {
  const note = await noteOfFreight(db, freightId);
  if (!note) return undefined;
  const roles = (await signaturesOf(db, note.id)).map((s) => s.role);
  if (roles.includes('consignee')) return 'cmr.already_signed';
  return statusOf(roles) === 'loaded' ? undefined : 'cmr.not_loaded';
}

/** The note of a freight, for the consignee's page (the link decides who may read it). */
export async function noteForLink(db: Kysely<DB>, freightId: number): Promise<CmrView | undefined> {
  const note = await noteOfFreight(db, freightId);
  return note && present(note, await signaturesOf(db, note.id));
}

const HASH = /^[0-9a-f]{64}$/;

/**
 * GET /cmr/verify/{number}?hash=…: whether the hash is a link of the note's chain as recomputed
 * from what is stored (a stored row changed since it was written breaks the chain: then no hash
 * is valid), and the note's status; undefined for an unknown number (a 404).
 */
export async function verifyCmr(db: Db, number: string, hash: unknown): Promise<{ valid: boolean; status: CmrStatus } | undefined> {
  const found = await chainOf(db, number);
  if (!found) return undefined;
  const status = statusOf(found.signatures.map((s) => s.role));
  const wanted = typeof hash === 'string' ? hash.trim().toLowerCase() : '';
  if (!HASH.test(wanted)) return { valid: false, status };
  const links = recomputeChain(found.note, found.signatures);
  return { valid: links?.includes(wanted) === true, status };
}

/** Which signing sides the company holds on the freight (for the page's forms). */
export async function sidesOf(
  db: Kysely<DB>,
  clock: Clock,
  companyId: number,
  freightId: number,
): Promise<{ owner: boolean; winner: boolean }> {
  const row = await partyFreight(db, clock, companyId, freightId);
  return { owner: row?.company_id === companyId, winner: row?.winner_id === companyId };
}

export type LinkRefusal = 'cmr.link_by_carrier' | 'cmr.not_taken';
export type LinkIssued = { kind: 'done'; token: string; expires: Date } | { kind: 'not_found' } | { kind: 'refused'; reason: LinkRefusal };

/**
 * POST /freights/cmr-link/{id}: the consignee's signing link, issued by the winner (the carrier,
 * whose driver hands it over at delivery) while the freight is taken and has a note; earlier
 * links keep opening until the delivery ends them all (src/links).
 */
export async function issueConsigneeLink(
  db: Kysely<DB>,
  clock: Clock,
  caller: { companyId: number; userId: number },
  freightId: number,
): Promise<LinkIssued> {
  const freight = await partyFreight(db, clock, caller.companyId, freightId);
  if (!freight || !(await noteOfFreight(db, freightId))) return { kind: 'not_found' };
  if (freight.winner_id !== caller.companyId) return { kind: 'refused', reason: 'cmr.link_by_carrier' };
  if (freight.status !== 'taken') return { kind: 'refused', reason: 'cmr.not_taken' };
  const link = await issueLink(db, { freightId, purpose: 'cmr', companyId: caller.companyId, userId: caller.userId, now: clock.now() });
  return { kind: 'done', token: link.token, expires: link.expires };
}

/** What a consignee's link opens: the note of its freight (undefined: no such link, or it ended: a 404). */
export async function openConsigneeLink(
  db: Kysely<DB>,
  clock: Clock,
  token: string,
): Promise<{ link: OpenedLink; cmr: CmrView } | undefined> {
  const link = await openLink(db, 'cmr', token, clock.now());
  if (!link) return undefined;
  const note = await noteOfFreight(db, link.freightId);
  return note && { link, cmr: present(note, await signaturesOf(db, note.id)) };
}

/**
 * POST /cmr/consignee/{token}: the consignee's signature through its link (signAsConsignee), on
 * behalf of the company that issued it; the delivery it records ends the freight's links.
 */
export async function signThroughLink(
  db: Kysely<DB>,
  clock: Clock,
  token: string,
  input: Omit<SignatureInput, 'role'>,
  publicUrl: string,
): Promise<Signed> {
  const link = await openLink(db, 'cmr', token, clock.now());
  if (!link) return { kind: 'not_found' };
  return signAsConsignee(db, clock, link.freightId, { companyId: link.companyId, userId: null }, input, publicUrl);
}
