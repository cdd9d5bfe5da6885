import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { airportByCode } from '../airports/index.ts';
import type { DB } from '../db/schema.ts';
import { fail, ok } from '../kernel/outcome.ts';
import { offsetOf, readPageWindow, readString } from '../kernel/params.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { airportCodeOf } from '../places/index.ts';
import { FLIGHT, presentFlight } from './present.ts';
import { flightAdded, flightsPage } from './views.tsx';

/** An airport code (`FRA`, `airport:FRA`) the airport data knows, upper case; anything else undefined. */
const iata = (value: unknown) => {
  const text = readString(value)?.trim();
  if (!text || text.length > 100) return undefined;
  const code = airportCodeOf(text);
  return code !== null && airportByCode(code) ? code : undefined;
};

/** What a booking request takes from a flight (freights' POST /freights/request/flight/{id}): null when there is none. */
export async function flightForBooking(db: Kysely<DB>, id: number) {
  const flight = await db.selectFrom('flights').selectAll().where('id', '=', id).executeTakeFirst();
  return flight ? { provider: flight.company_id, from: flight.from_code, to: flight.to_code, etd: flight.etd, eta: flight.eta } : null;
}

/**
 * Flights, the `flight` entity of booking requests. A flight schedule is public on the
 * exchange: every company sees every flight (decided, docs/choices.md).
 */
export function flightEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/flights/add',
      doc: {
        summary: 'Add a flight the caller’s company provides (bookable with /freights/request/flight/{id})',
        input: Type.Object({
          from: Type.String({ description: 'IATA code (or airport:XXX)' }),
          to: Type.String({ description: 'IATA code (or airport:XXX)' }),
          etd: Type.String({ description: 'YYYY-MM-DD HH:MM[:SS]' }),
          eta: Type.String({ description: 'YYYY-MM-DD HH:MM[:SS], not before etd' }),
          flight_number: Type.String({ maxLength: 20 }),
        }),
        data: Type.Object({ flight: FLIGHT.schema }),
      },
      async handle(ctx) {
        const from = iata(ctx.params.from);
        const to = iata(ctx.params.to);
        const etd = ctx.clock.parse(ctx.params.etd);
        const eta = ctx.clock.parse(ctx.params.eta);
        const number = readString(ctx.params.flight_number)?.trim();
        if (!from || !to || !etd || !eta || eta < etd || !number || number.length > 20 || number.includes('\u0000'))
          return fail(ctx.t, 'flight.invalid');
        const row = await ctx.db
          .insertInto('flights')
          .values({
            company_id: ctx.caller.companyId,
            from_code: from,
            to_code: to,
            etd,
            eta,
            flight_number: number,
            created: ctx.clock.now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return ok({ flight: presentFlight(row, ctx) });
      },
      page: flightAdded,
    }),
    userEndpoint({
      method: 'GET',
      path: '/flights/index',
      doc: {
        summary: 'Every flight on the exchange, by departure',
        input: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1 })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        }),
        data: Type.Object({ flights: Type.Array(FLIGHT.schema) }),
      },
      async handle(ctx) {
        const paging = readPageWindow(ctx.params);
        const rows = await ctx.db
          .selectFrom('flights')
          .selectAll()
          .orderBy('etd')
          .orderBy('id')
          .limit(paging.limit)
          .offset(offsetOf(paging))
          .execute();
        return ok({ flights: rows.map((r) => presentFlight(r, ctx)) });
      },
      page(outcome, ctx) {
        return flightsPage(ctx, outcome.kind === 'ok' ? outcome.data.flights : [], readPageWindow(ctx.params));
      },
    }),
  ];
}

/** The flights' place in the menu. */
export const FLIGHTS_SECTION = { prefix: '/flights', href: '/flights/index', label: 'nav.flights' } as const;
