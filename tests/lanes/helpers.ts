import { recordLaneAward } from '../../src/lanes/index.ts';
import type { Actor, TestApp } from '../support/harness.ts';

/** Frankfurt (DE-60311) and Paris (FR-75001): the lane of these tests, with coordinates. */
export const FRANKFURT = { code: '60311', country: 'DE', latitude: '50.1109', longitude: '8.6821' };
export const PARIS = { code: '75001', country: 'FR', latitude: '48.8566', longitude: '2.3522' };

export interface Place {
  code: string;
  country: string | null;
  latitude?: string | null;
  longitude?: string | null;
}

export interface AwardSpec {
  owner: Actor;
  winner: Actor;
  price: string;
  /** the award's instant (the accepted bid's modified) */
  at: Date;
  from?: Place;
  to?: Place;
  currency?: string;
  class?: string;
  status?: 'taken' | 'closed' | 'archived' | 'open' | 'expired';
  /** the bid's status (accepted for an award) */
  bidStatus?: 'accepted' | 'open' | 'revoked';
}

/**
 * An awarded freight written directly (the award is the quotes module's; these tests seed many
 * awards at chosen instants): the freight taken with its winner and price, its accepted bid.
 * Recorded in its lane cell as the award's transaction records it. Answers the freight id.
 */
export async function seedAward(app: TestApp, a: AwardSpec): Promise<number> {
  const from = a.from ?? FRANKFURT;
  const to = a.to ?? PARIS;
  const db = app.services.db;
  const freight = await db
    .insertInto('freights')
    .values({
      class: a.class ?? 'rfs',
      status: a.status ?? 'taken',
      from_code: from.code,
      from_country: from.country,
      from_latitude: from.latitude ?? null,
      from_longitude: from.longitude ?? null,
      to_code: to.code,
      to_country: to.country,
      to_latitude: to.latitude ?? null,
      to_longitude: to.longitude ?? null,
      weight: '1000',
      price: a.price,
      company_id: a.owner.company,
      user_id: a.owner.user,
      winner_id: a.winner.company,
      transport_company_id: a.winner.company,
      created: a.at,
      modified: a.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('bids')
    .values({
      freight_id: freight.id,
      company_id: a.winner.company,
      user_id: a.winner.user,
      amount: a.price,
      currency_code: a.currency ?? 'EUR',
      status: a.bidStatus ?? 'accepted',
      owner_confirmed: true,
      bidder_confirmed: true,
      created: a.at,
      modified: a.at,
    })
    .execute();
  // What the award's transaction does after it (freights/award.ts, its step registered in app.ts): the award into its lane cell.
  await recordLaneAward(db, app.services.clock.zone, freight.id);
  return freight.id;
}

/** Great-circle km as the statement computes it (mean earth radius 6371.0088 km). */
export function greatCircleKm(a: { latitude: string; longitude: string }, b: { latitude: string; longitude: string }): number {
  const rad = Math.PI / 180;
  const [lat1, lon1, lat2, lon2] = [a.latitude, a.longitude, b.latitude, b.longitude].map(Number) as [number, number, number, number];
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 6371.0088 * 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export const prices = (app: TestApp, who: Actor, query: Record<string, string>) =>
  app.get('/market/prices.json', { token: who.token, query });

/** A place of a test's own lane (postal codes nobody else's test uses), without coordinates. */
export const place = (country: string, code: string): Place => ({ code, country });

/** Shippers and carriers a test file's awards take in turn (`seedAwards`), and whose turn is next. */
export interface Pool {
  shippers: Actor[];
  carriers: Actor[];
  turn: number;
}

export async function actorPool(app: TestApp, size = 10): Promise<Pool> {
  const pool: Pool = { shippers: [], carriers: [], turn: 0 };
  for (let i = 0; i < size; i++) {
    pool.shippers.push(await app.actor(`Verlader ${i}`));
    pool.carriers.push(await app.actor(`Frachtführer ${i}`));
  }
  return pool;
}

/**
 * The prices of `list` awarded on the lane at `when`: owners taken in turn from `owners` shippers
 * (award i's owner the (i mod owners)-th), winners likewise from `winners` carriers (by default one
 * of each per award: no company takes part in two of them), companies the previous call did not use.
 */
export async function seedAwards(
  app: TestApp,
  pool: Pool,
  lane: { from: Place; to: Place; when: Date },
  list: string[],
  parties: { owners?: number; winners?: number } = {},
): Promise<void> {
  const size = pool.shippers.length;
  const [o, w] = [parties.owners ?? list.length, parties.winners ?? list.length];
  const first = pool.turn;
  pool.turn += Math.max(o, w);
  for (const [i, price] of list.entries())
    await seedAward(app, {
      owner: pool.shippers[(first + (i % o)) % size]!,
      winner: pool.carriers[(first + (i % w)) % size]!,
      price,
      at: lane.when,
      from: lane.from,
      to: lane.to,
    });
}

/** One month of an answer's body. */
export const monthOf = (body: any, month: string) => (body.data.months as any[]).find((m) => m.month === month);

/** A month of the answer without figures: its count alone. */
export const countOnly = (month: string, count: number) => ({
  month,
  count,
  median: null,
  p25: null,
  p75: null,
  median_per_km: null,
  released: 0,
  released_per_km: 0,
});
