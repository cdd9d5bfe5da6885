import { Type } from '@sinclair/typebox';
import { timestamp } from '../kernel/fields.ts';
import { PAGING_INPUT } from '../shipments/index.ts';
import type { MOVES } from './states.ts';
import { STATES } from './tables.ts';

const time = (description?: string) => Type.Union([timestamp(description), Type.Null()]);

/** docs/reference.md#preview shipment" and our additions (state, pieces, location, carrier, delivered). */
export const MILKRUN_SCHEMA = Type.Object(
  {
    id: Type.Integer(),
    awb: Type.String({ description: 'master AWB' }),
    weight: Type.Union([Type.Integer(), Type.Null()], { description: 'kg, whole, rounded up' }),
    awd_received: time('first AWD message'),
    nfd_received: time('first NFD message'),
    special_handling_codes: Type.Union([Type.String(), Type.Null()]),
    warehouse_location: Type.Union([Type.String(), Type.Null()]),
    flight_number: Type.Union([Type.String(), Type.Null()]),
    ata: time('actual arrival (RCF)'),
    state: Type.Union(STATES.map((s) => Type.Literal(s))),
    pieces: Type.Union([Type.Integer(), Type.Null()]),
    location: Type.Union([Type.String(), Type.Null()], { description: 'airport of arrival' }),
    carrier: Type.Union([Type.Integer(), Type.Null()], { description: 'the trucking company it was dispatched to' }),
    delivered: time(),
  },
  { $id: 'MilkrunShipment', description: 'An import shipment of the milk-run (preview)' },
);

export const MILKRUN_DOCS = {
  list: {
    summary: 'A milk-run list (trucking 73–75, forwarding 80–84, handling 70–72 and 78)',
    path: { id: Type.Integer({ description: 'the list' }) },
    input: PAGING_INPUT,
    data: Type.Object({ shipments: Type.Array(MILKRUN_SCHEMA) }),
    preview: true,
  },
  move: (move: (typeof MOVES)[number]) => ({
    summary: `Milk-run move: ${move}${move === 'dispatch' ? ' (to a trucking company: carrier)' : ''}`,
    path: { id: Type.Integer({ description: 'the milk-run shipment' }) },
    ...(move === 'dispatch' ? { input: Type.Object({ carrier: Type.Integer({ description: 'the trucking company' }) }) } : {}),
    data: Type.Object({ shipment: MILKRUN_SCHEMA }),
    preview: true,
  }),
};
