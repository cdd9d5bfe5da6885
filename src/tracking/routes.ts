import { Type } from '@sinclair/typebox';
import { fail, ok } from '../kernel/outcome.ts';
import { readInt, readString } from '../kernel/params.ts';
import { publicEndpoint, type Endpoint } from '../kernel/route.tsx';
import { awbCheckDigitValid, normaliseAwb, eventsOfCompanies } from '../files/index.ts';
import { involvedCompanies } from './policy.ts';

/**
 * GET /freights/track/{query} without token (docs/reference.md#freights): the AWB, its check digit and the
 * status events of the companies involved in the shipment (policy.ts). Only those four event
 * fields leave the server: no price, company, address or refs.
 */
export function trackingEndpoints(): Endpoint[] {
  return [
    publicEndpoint({
      method: 'GET',
      path: '/freights/track/:query',
      doc: {
        summary: 'Track a shipment by AWB without a token: check digit and status events of the companies involved',
        path: { query: Type.String({ maxLength: 100, description: 'AWB NNN-NNNNNNNN or 11 digits' }) },
        input: Type.Object({
          type: Type.Optional(Type.Literal('awb', { default: 'awb' })),
          fullstring: Type.Optional(Type.Integer({ default: 1, description: '0: every character but digits is dropped first' })),
        }),
        data: Type.Object({
          tracking: Type.Object({
            awb: Type.String(),
            valid: Type.Boolean({ description: 'the check digit holds' }),
            events: Type.Array(
              Type.Object({
                code: Type.String(),
                time: Type.Union([Type.String(), Type.Null()]),
                location: Type.Union([Type.String(), Type.Null()]),
                flight_number: Type.Union([Type.String(), Type.Null()]),
              }),
              { description: 'oldest first' },
            ),
          }),
        }),
      },
      async handle(ctx) {
        const type = (readString(ctx.params.type) ?? 'awb').toLowerCase();
        if (type !== 'awb') return fail(ctx.t, 'tracking.unsupported_type');
        const fullstring = readInt(ctx.params.fullstring) !== 0;
        const query = (ctx.path.query ?? '').slice(0, 100);
        const awb = normaliseAwb(query, fullstring ? 'space' : 'non-digits');
        if (!awb) return ok({ tracking: { awb: query.trim(), valid: false, events: [] } });
        const rows = await eventsOfCompanies(ctx.db, awb, await involvedCompanies(ctx.db, awb));
        const events = rows.map((r) => ({
          code: r.code,
          time: ctx.clock.format(r.event_time),
          location: r.location,
          flight_number: r.flight_number,
        }));
        return ok({ tracking: { awb, valid: awbCheckDigitValid(awb), events } });
      },
    }),
  ];
}
