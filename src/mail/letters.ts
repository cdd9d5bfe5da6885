import { sql, type Kysely } from 'kysely';
import { addressees, type Addressee, namesOfCompanies } from '../accounts/index.ts';
import type { DB } from '../db/schema.ts';
import { presentMany, visibleFreights, withPieces, type FreightView } from '../freights/index.ts';
import { isLanguage, translator } from '../kernel/i18n.ts';
import { isRecord } from '../kernel/params.ts';
import type { Clock } from '../kernel/time.ts';
import { matchReasonsOf } from '../searches/index.ts';
import { eventsAt } from '../webhooks/index.ts';
import { compose, describe, type Composed, type MailItem, type Told } from './content.tsx';
import type { EventData } from './kinds.ts';
import type { ClaimedMail, MailOutcome } from './outbox.ts';
import { chosenModes, modeOf } from './settings.ts';
import type { UnsubscribeTokens } from './unsubscribe.ts';

/**
 * From claimed mails to letters: what each says, read for the whole batch at once (the readers,
 * their settings now, the events, the freights of events that carry none, company names). A mail
 * whose kind its user switched off since (unsubscribed) is dropped, not sent.
 */

/** Items shown in one digest (the rest is counted, with a link). */
export const DIGEST_SHOWN = 30;

/** A letter to send, or what became of a mail that will not be sent. */
export type Letter = { kind: 'send'; to: Addressee; composed: Composed; unsubscribe: string } | { kind: 'skip'; outcome: MailOutcome };

export interface LetterDeps {
  db: Kysely<DB>;
  clock: Clock;
  publicUrl: string;
  tokens: UnsubscribeTokens;
}

const ENG = translator('eng');

interface EventOf {
  type: string;
  company: number;
  freightId: number | null;
  data: EventData;
}

export async function writeLetters(deps: LetterDeps, mails: readonly ClaimedMail[]): Promise<Map<number, Letter>> {
  const { db, clock } = deps;
  const now = clock.now();
  const userIds = mails.map((m) => m.user_id);
  const [readers, chosen] = await Promise.all([addressees(db, userIds), chosenModes(db, userIds)]);
  const readerOf = new Map(readers.map((u) => [u.id, u]));

  // The events: an instant mail's own; a digest's first DIGEST_SHOWN items, and how many in all.
  const digests = mails.filter((m) => m.digest_day !== null).map((m) => m.id);
  const items = digests.length
    ? (
        await sql<{ digest_id: string; event_seq: string; total: string }>`
          select digest_id, event_seq, total from (
            select digest_id, event_seq, count(*) over (partition by digest_id) as total,
                   row_number() over (partition by digest_id order by created, id) as n
              from mail_digest_items where digest_id = any(${digests}::bigint[])) i
           where n <= ${DIGEST_SHOWN} order by digest_id, n`.execute(db)
      ).rows
    : [];
  const itemsOf = new Map<number, { seqs: number[]; total: number }>();
  for (const i of items) {
    const entry = itemsOf.get(Number(i.digest_id)) ?? { seqs: [], total: Number(i.total) };
    entry.seqs.push(Number(i.event_seq));
    itemsOf.set(Number(i.digest_id), entry);
  }
  const seqs = [...mails.flatMap((m) => (m.event_seq === null ? [] : [m.event_seq])), ...items.map((i) => Number(i.event_seq))];
  const events = new Map<number, EventOf>();
  for (const e of await eventsAt(db, [...new Set(seqs)])) {
    const body = JSON.parse(e.body) as { data?: unknown };
    if (e.company_id === null) continue;
    events.set(Number(e.seq), {
      type: e.type,
      company: e.company_id,
      freightId: e.freight_id,
      data: isRecord(body.data) ? (body.data as EventData) : {},
    });
  }

  // Freights of events that carry none, as their company may see them now (one read per company).
  const wanted = new Map<number, Set<number>>();
  for (const e of events.values()) {
    const id = freightWanted(e);
    if (id !== null) wanted.set(e.company, (wanted.get(e.company) ?? new Set()).add(id));
  }
  const freights = new Map<string, FreightView>();
  for (const [company, ids] of wanted) {
    const visible = await withPieces(db, await visibleFreights(db, now, company, [...ids]));
    const views = presentMany(visible, { clock, t: ENG });
    for (const [i, view] of views.entries()) freights.set(`${company}:${visible[i]!.row.id}`, view);
  }
  const names = await namesOfCompanies(
    db,
    [...events.values()].flatMap((e) => {
      const bid = isRecord(e.data.bid) ? e.data.bid : {};
      const route = isRecord(e.data.route) ? e.data.route : {};
      return [bid.company, route.winner, route.company].filter((id): id is number => typeof id === 'number');
    }),
  );

  // One alert per load per user: every reason of each `freight.matched` told (its mail names the others).
  const reasons = await matchReasonsOf(
    db,
    mails.flatMap((m) =>
      (m.event_seq !== null ? [m.event_seq] : (itemsOf.get(m.id)?.seqs ?? [])).flatMap((seq) => {
        const e = events.get(seq);
        return e?.type === 'freight.matched' && e.freightId !== null ? [{ userId: m.user_id, freightId: e.freightId }] : [];
      }),
    ),
  );

  const letters = new Map<number, Letter>();
  for (const mail of mails) {
    const reader = readerOf.get(mail.user_id);
    if (!reader) {
      letters.set(mail.id, { kind: 'skip', outcome: { kind: 'dropped', reason: 'the user no longer exists' } });
      continue;
    }
    const mode = modeOf(chosen, reader.id, mail.kind);
    if (mode === 'off') {
      letters.set(mail.id, { kind: 'skip', outcome: { kind: 'dropped', reason: 'switched off by its user' } });
      continue;
    }
    const language = isLanguage(reader.language) ? reader.language : 'eng';
    const tell = { t: translator(language), language, publicUrl: deps.publicUrl, names };
    const toldOf = (seq: number): Told | null => {
      const e = events.get(seq);
      // An event of another company never goes into this user's mail.
      if (!e || e.company !== reader.company_id) return null;
      const id = freightWanted(e);
      const told: Told = {
        type: e.type,
        data: e.data,
        company: e.company,
        freight: id === null ? null : (freights.get(`${e.company}:${id}`) ?? null),
      };
      if (e.type === 'freight.matched' && e.freightId !== null) {
        const idIn = (key: string) => (isRecord(e.data[key]) ? (e.data[key] as EventData).id : undefined);
        const [searchId, vehicleId] = [idIn('search'), idIn('vehicle')];
        told.alsoMatched = (reasons.get(`${e.freightId}:${reader.id}`) ?? [])
          .filter((r) => (r.vehicle_id !== null ? r.vehicle_id !== vehicleId : r.search_id !== searchId))
          .map((r) =>
            r.vehicle_id !== null
              ? tell.t('mail.matched.also.vehicle', { id: r.vehicle_id })
              : tell.t('mail.matched.also.search', { search: r.search_name }),
          );
      }
      return told;
    };
    const digest = mail.digest_day !== null ? itemsOf.get(mail.id) : undefined;
    const said: MailItem[] = [];
    for (const seq of mail.event_seq !== null ? [mail.event_seq] : (digest?.seqs ?? [])) {
      const told = toldOf(seq);
      const item = told ? await describe(told, tell) : null;
      if (item) said.push(item);
    }
    if (!said.length) {
      letters.set(mail.id, {
        kind: 'skip',
        outcome: { kind: 'dropped', reason: 'nothing left to tell (the freight is no longer visible)' },
      });
      continue;
    }
    const unsubscribe = `${deps.publicUrl}/mail/unsubscribe/${deps.tokens.token(reader.id, mail.kind)}`;
    const composed = compose(
      {
        tell,
        name: reader.realname,
        kind: mail.kind,
        // Why this mail came: a digest because the kind was daily when its items were gathered.
        mode: mail.digest_day !== null ? 'daily' : 'instant',
        unsubscribe,
        digest: mail.digest_day !== null ? { day: mail.digest_day, total: Math.max(digest?.total ?? said.length, said.length) } : undefined,
      },
      said,
    );
    letters.set(mail.id, { kind: 'send', to: reader, composed, unsubscribe });
  }
  return letters;
}

/** The freight to read for an event whose data carries none: a message's or document's, a vehicle match's first own freight. */
function freightWanted(e: EventOf): number | null {
  if (isRecord(e.data.route)) return null;
  if (e.type === 'vehicle.matched') {
    const first = Array.isArray(e.data.matches) ? e.data.matches[0] : undefined;
    return isRecord(first) && typeof first.route_id === 'number' ? first.route_id : null;
  }
  return e.freightId;
}
