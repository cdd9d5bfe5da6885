import type { Warning } from '../kernel/outcome.ts';
import { readDecimal, readId, readString, type Params } from '../kernel/params.ts';
import type { FailureCode } from '../kernel/errors.ts';
import type { Translate } from '../kernel/i18n.ts';
import type { BidInput } from '../freights/index.ts';

export const NOTE_MAX = 2000;

export type ParsedBid =
  | { kind: 'ok'; input: BidInput; warnings: Warning[] }
  | { kind: 'invalid'; reason: FailureCode; vars?: Record<string, string | number> }
  /** An `id` that cannot be a bid id: the caller meant an update of a bid that cannot exist. */
  | { kind: 'no_such_bid' };

/**
 * Money as exact text with at most 2 decimals (the column is numeric(14,2)). More decimals are
 * refused, never rounded: a bid is an offer, and the server must not change what was offered.
 * Trailing zeros beyond the cents ("12.500") are harmless and accepted.
 */
export function readMoney(value: unknown): string | undefined {
  const text = readDecimal(value);
  if (text === undefined || text.startsWith('-')) return undefined;
  const [int, frac = ''] = text.split('.');
  const cents = frac.replace(/0+$/, '');
  if (cents.length > 2) return undefined;
  return cents ? `${int}.${cents}` : int!;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * The bid's field table. Required: `route` (on create), `amount` (> 0) and `currency_code`;
 * missing or unreadable, they make the answer `status: error`. The optional money components
 * follow docs/reference.md#the-api's lenient convention (unreadable: ignored, reported in `warnings`). Unknown
 * fields are ignored; company, user, display company, type and status are the server's.
 */
export function parseBid(params: Params, t: Translate, callerCompany: number): ParsedBid {
  const warnings: Warning[] = [];
  const id = present(params.id) ? readId(params.id) : undefined;
  const route = readId(params.route);
  if (present(params.id) && id === undefined) return { kind: 'no_such_bid' };
  if (id === undefined && route === undefined) return { kind: 'invalid', reason: 'quotes.route_required' };

  const amount = readMoney(params.amount);
  if (amount === undefined || Number(amount) <= 0) return { kind: 'invalid', reason: 'quotes.amount_required' };
  const currency = readString(params.currency_code)?.trim();
  if (!currency || !/^[A-Za-z]{3}$/.test(currency)) return { kind: 'invalid', reason: 'quotes.currency_required' };

  const input: BidInput = { id, route, amount, currency_code: currency.toUpperCase() };
  for (const field of ['rate_base', 'rate_fsc', 'rate_ssc'] as const) {
    if (!(field in params)) continue;
    if (params[field] === null || params[field] === '') {
      input[field] = null;
      continue;
    }
    const value = readMoney(params[field]);
    if (value === undefined) warnings.push({ field, reason: t('quotes.warning.money') });
    else input[field] = value;
  }
  if ('note' in params) {
    const note = params.note === null ? null : readString(params.note);
    if (note !== undefined) {
      if (note !== null && note.length > NOTE_MAX) return { kind: 'invalid', reason: 'quotes.note_too_long', vars: { max: NOTE_MAX } };
      input.note = note === null || note.trim() === '' ? null : note;
    }
  }
  // display_company_id is the server's (the bidder company): another company cannot be shown as the bidder.
  if (present(params.display_company_id) && readId(params.display_company_id) !== callerCompany) {
    warnings.push({ field: 'display_company_id', reason: t('quotes.warning.display_company') });
  }
  return { kind: 'ok', input, warnings };
}
