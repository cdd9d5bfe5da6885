import { sql, type Kysely } from 'kysely';
import { usersOfCompanies, type Addressee as User } from '../accounts/index.ts';
import type { DB } from '../db/schema.ts';
import { isEventType } from '../events/index.ts';
import { fromFreights } from '../freights/index.ts';
import { isRecord } from '../kernel/params.ts';
import { matchKey, mergedMatchKeys, searchUsers } from '../searches/index.ts';
import { offerUsers } from '../vehicles/index.ts';
import { eventsAt } from '../webhooks/index.ts';
import { MAIL_OF_EVENT, type Addressee, type EventData } from './kinds.ts';
import { chosenModes, modeOf } from './settings.ts';
import type { MailKind } from './tables.ts';

/**
 * From events to mails (docs/reference.md#mail): the trigger on the outbox wrote a `mail_events` row
 * in each mailed event's transaction; here, in a transaction of its own, a batch of them is
 * claimed (`for update skip locked`: any process, never two on one row), each told to the users
 * of its recipient company by their settings (kinds.ts narrows who), written as mails to send now
 * (`mail_messages`) or items of the next digest (`mail_digest_items`), and deleted. A row that
 * cannot be fanned out (a bug) is marked with its error and left for the operator, not retried.
 */

/** Events fanned out per transaction. */
export const FAN_OUT_BATCH = 500;

interface Claimed {
  event_seq: number;
  kind: MailKind;
  company_id: number;
  created: Date;
}

/** Fans out up to `limit` events; answers how many rows it took (0: none waiting). */
export async function fanOut(db: Kysely<DB>, now: Date, limit = FAN_OUT_BATCH): Promise<number> {
  try {
    return await db.transaction().execute((trx) => fanOutRows(trx, now, { limit }));
  } catch {
    // One bad row must not hold the others: each alone, and one that fails alone is marked.
    const waiting = await db
      .selectFrom('mail_events')
      .select('event_seq')
      .where('failed', 'is', null)
      .orderBy('event_seq')
      .limit(limit)
      .execute();
    for (const { event_seq } of waiting) {
      try {
        await db.transaction().execute((trx) => fanOutRows(trx, now, { seq: event_seq }));
      } catch (err) {
        const reason = String((err as Error)?.message ?? err).slice(0, 500);
        await db.updateTable('mail_events').set({ failed: reason }).where('event_seq', '=', event_seq).execute();
      }
    }
    return waiting.length;
  }
}

/** Claims the batch (or the one row `seq`), writes its mails and digest items, deletes it; answers how many rows. */
async function fanOutRows(trx: Kysely<DB>, now: Date, which: { limit: number } | { seq: number }): Promise<number> {
  const claimed = (await trx
    .selectFrom('mail_events')
    .select(['event_seq', 'kind', 'company_id', 'created'])
    .where('failed', 'is', null)
    .$if('seq' in which, (qb) => qb.where('event_seq', '=', (which as { seq: number }).seq))
    .orderBy('event_seq')
    .limit('limit' in which ? which.limit : 1)
    .forUpdate()
    .skipLocked()
    .execute()) as Claimed[];
  if (!claimed.length) return 0;
  const seqs = claimed.map((c) => c.event_seq);
  const events = new Map((await eventsAt(trx, seqs)).map((e) => [Number(e.seq), e]));
  const told: Array<{ c: Claimed; data: EventData; addressee: Addressee | null; match: MatchReason | null }> = [];
  for (const c of claimed) {
    const event = events.get(Number(c.event_seq));
    const rule = event && isEventType(event.type) ? MAIL_OF_EVENT[event.type] : null;
    if (!event || !rule) continue;
    const body = JSON.parse(event.body) as { data?: unknown };
    const data = isRecord(body.data) ? (body.data as EventData) : {};
    if (rule.tells && !rule.tells(data, c.company_id)) continue;
    told.push({ c, data, addressee: rule.addressee ? rule.addressee(data, c.company_id) : null, match: matchReasonOf(event, data) });
  }
  // One alert per load per user: a match merged into the user's notification of the load is not mailed on its own.
  const merged = await mergedMatchKeys(
    trx,
    told.flatMap((t) => (t.match ? [t.match.freightId] : [])),
  );
  const users = await usersOfCompanies(
    trx,
    told.map((t) => t.c.company_id),
  );
  const byCompany = new Map<number, User[]>();
  for (const u of users) byCompany.set(u.company_id, [...(byCompany.get(u.company_id) ?? []), u]);
  const addressed = await addresseesOf(
    trx,
    told.map((t) => t.addressee),
  );
  const chosen = await chosenModes(
    trx,
    users.map((u) => u.id),
  );
  const instant: Array<{ user_id: number; kind: MailKind; event_seq: number; created: Date; next_attempt: Date }> = [];
  const daily: Array<{ user_id: number; kind: MailKind; event_seq: number; created: Date }> = [];
  for (const { c, addressee, match } of told) {
    // MAIL-BLOCKS: the recipients are the event's own (its outbox row's company), so the events'
    // one recipient filter of blocks (docs/reference.md#trust; issue 39) keeps a blocked company's mail
    // from the blocker with no rule of its own here (tests/mail/privacy.test.ts).
    let people = byCompany.get(c.company_id) ?? [];
    // An alert goes to the user it alerted, if that user belongs to the recipient company.
    if (addressee) {
      const ids = addressed(addressee, c.company_id);
      people = people.filter((u) => ids.has(u.id));
    }
    if (match) people = people.filter((u) => !merged.has(matchKey(match.freightId, u.id, match.searchId, match.vehicleId)));
    for (const u of people) {
      const mode = modeOf(chosen, u.id, c.kind);
      if (mode === 'instant') instant.push({ user_id: u.id, kind: c.kind, event_seq: c.event_seq, created: now, next_attempt: now });
      else if (mode === 'daily') daily.push({ user_id: u.id, kind: c.kind, event_seq: c.event_seq, created: c.created });
    }
  }
  for (let i = 0; i < instant.length; i += 1000)
    await trx
      .insertInto('mail_messages')
      .values(instant.slice(i, i + 1000))
      .execute();
  for (let i = 0; i < daily.length; i += 1000)
    await trx
      .insertInto('mail_digest_items')
      .values(daily.slice(i, i + 1000))
      .execute();
  await trx.deleteFrom('mail_events').where(sql<boolean>`event_seq = any(${seqs}::bigint[])`).execute();
  return claimed.length;
}

/** What a `freight.matched` event says matched: its freight and the saved search or the vehicle offer. */
interface MatchReason {
  freightId: number;
  searchId: number | null;
  vehicleId: number | null;
}

function matchReasonOf(event: { type: string; freight_id: number | null }, data: EventData): MatchReason | null {
  if (event.type !== 'freight.matched' || event.freight_id === null) return null;
  const id = (key: string) => {
    const v = isRecord(data[key]) ? (data[key] as EventData).id : null;
    return typeof v === 'number' ? v : null;
  };
  return { freightId: Number(event.freight_id), searchId: id('search'), vehicleId: id('vehicle') };
}

/** The users each addressee names (one statement per kind of name for the whole batch). */
async function addresseesOf(
  db: Kysely<DB>,
  list: ReadonlyArray<Addressee | null>,
): Promise<(a: Addressee, company: number) => Set<number>> {
  const searches: number[] = [];
  const offers: number[] = [];
  const freights: number[] = [];
  for (const a of list) {
    if (!a) continue;
    if ('search' in a) searches.push(a.search);
    else if ('offer' in a) offers.push(a.offer);
    else freights.push(...a.freights);
  }
  const [bySearch, byOffer, creators] = await Promise.all([
    searchUsers(db, searches),
    offerUsers(db, offers),
    freightCreators(db, freights),
  ]);
  const byFreight = new Map(creators.map((f) => [f.id, f]));
  return (a, company) => {
    if ('search' in a) return new Set(bySearch.has(a.search) ? [bySearch.get(a.search)!] : []);
    if ('offer' in a) return new Set(byOffer.has(a.offer) ? [byOffer.get(a.offer)!] : []);
    return new Set(
      a.freights.flatMap((id) => {
        const f = byFreight.get(id);
        return f && f.company_id === company ? [f.user_id] : [];
      }),
    );
  };
}

/** The creating users of these freights with their companies (a match's mail goes to whom its notification went), through the freights' read model. */
async function freightCreators(
  db: Kysely<DB>,
  ids: readonly number[],
): Promise<Array<{ id: number; company_id: number; user_id: number }>> {
  if (!ids.length) return [];
  return fromFreights(db)
    .select(['id', 'company_id', 'user_id'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
}
