import { Type } from '@sinclair/typebox';
import type { Caller, Ctx } from '../kernel/context.ts';
import { fail, notFound, ok, redirect, type Outcome } from '../kernel/outcome.ts';
import { readId } from '../kernel/params.ts';
import { readLocaleDecimal } from '../kernel/locale.ts';
import { userEndpoint, type Endpoint, type PageResult } from '../kernel/route.tsx';
import { confirmBid, revokeBid, submitBid, type Transition } from './award.ts';
import { parseBid } from './fields.ts';
import './messages.ts';
import { AWARD_DATA, BID_DATA, BID_INPUT, presentBid } from './present.ts';

const freightPage = (id: number) => `/freights/view/${id}`;

/** Refusals and not-found as api.md answers them; `done` is the endpoint's own business. */
function refusal(ctx: Ctx<Caller>, result: Exclude<Transition, { kind: 'done' }>, as: 'error' | 'redirect'): Outcome {
  if (result.kind === 'not_found') return notFound();
  const message = ctx.t(result.reason);
  return as === 'redirect' ? redirect(freightPage(result.freightId), false, message) : fail(message);
}

/** HTML side: after a successful form post, back to the freight page with a message (post/redirect/get). */
function backToFreight(key: string) {
  return (outcome: Extract<Outcome, { kind: 'ok' | 'error' }>, ctx: Ctx<Caller>): PageResult => {
    const bid = (outcome.data as { bid?: { route: number } } | undefined)?.bid;
    if (outcome.kind === 'ok' && bid) return { redirect: freightPage(bid.route), message: ctx.t(key), ok: true };
    // A refused bid form goes back to its freight with the reason shown there.
    const route = readId(ctx.params.route);
    if (outcome.kind === 'error' && route !== undefined) return { redirect: freightPage(route), message: outcome.message, ok: false };
    return { title: ctx.t('quotes.title'), body: <p class="flash error">{outcome.kind === 'error' ? outcome.message : ''}</p> };
  };
}

/** HTML bid form: amounts in the user's language become plain decimals; anything unreadable is left for parseBid to refuse. */
function readMoneyAsTyped(ctx: Ctx<Caller>): void {
  for (const key of ['amount', 'rate_base', 'rate_fsc', 'rate_ssc']) {
    const value = readLocaleDecimal(ctx.params[key], ctx.language);
    if (value !== undefined) ctx.params[key] = value;
  }
}

/** Quotes (bids): submit, two-sided confirmation, revoke. The rules are in award.ts. */
export function quoteEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/quotes/add',
      doc: {
        summary: 'Submit a bid on a visible open or pending freight, or update the company’s own open bid',
        input: BID_INPUT,
        data: BID_DATA,
        answers: { 404: 'The freight (route) or the bid (id) does not exist or is not visible to the caller.' },
      },
      async handle(ctx) {
        // The page's bid form takes amounts as people write them (1.745,50 in German); the API keeps its readers.
        if (ctx.format === 'html') readMoneyAsTyped(ctx);
        const parsed = parseBid(ctx.params, ctx.t, ctx.caller.companyId);
        if (parsed.kind === 'no_such_bid') return notFound();
        if (parsed.kind === 'invalid') return fail(parsed.message);
        const result = await submitBid(ctx.db, ctx.clock, ctx.caller, parsed.input);
        if (result.kind !== 'done') return refusal(ctx, result, 'error');
        return ok({ bid: presentBid(result.bid, ctx.clock) }, parsed.warnings.length ? parsed.warnings : undefined);
      },
      page: backToFreight('quotes.submitted'),
    }),
    userEndpoint({
      method: 'POST',
      path: '/quotes/confirm/:id',
      doc: {
        summary: 'Confirm a bid, as the freight’s owner or as the bidder; the second side’s confirmation awards the freight',
        path: { id: Type.Integer({ description: 'the bid id' }) },
        data: AWARD_DATA,
        answers: {
          302: 'The first confirmation stage (waiting for the other side), or a confirmation that is not permitted. Verify with GET /freights/view/{route}.json: status and winner.',
        },
      },
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (id === undefined) return notFound();
        const result = await confirmBid(ctx.db, ctx.clock, ctx.caller, id);
        if (result.kind !== 'done') return refusal(ctx, result, 'redirect');
        // api.md: the first confirmation stage is a 302 to the freight page; the award a 200.
        if (!result.awarded) return redirect(freightPage(result.freight.id), true, ctx.t('quotes.confirmed_waiting'));
        return ok({ route: result.freight.id, bid: presentBid(result.bid, ctx.clock) });
      },
      page: backToFreight('quotes.awarded'),
    }),
    userEndpoint({
      method: 'POST',
      path: '/quotes/revoke/:id',
      doc: { summary: 'Revoke the company’s own open or pending bid', path: { id: Type.Integer({ description: 'the bid id' }) }, data: BID_DATA },
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (id === undefined) return notFound();
        const result = await revokeBid(ctx.db, ctx.clock, ctx.caller, id);
        if (result.kind !== 'done') return refusal(ctx, result, 'error');
        return ok({ bid: presentBid(result.bid, ctx.clock) });
      },
      page: backToFreight('quotes.revoked'),
    }),
  ];
}
