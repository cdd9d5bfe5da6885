import { Type } from '@sinclair/typebox';
import { BID } from '../freights/index.ts';

/** POST /quotes/add: the parameters a caller may send (everything else about a bid is the server's). */
export const BID_INPUT = Type.Object({
  id: Type.Optional(Type.Integer({ description: 'update this bid of the caller’s company (while open); without it a new bid is created' })),
  route: Type.Optional(Type.Integer({ description: 'the freight id; required for a new bid' })),
  amount: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.String()], {
    description: 'required; at most 2 decimals (never rounded); a decimal comma is accepted',
  }),
  currency_code: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'required, e.g. EUR' }),
  rate_base: Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()])),
  rate_fsc: Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()])),
  rate_ssc: Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()])),
  note: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
});

export const BID_DATA = Type.Object({ bid: BID.schema });
export const AWARD_DATA = Type.Object({ route: Type.Integer({ description: 'the awarded freight' }), bid: BID.schema });
