import { Type } from '@sinclair/typebox';
import type { Caller, Ctx } from '../kernel/context.ts';
import type { FailureCode } from '../kernel/errors.ts';
import type { MessageKey } from '../kernel/i18n.ts';
import { readLocaleDecimal } from '../kernel/locale.ts';
import { fail, notFound, ok, type Answer, type Outcome } from '../kernel/outcome.ts';
import { readFlag, readId, readInt, readList, readString } from '../kernel/params.ts';
import { userEndpoint, type Endpoint, type PageResult } from '../kernel/route.tsx';
import {
  acceptCounter,
  bookNow,
  counterBid,
  declineTurn,
  loadFreightForCaller,
  presentRead,
  MAX_WATERFALL_CARRIERS,
  MAX_WATERFALL_MINUTES,
  presentBid,
  startWaterfall,
  WATERFALL_THEN,
  type AwardPath,
  type OneStepResult,
  type WaterfallInput,
  type WaterfallResult,
  type WaterfallThen,
  type WaterfallWork,
} from '../freights/index.ts';
import { FREIGHT_SCHEMA } from '../freights-http/index.ts';
import { NOTE_MAX, readMoney } from './fields.ts';
import { AWARD_DATA, BID_DATA } from './present.ts';

/**
 * Deals in one step (docs/reference.md#one-step), their endpoints: Book Now, counter-offers and their
 * acceptance, a waterfall's start and a carrier's pass. The rules are the freights module's
 * (one-step.ts, waterfall.ts); `award` is the award path app.ts built, `work` what a waterfall's
 * steps do in modules above.
 */

const freightPage = (id: number) => `/freights/view/${id}`;

function refusalOf(ctx: Ctx<Caller>, result: Exclude<OneStepResult, { kind: 'done' }>): Outcome<never> {
  return result.kind === 'not_found' ? notFound() : fail(ctx.t, result.reason);
}

/** HTML: back to the freight page with the outcome's message (post/redirect/get). */
function backToFreight(done: MessageKey, idOf: (ctx: Ctx<Caller>) => number | undefined) {
  return async (outcome: Answer<unknown>, ctx: Ctx<Caller>): Promise<PageResult> => {
    const id = idOf(ctx);
    const to = id === undefined ? '/' : freightPage(id);
    return outcome.kind === 'ok' ? { redirect: to, message: ctx.t(done), ok: true } : { redirect: to, message: outcome.message, ok: false };
  };
}

const PATH_ID = (description: string) => ({ id: Type.Integer({ description }) });

/** A counter's body: `amount` (> 0, cents at most; the page's as the user writes it) and an optional `note`. */
function readCounter(ctx: Ctx<Caller>): { amount: string; note: string | null } | { problem: FailureCode; vars?: Record<string, number> } {
  const raw = ctx.format === 'html' ? readLocaleDecimal(ctx.params.amount, ctx.language) : ctx.params.amount;
  const amount = readMoney(raw);
  if (amount === undefined || Number(amount) <= 0) return { problem: 'quotes.counter.amount' };
  const note = ctx.params.note === undefined || ctx.params.note === null ? null : readString(ctx.params.note);
  if (note === undefined) return { problem: 'quotes.counter.note', vars: { max: NOTE_MAX } };
  if (note !== null && note.length > NOTE_MAX) return { problem: 'quotes.counter.note', vars: { max: NOTE_MAX } };
  return { amount, note: note === null || note.trim() === '' ? null : note };
}

/**
 * A waterfall's body (docs/reference.md#one-step), every list bounded before any work: `carriers` (1–20
 * company ids, each once), `price` (> 0), `currency` (EUR), `minutes` (1–1440), `then` (`stop`);
 * `guide` = 1 instead of carriers and price (the owner's contracts, §17).
 */
/**
 * The routing guide's carriers for a freight (docs/reference.md#tenders): the owner's contracts for its lane
 * valid on its pickup date, primary first, each at its own price; null: not the caller's freight.
 * The tenders module's reader, passed in by app.ts (tenders is above quotes).
 */
export type GuideReader = (
  db: Ctx['db'],
  clock: Ctx['clock'],
  caller: Caller,
  freightId: number,
) => Promise<{ offers: Array<{ company: number; price: string; currency: string }> } | null>;

/** `minutes` and `then` of a waterfall, with carriers or a guide alike. */
function readTurns(ctx: Ctx<Caller>): { minutes: number; afterwards: WaterfallThen } | { problem: FailureCode } {
  const p = ctx.params;
  const minutes = readInt(p.minutes);
  if (minutes === undefined || minutes < 1 || minutes > MAX_WATERFALL_MINUTES) return { problem: 'freight.waterfall.minutes' };
  const thenText = p.then === undefined || p.then === null || p.then === '' ? 'stop' : readString(p.then)?.trim().toLowerCase();
  if (!thenText || !(WATERFALL_THEN as readonly string[]).includes(thenText)) return { problem: 'freight.waterfall.then' };
  return { minutes, afterwards: thenText as WaterfallThen };
}

/** `guide` = 1: the carriers and their prices from the guide (no contract for the lane: refused). */
async function readGuide(
  ctx: Ctx<Caller>,
  id: number,
  guide: GuideReader | undefined,
): Promise<WaterfallInput | { problem: FailureCode } | null> {
  const turns = readTurns(ctx);
  if ('problem' in turns) return turns;
  if (!guide) return { problem: 'freight.waterfall.no_contracts' };
  const found = await guide(ctx.db, ctx.clock, ctx.caller, id);
  if (!found) return null;
  if (!found.offers.length) return { problem: 'freight.waterfall.no_contracts' };
  return {
    offers: found.offers.map((o) => ({ company: o.company, price: o.price })),
    currency: found.offers[0]!.currency,
    ...turns,
    guide: true,
  };
}

function readWaterfall(ctx: Ctx<Caller>): WaterfallInput | { problem: FailureCode } {
  const p = ctx.params;
  const list = readList(p.carriers, MAX_WATERFALL_CARRIERS);
  if (!list.ok || list.items.length < 1) return { problem: 'freight.waterfall.carriers' };
  const carriers: number[] = [];
  for (const item of list.items) {
    if (typeof item === 'string' && item.trim() === '' && ctx.format === 'html') continue; // the form's empty choices
    const id = readId(item);
    if (id === undefined || carriers.includes(id)) return { problem: 'freight.waterfall.carriers' };
    carriers.push(id);
  }
  if (!carriers.length) return { problem: 'freight.waterfall.carriers' };
  const rawPrice = ctx.format === 'html' ? readLocaleDecimal(p.price, ctx.language) : p.price;
  const price = readMoney(rawPrice);
  if (price === undefined || Number(price) <= 0 || Number(price) >= 1e12) return { problem: 'freight.waterfall.price' };
  const currencyText = p.currency === undefined || p.currency === null || p.currency === '' ? 'EUR' : readString(p.currency)?.trim();
  if (!currencyText || !/^[A-Za-z]{3}$/.test(currencyText)) return { problem: 'freight.waterfall.currency' };
  const turns = readTurns(ctx);
  if ('problem' in turns) return turns;
  return {
    offers: carriers.map((company) => ({ company, price })),
    currency: currencyText.toUpperCase(),
    ...turns,
    guide: false,
  };
}

function waterfallAnswer(ctx: Ctx<Caller>, result: WaterfallResult) {
  if (result.kind === 'not_found') return notFound();
  if (result.kind === 'refused') return fail(ctx.t, result.reason, result.vars);
  return ok({ route: result.freight.id, status: result.freight.status });
}

const ERRORS = (codes: string) => `\`status\` = \`error\` with \`code\`: ${codes}; nothing changed.`;

export function oneStepEndpoints(parts: { award: AwardPath; work: WaterfallWork; guide?: GuideReader }): Endpoint[] {
  const pathId = (ctx: Ctx<Caller>) => readId(ctx.path.id);
  return [
    userEndpoint({
      method: 'POST',
      path: '/quotes/book/:id',
      doc: {
        summary: 'Book Now: take the freight at its `book_now` price at once (decisions.md §16)',
        description: `A bid at \`book_now\` is created and awarded in one transaction, with everything an award does (events \`bid.created\` and \`freight.awarded\`, the transport order, other bids back to open). Of two companies booking at once, one wins; the other is refused. ${ERRORS('`quotes.book.no_price`, `quotes.book.own_freight`, `quotes.book.not_available` (taken or out of the market), `quotes.bidder_blocked`, `quotes.party_blocked`')}`,
        path: PATH_ID('the freight id'),
        data: Type.Object({ route: FREIGHT_SCHEMA, bid: BID_DATA.properties.bid }),
        answers: { 404: 'The freight does not exist or the caller may not see it (in a waterfall: it is not the caller’s turn).' },
      },
      async handle(ctx) {
        const id = pathId(ctx);
        if (id === undefined) return notFound();
        const result = await bookNow(ctx.db, ctx.clock, ctx.caller, id, parts.award, parts.work);
        if (result.kind !== 'done') return refusalOf(ctx, result);
        // The freight as the winner now reads it: taken, its price `book_now`, its winner the caller's company.
        const found = await loadFreightForCaller(ctx.db, ctx.clock, ctx.caller, id);
        if (!found) return notFound();
        return ok({ route: presentRead(found, ctx), bid: presentBid(result.bid, ctx.clock) });
      },
      page: backToFreight('quotes.book.done', pathId),
    }),
    userEndpoint({
      method: 'POST',
      path: '/quotes/counter/:id',
      doc: {
        summary: 'Counter-offer: the freight’s owner answers a bid with its own price (decisions.md §16)',
        description: `\`amount\` (> 0, the bid’s currency) and an optional \`note\`; a new counter replaces the standing one. Event \`bid.countered\` to the bidder. ${ERRORS('`quotes.counter.amount`, `quotes.counter.note`, `quotes.counter.not_open` (a revoked or accepted bid, a freight no longer open or pending), `quotes.counter.own_bid`, `quotes.party_blocked`')}`,
        path: PATH_ID('the bid id'),
        input: Type.Object({
          amount: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.String()], {
            description: 'the owner’s price; at most 2 decimals',
          }),
          note: Type.Optional(Type.Union([Type.String({ maxLength: NOTE_MAX }), Type.Null()])),
        }),
        data: BID_DATA,
        answers: { 404: 'The bid does not exist, or the caller is not the owner of its freight.' },
      },
      async handle(ctx) {
        const id = pathId(ctx);
        if (id === undefined) return notFound();
        const offer = readCounter(ctx);
        if ('problem' in offer) return fail(ctx.t, offer.problem, offer.vars);
        const result = await counterBid(ctx.db, ctx.clock, ctx.caller, id, offer);
        if (result.kind !== 'done') return refusalOf(ctx, result);
        return ok({ bid: presentBid(result.bid, ctx.clock) });
      },
      page: async (outcome, ctx) => {
        const bid = outcome.kind === 'ok' ? outcome.data.bid : undefined;
        const route = bid?.route ?? readId(ctx.params.route);
        return backToFreight('quotes.counter.done', () => route)(outcome, ctx);
      },
    }),
    userEndpoint({
      method: 'POST',
      path: '/quotes/accept/:id',
      doc: {
        summary: 'Accept the standing counter-offer: the freight is awarded to the bidder at the counter’s amount (decisions.md §16)',
        description: ERRORS('`quotes.accept.no_counter`, `quotes.counter.not_open`, `quotes.party_blocked`'),
        path: PATH_ID('the bid id'),
        data: AWARD_DATA,
        answers: { 404: 'The bid does not exist, or the caller’s company is not the bidder.' },
      },
      async handle(ctx) {
        const id = pathId(ctx);
        if (id === undefined) return notFound();
        const result = await acceptCounter(ctx.db, ctx.clock, ctx.caller, id, parts.award);
        if (result.kind !== 'done') return refusalOf(ctx, result);
        return ok({ route: result.freight.id, bid: presentBid(result.bid, ctx.clock) });
      },
      page: async (outcome, ctx) => {
        const route = outcome.kind === 'ok' ? outcome.data.route : readId(ctx.params.route);
        return backToFreight('quotes.accept.done', () => route)(outcome, ctx);
      },
    }),
    userEndpoint({
      method: 'POST',
      path: '/quotes/decline/:id',
      doc: {
        summary: 'Pass on a waterfall’s turn: the next carrier’s turn starts now (decisions.md §16)',
        description: ERRORS('`quotes.decline.not_your_turn` (the caller sees the freight but it is not its turn)'),
        path: PATH_ID('the freight id'),
        data: Type.Object({ route: Type.Integer(), status: Type.String({ description: 'the freight’s status after the pass' }) }),
        answers: { 404: 'The freight does not exist or the caller may not see it.' },
      },
      async handle(ctx) {
        const id = pathId(ctx);
        if (id === undefined) return notFound();
        return waterfallAnswer(ctx, await declineTurn(ctx.db, ctx.clock, ctx.caller, id, parts.work));
      },
      page: async (outcome, ctx) => {
        if (outcome.kind === 'ok') return { redirect: '/', message: ctx.t('quotes.decline.done'), ok: true };
        return backToFreight('quotes.decline.done', pathId)(outcome, ctx);
      },
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/waterfall/:id',
      doc: {
        summary: 'Offer a draft freight to carriers one after the other, each with a deadline, before the market (decisions.md §16)',
        description: `The freight is published to the first carrier alone (visibility -2, \`book_now\` = \`price\`) until \`minutes\` have passed or it passes; then the next one's turn starts (event \`freight.offered\`), without any request. After the last: \`then\` = \`market\` opens it to every company at \`book_now\` = \`price\`, \`stop\` makes it expired. ${ERRORS('`freight.waterfall.carriers`, `freight.waterfall.price`, `freight.waterfall.currency`, `freight.waterfall.minutes`, `freight.waterfall.then`, `freight.waterfall.no_contracts` (`guide` = 1 and no contract of the owner covers the freight’s lane on its pickup date), `freight.waterfall.not_draft`, `freight.waterfall.bad_carrier`')}`,
        path: PATH_ID('the freight id (a draft of the caller’s company)'),
        input: Type.Object({
          carriers: Type.Optional(
            Type.Array(Type.Integer({ minimum: 1 }), {
              minItems: 1,
              maxItems: MAX_WATERFALL_CARRIERS,
              description: 'company ids in order, each once (required without `guide`)',
            }),
          ),
          price: Type.Optional(
            Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.String()], {
              description: 'the Book Now price of every turn (required without `guide`)',
            }),
          ),
          currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'default EUR' })),
          minutes: Type.Integer({ minimum: 1, maximum: MAX_WATERFALL_MINUTES, description: 'how long each carrier has' }),
          // biome-ignore lint/suspicious/noThenProperty: docs/reference.md#one-step names the field `then`
          then: Type.Optional(
            Type.Union([Type.Literal('market'), Type.Literal('stop')], { description: 'after the last carrier; default stop' }),
          ),
          guide: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 1,
              description:
                '1 instead of `carriers` and `price`: the routing guide, the carriers of the owner’s contracts for the freight’s lane valid on its pickup date (its loading window’s start; without one, today), primary first, each at its own contract price and in the contracts’ currency (decisions.md §17)',
            }),
          ),
        }),
        data: Type.Object({ route: Type.Integer(), status: Type.String({ description: 'open' }) }),
        answers: { 404: 'The freight does not exist or is not the caller’s company’s.' },
      },
      async handle(ctx) {
        const id = pathId(ctx);
        if (id === undefined) return notFound();
        const input = readFlag(ctx.params.guide) === 1 ? await readGuide(ctx, id, parts.guide) : readWaterfall(ctx);
        if (input === null) return notFound();
        if ('problem' in input) return fail(ctx.t, input.problem);
        return waterfallAnswer(ctx, await startWaterfall(ctx.db, ctx.clock, ctx.caller, id, input, parts.work));
      },
      page: backToFreight('freight.waterfall.done', pathId),
    }),
  ];
}
