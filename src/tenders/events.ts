import { allCompanyIds, namesOfCompanies, pushRule, usersOfCompanies } from '../accounts/index.ts';
import type { Db } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';
import { insertTenderNotifications } from '../searches/index.ts';
import { announce } from '../webhooks/index.ts';
import type { ContractRow, TenderRow } from './tables.ts';

/**
 * The tenders' events (docs/reference.md#events, #tenders), written to the outbox in the transaction of their
 * change, each made by the tender's owner (`from`), so the one push rule (accounts pushRule) keeps
 * them from a company that blocked it. None carries a bid of another company: what a recipient
 * receives is the tender, and to an awarded company its own contracts.
 */

/** The tender as its events name it (no bids, no invited list). */
export function tenderHead(clock: Clock, t: TenderRow, ownerName: string, lanes?: number) {
  return {
    id: t.id,
    name: t.name,
    company: { id: t.company_id, name: ownerName },
    currency: t.currency,
    valid_from: t.valid_from,
    valid_to: t.valid_to,
    deadline: clock.format(t.deadline),
    ...(lanes === undefined ? {} : { lanes: lanes }),
  };
}

/**
 * `tender.published` to the invited companies (every other company when none is named): the event,
 * and a notification to each of their users (docs/reference.md#tenders), both under the push rule
 * (a company that blocked the owner hears nothing of it).
 */
export async function tenderPublished(db: Db, clock: Clock, t: TenderRow, lanes: number): Promise<void> {
  const owner = (await namesOfCompanies(db, [t.company_id])).get(t.company_id) ?? '';
  const recipients = t.invited.length ? t.invited.filter((c) => c !== t.company_id) : await allCompanyIds(db, t.company_id);
  const data = { tender: tenderHead(clock, t, owner, lanes) };
  await announce(
    db,
    clock,
    'tender.published',
    recipients.map((companyId) => ({ companyId, freightId: null, from: [t.company_id], data: () => data })),
  );
  const may = await pushRule(db, [t.company_id], recipients);
  const users = await usersOfCompanies(
    db,
    recipients.filter((c) => may(c, [t.company_id])),
  );
  await insertTenderNotifications(
    db,
    users.map((u) => ({ userId: u.id, tenderId: t.id, tenderName: t.name, created: clock.now() })),
  );
}

/** The tenders of invitations as a user may see them now (the notifications' reader, passed to searches by app.ts). */
export async function tendersForNotice(db: Db, clock: Clock, seen: readonly TenderRow[]): Promise<Map<number, unknown>> {
  const names = await namesOfCompanies(db, [...new Set(seen.map((t) => t.company_id))]);
  return new Map(seen.map((t) => [t.id, tenderHead(clock, t, names.get(t.company_id) ?? '')]));
}

/** `tender.awarded` to each awarded company with its contracts; `tender.lost` to the other bidders. */
export async function tenderAwarded(db: Db, clock: Clock, t: TenderRow, contracts: ContractRow[], bidders: number[]): Promise<void> {
  const owner = (await namesOfCompanies(db, [t.company_id])).get(t.company_id) ?? '';
  const head = tenderHead(clock, t, owner);
  const won = new Map<number, ContractRow[]>();
  for (const c of contracts) won.set(c.carrier_id, [...(won.get(c.carrier_id) ?? []), c]);
  const names = await namesOfCompanies(db, [...won.keys()]);
  await announce(
    db,
    clock,
    'tender.awarded',
    [...won].map(([companyId, mine]) => ({
      companyId,
      freightId: null,
      from: [t.company_id],
      data: () => ({
        tender: head,
        contracts: mine.map((c) => ({
          id: c.id,
          lane: c.lane_id,
          from: c.from_pattern,
          to: c.to_pattern,
          rank: c.rank,
          price: Number(c.price),
          currency: c.currency,
          loads: c.loads,
          carrier: { id: companyId, name: names.get(companyId) ?? '' },
        })),
      }),
    })),
  );
  const lost = bidders.filter((b) => !won.has(b));
  await announce(
    db,
    clock,
    'tender.lost',
    lost.map((companyId) => ({ companyId, freightId: null, from: [t.company_id], data: () => ({ tender: head }) })),
  );
}
