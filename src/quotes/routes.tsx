import { Type } from '@sinclair/typebox';
import type { Caller, Ctx } from '../kernel/context.ts';
import { PAGE_FORM_INVALID } from '../kernel/errors.ts';
import { fail, failWith, notFound, ok, redirect, type Answer, type Outcome } from '../kernel/outcome.ts';
import { readId } from '../kernel/params.ts';
import { readLocaleDecimal } from '../kernel/locale.ts';
import { userEndpoint, type Endpoint, type PageResult } from '../kernel/route.tsx';
import { NOTE_MAX, parseBid, readMoney } from './fields.ts';
import {
  confirmBid,
  presentBid,
  revokeBid,
  submitBid,
  type AwardPath,
  type BidView,
  type ConfirmRefusal,
  type RevokeRefusal,
  type SubmitRefusal,
  type Transition,
} from '../freights/index.ts';
import { freightPageFor } from '../freights-http/index.ts';
import { AWARD_DATA, BID_DATA, BID_INPUT } from './present.ts';
import type { MessageKey } from '../kernel/i18n.ts';

const freightPage = (id: number) => `/freights/view/${id}`;

/** A refused submission or revocation: `status` = `error` with the reason as its code; not found: 404. */
function refusal(ctx: Ctx<Caller>, result: Exclude<Transition<SubmitRefusal | RevokeRefusal>, { kind: 'done' }>): Outcome<never> {
  return result.kind === 'not_found' ? notFound() : fail(ctx.t, result.reason);
}

/** A refused confirmation: a 302 back to the freight page with the message (docs/reference.md#the-api); not found: 404. */
function refusedConfirmation(ctx: Ctx<Caller>, result: Exclude<Transition<ConfirmRefusal>, { kind: 'done' }>): Outcome<never> {
  return result.kind === 'not_found' ? notFound() : redirect(freightPage(result.freightId), false, ctx.t(result.reason));
}

/** The bid form as typed (HTML only): kept for the freight page when the bid is refused. */
export interface BidFormState {
  typed: Record<string, string>;
  /** field name -> message in the user's language */
  problems: Record<string, string>;
}

const TYPED_FIELDS = ['amount', 'currency_code', 'note', 'rate_base', 'rate_fsc', 'rate_ssc'];
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * HTML bid form: amounts in the user's language become plain decimals (1.745,50 in German), and
 * what cannot be a bid is said next to its field in the user's words (the API keeps its readers
 * and its messages). A price component the form cannot read refuses the bid here, where the API
 * would ignore it with a warning: a person who typed it means it.
 */
function readBidForm(ctx: Ctx<Caller>): BidFormState {
  const t = ctx.t;
  const typed: Record<string, string> = {};
  const problems: Record<string, string> = {};
  for (const key of TYPED_FIELDS) if (typeof ctx.params[key] === 'string') typed[key] = ctx.params[key] as string;
  const example = ctx.language === 'deu' ? '1.745,50' : '1,745.50';
  for (const key of ['amount', 'rate_base', 'rate_fsc', 'rate_ssc']) {
    const raw = ctx.params[key];
    if (blank(raw)) {
      if (key === 'amount') problems.amount = t('quotes.form.amount', { example });
      continue;
    }
    const value = readLocaleDecimal(raw, ctx.language);
    const money = value === undefined ? undefined : readMoney(value);
    if (money === undefined || (key === 'amount' && Number(money) <= 0))
      problems[key] = t(key === 'amount' ? 'quotes.form.amount' : 'quotes.form.component', { example });
    else ctx.params[key] = value;
  }
  const currency = typeof ctx.params.currency_code === 'string' ? ctx.params.currency_code.trim() : '';
  if (!/^[A-Za-z]{3}$/.test(currency)) problems.currency_code = t('quotes.form.currency');
  if (typeof ctx.params.note === 'string' && ctx.params.note.length > NOTE_MAX) problems.note = t('quotes.form.note', { max: NOTE_MAX });
  return { typed, problems };
}

/**
 * HTML side: after a successful form post, back to the freight page with a message
 * (post/redirect/get). A refused bid or action comes back as the freight page itself, with the
 * bid form as typed and each problem next to its field (or the refusal above the form).
 */
/** `awardedKey`: the flash when the bid came back accepted (a bid at or under the walk-away price is awarded at once). */
function backToFreight(key: MessageKey, awardedKey: MessageKey = key) {
  return async (outcome: Answer<{ bid: BidView }>, ctx: Ctx<Caller>, form?: BidFormState): Promise<PageResult> => {
    const bid = outcome.kind === 'ok' ? outcome.data.bid : undefined;
    if (outcome.kind === 'ok' && bid)
      return { redirect: freightPage(bid.route), message: ctx.t(bid.status === 'accepted' ? awardedKey : key), ok: true };
    const route = readId(ctx.params.route);
    if (outcome.kind === 'error' && route !== undefined) {
      const typed = form ?? { typed: {}, problems: {} };
      const message = Object.keys(typed.problems).length ? ctx.t('quotes.form.problems') : outcome.message;
      return freightPageFor(ctx, route, { bidForm: { ...typed, message } });
    }
    return { title: ctx.t('quotes.title'), body: <p class="flash error">{outcome.kind === 'error' ? outcome.message : ''}</p> };
  };
}

/**
 * Quotes (bids): submit, two-sided confirmation, revoke. The rules are the freights module's
 * (bidding.ts, beside the bids table); `award` is the award path app.ts built with its steps.
 */
export function quoteEndpoints(parts: { award: AwardPath }): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/quotes/add',
      doc: {
        summary: 'Submit a bid on a visible open or pending freight, or update the company’s own open bid',
        input: BID_INPUT,
        data: BID_DATA,
        answers: { 404: 'The freight (route) or the bid (id) does not exist or is not visible to the caller.' },
        links: {
          confirm: {
            to: 'POST /quotes/confirm/:id',
            description: 'Confirm the bid just placed (the bidder’s side; the owner confirms the same bid id from its side).',
            parameters: { id: '$response.body#/data/bid/id' },
          },
          freight: {
            to: 'GET /freights/view/:id',
            description: 'The freight bid on, with the bid in `_bids`.',
            parameters: { id: '$response.body#/data/bid/route' },
          },
        },
      },
      // The page's bid form takes amounts as people write them (1.745,50 in German); the API keeps its readers.
      read: (ctx) => (ctx.format === 'html' ? readBidForm(ctx) : undefined),
      async handle(ctx, form) {
        if (form && Object.keys(form.problems).length) return failWith(PAGE_FORM_INVALID, ctx.t('quotes.form.problems'));
        const parsed = parseBid(ctx.params, ctx.t, ctx.caller.companyId);
        if (parsed.kind === 'no_such_bid') return notFound();
        if (parsed.kind === 'invalid') return fail(ctx.t, parsed.reason, parsed.vars);
        const result = await submitBid(ctx.db, ctx.clock, ctx.caller, parsed.input, parts.award);
        if (result.kind !== 'done') return refusal(ctx, result);
        return ok({ bid: presentBid(result.bid, ctx.clock) }, parsed.warnings.length ? parsed.warnings : undefined);
      },
      page: backToFreight('quotes.submitted', 'quotes.submitted.awarded'),
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
        const result = await confirmBid(ctx.db, ctx.clock, ctx.caller, id, parts.award);
        if (result.kind !== 'done') return refusedConfirmation(ctx, result);
        // docs/reference.md#the-api: the first confirmation stage is a 302 to the freight page; the award a 200.
        if (!result.awarded) return redirect(freightPage(result.freight.id), true, ctx.t('quotes.confirmed_waiting'));
        return ok({ route: result.freight.id, bid: presentBid(result.bid, ctx.clock) });
      },
      page: backToFreight('quotes.awarded'),
    }),
    userEndpoint({
      method: 'POST',
      path: '/quotes/revoke/:id',
      doc: {
        summary: 'Revoke the company’s own open or pending bid',
        path: { id: Type.Integer({ description: 'the bid id' }) },
        data: BID_DATA,
      },
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (id === undefined) return notFound();
        const result = await revokeBid(ctx.db, ctx.clock, ctx.caller, id);
        if (result.kind !== 'done') return refusal(ctx, result);
        return ok({ bid: presentBid(result.bid, ctx.clock) });
      },
      page: backToFreight('quotes.revoked'),
    }),
  ];
}
