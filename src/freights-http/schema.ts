import { Type, type TSchema } from '@sinclair/typebox';
import { timestamp } from '../kernel/fields.ts';
import { MAX_PIECE_LINES } from '../kernel/params.ts';
import { BID } from '../freights/index.ts';
import { FIELDS, MAX_WHITELIST, type FieldDef } from '../freights/index.ts';
import { DELIVERY, FREIGHT_STATUSES, MAX_HIDDEN, VISIBILITY } from '../freights/index.ts';
import { LIST, listRange, listsOfGroup } from '../freights/index.ts';
import { SEARCH_INPUT_PROPERTIES } from '../market/index.ts';
import type { BidEventType, EventDoc, FreightEventType } from '../events/index.ts';

/**
 * The freight as JSON Schema for the API description, derived from the field table that
 * parses and presents it (fields.ts): a field added there appears here.
 */

/** Fields that always have a value; everything else may be null (unset, or masked). */
const ALWAYS = new Set([
  'id',
  'class',
  'type',
  'status',
  'target',
  'visibility',
  'whitelist',
  'company',
  'user',
  'delivery_status',
  'book_now_currency',
  'refs',
  'created',
  'modified',
]);

const DESCRIPTIONS: Record<string, string> = {
  class: 'rfs (trucking, default), air (air freight), rfs_order',
  type: 'AHR tender (default), FFR booking request, DTR direct request, DTO direct order',
  target: 'derived from class: rfs 3, air 2',
  from: 'origin: postal code or IATA code (prefix removed)',
  to: 'destination: postal code or IATA code (prefix removed)',
  weight: 'kg, exact to the gram',
  deadline: 'end of the bidding window',
  price: 'set by the award (or for direct orders)',
  visibility: `${VISIBILITY.whitelist} only the companies in whitelist; ${VISIBILITY.ownCompany} own company only; ${VISIBILITY.everyone} and above every company`,
  whitelist: `company ids (taken with visibility ${VISIBILITY.whitelist}); shown to the owner only, null for every other company`,
  winner: 'company id, set by the award',
  book_now:
    'decisions.md §16: a price (> 0) at which a carrier may take the freight at once (POST /quotes/book/{id}.json); null: none. Frozen with the other terms once pending',
  book_now_currency: 'three letters, the currency of book_now and auto_award; EUR unless another is named',
  auto_award:
    'decisions.md §16: the owner’s walk-away price (> 0, in book_now_currency): a bid at or below it is awarded at once at its own amount. Shown to the owner only, null for every other company',
  refs: 'free JSON container, returned as sent (customer, commodity, incoterm, …); owner and winner only',
  share:
    'what of refs the owner shows carriers: `goods` (refs.commodity), `target_price` (refs.target_rate, refs.target_currency); none by default; owner and winner only',
  body: 'the body the load needs (decisions.md §11: tautliner, box, reefer, flatbed, van, tank, other); null: any. A load that names one fits only vehicle offers of that body',
  loading_meters:
    'loading metres the load takes (0 to 13.6, up to 2 decimals); it fits only vehicle offers with at least as many, or none named',
  adr_class:
    'UN dangerous-goods class under ADR, as the enumeration writes it (class one to nine, with the divisions of classes four, five and six: 4.1 …); null: no dangerous goods named. An ADR load fits only vehicle offers with adr = 1',
  temperature_min:
    '°C, -40 to 40 (one decimal): the lowest the load may be kept at. Only for body reefer (ignored with a warning otherwise, emptied when the body changes away from reefer); at most temperature_max',
  temperature_max: '°C, -40 to 40 (one decimal): the highest the load may be kept at; reefer only, at least temperature_min',
  pallet_exchange: 'pallets are exchanged at loading and delivery (1) or not (0); null: not said',
  shared:
    'the refs the owner shares (share), for every company that sees the freight unmasked: only the shared keys, the rate as a number; null when nothing is shared or the freight is masked',
};

function valueSchema(def: FieldDef, input: boolean): TSchema {
  const description = DESCRIPTIONS[def.api];
  const o = description ? { description } : {};
  const k = def.kind;
  switch (k.type) {
    case 'text':
      return Type.String({ ...o, maxLength: k.max });
    case 'enum':
      return Type.Union(
        k.values.map((v) => Type.Literal(v)),
        o,
      );
    case 'decimal':
      return input
        ? Type.Union([Type.Number(), Type.String()], {
            ...o,
            description: `${description ?? 'a number'}; also as text, a decimal comma accepted`,
          })
        : Type.Number(o);
    case 'int':
      return Type.Integer({ ...o, minimum: k.min, maximum: k.max });
    case 'flag':
      return Type.Integer({ ...o, minimum: 0, maximum: 1, description: '1 = yes' });
    case 'time':
      return input ? Type.String({ ...o, description: 'YYYY-MM-DD HH:MM[:SS]; a date without time is dropped' }) : timestamp(description);
    case 'deadline':
      return input
        ? Type.String({ ...o, description: 'YYYY-MM-DD HH:MM[:SS] or relative: +N minutes|hours|days|weeks' })
        : timestamp(description);
    case 'ids':
      return Type.Array(Type.Integer({ minimum: 1 }), { ...o, maxItems: MAX_WHITELIST });
    case 'refs':
      return Type.Object({}, { ...o, additionalProperties: true });
    case 'set': {
      const item = Type.Union(k.values.map((v) => Type.Literal(v)));
      return input
        ? Type.Union([Type.Array(item, { maxItems: k.values.length * 4 }), Type.String()], {
            ...o,
            description: `${description}; as a list or comma separated, empty for none`,
          })
        : Type.Array(item, { ...o, uniqueItems: true });
    }
    case 'shared':
      return Type.Object(
        {
          commodity: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'refs.commodity (share: goods)' })),
          target_rate: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: 'refs.target_rate (share: target_price)' })),
          target_currency: Type.Optional(
            Type.Union([Type.String(), Type.Null()], { description: 'refs.target_currency (share: target_price)' }),
          ),
        },
        { ...o, additionalProperties: false },
      );
    case 'currency':
      return Type.String({ ...o, pattern: '^[A-Za-z]{3}$' });
    case 'location':
      return input
        ? Type.String({ description: 'airport:<IATA>, city:<postal code>, city:<CC>-<postal code>, or a bare IATA code' })
        : Type.String(o);
    case 'id':
      return Type.Integer(o);
  }
}

const PIECE_OUT = Type.Object(
  {
    pieces: Type.Union([Type.Integer(), Type.Null()]),
    depth: Type.Union([Type.Number(), Type.Null()], { description: 'cm' }),
    width: Type.Union([Type.Number(), Type.Null()], { description: 'cm' }),
    height: Type.Union([Type.Number(), Type.Null()], { description: 'cm' }),
    weight: Type.Union([Type.Number(), Type.Null()], { description: 'kg' }),
    stackable: Type.Union([Type.Integer(), Type.Null()]),
    weight_per_piece: Type.Union([Type.Integer(), Type.Null()], { description: '1: weight applies per piece' }),
    refs: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
      description: 'awb, uld; shown to owner and winner only',
    }),
  },
  { $id: 'PieceLine', description: 'A line of pieces (api.md, Piece line)' },
);

const PIECE_IN = Type.Object(
  {
    pieces: Type.Optional(Type.Integer({ minimum: 0 })),
    depth: Type.Optional(Type.Number({ minimum: 0 })),
    width: Type.Optional(Type.Number({ minimum: 0 })),
    height: Type.Optional(Type.Number({ minimum: 0 })),
    weight: Type.Optional(Type.Number({ minimum: 0 })),
    stackable: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
    weight_per_piece: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
    refs: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { description: 'a piece line (unknown keys are ignored with a warning)' },
);

const text = (description: string) => Type.String({ description });

/** A freight as GET /freights/view answers it in `data.route` (lists: the same without `_bids`). */
export const FREIGHT_SCHEMA = Type.Object(
  {
    ...Object.fromEntries(
      FIELDS.map((def) => {
        const schema = def.api === 'status' ? Type.Union(FREIGHT_STATUSES.map((s) => Type.Literal(s))) : valueSchema(def, false);
        return [
          def.api,
          ALWAYS.has(def.api) && !def.hide ? schema : Type.Union([schema, Type.Null()], { description: schema.description }),
        ];
      }),
    ),
    _route_pieces: Type.Optional(Type.Array(PIECE_OUT)),
    _bids: Type.Optional(
      Type.Array(BID.schema, {
        description: 'only while open, pending or taken: all bids for the owner, the caller’s own otherwise; absent is not "no bids"',
      }),
    ),
    _company: Type.Optional(
      Type.Object(
        {
          id: Type.Integer(),
          name: Type.String(),
          verified: Type.Boolean({ description: 'verified by the operator (decisions.md §12): the verified mark' }),
        },
        { description: 'the owning company' },
      ),
    ),
    waterfall: Type.Optional(
      Type.Union(
        [
          Type.Object(
            {
              carriers: Type.Union([Type.Array(Type.Integer()), Type.Null()], { description: 'the carriers in order (owner only)' }),
              prices: Type.Union([Type.Array(Type.Number()), Type.Null()], { description: 'each carrier’s price (owner only)' }),
              currency: Type.Union([Type.String(), Type.Null()], { description: 'owner only' }),
              minutes: Type.Union([Type.Integer(), Type.Null()], { description: 'each turn’s length (owner only)' }),
              step: Type.Union([Type.Integer(), Type.Null()], {
                description: '0-based index of the carrier whose turn it is (owner only)',
              }),
              step_until: Type.Union([timestamp(), Type.Null()], {
                description: 'the end of the running turn (owner; the carrier in its turn)',
              }),
              // biome-ignore lint/suspicious/noThenProperty: docs/reference.md#one-step names the field `then`
              then: Type.Union([Type.Literal('market'), Type.Literal('stop'), Type.Null()], {
                description: 'after the last turn (owner only)',
              }),
              state: Type.Union(
                [
                  Type.Literal('running'),
                  Type.Literal('booked'),
                  Type.Literal('market'),
                  Type.Literal('stopped'),
                  Type.Literal('ended'),
                  Type.Null(),
                ],
                {
                  description:
                    'owner only: running; booked (a carrier took it); market (went to every company); stopped (expired after the last turn); ended (the freight left the market otherwise)',
                },
              ),
              guide: Type.Union([Type.Boolean(), Type.Null()], {
                description: 'the carriers came from the owner’s contracts (owner only)',
              }),
            },
            { description: 'decisions.md §16: the freight’s waterfall offer' },
          ),
          Type.Null(),
        ],
        {
          description:
            'GET /freights/view only: the waterfall (decisions.md §16), all of it for the owner, the turn’s end for the carrier whose turn it is; null for anyone else or without one',
        },
      ),
    ),
    f_from: text('origin as CODE (CC); masked: xxx (XX); unset: a placeholder in the caller’s language'),
    f_to: text('destination, as f_from'),
    f_etd: text('YYYY-MM-DD HH:MM or a placeholder'),
    f_eta: text('YYYY-MM-DD HH:MM or a placeholder'),
    f_etd_end: text('YYYY-MM-DD HH:MM or a placeholder'),
    f_eta_end: text('YYYY-MM-DD HH:MM or a placeholder'),
    caption: text('<f_from> to <f_to> - (<display_id>)'),
    display_id: Type.Union([Type.String(), Type.Number()], { description: 'refs.customer, else the id' }),
    info: text('weight, pieces and category for display'),
    delivery_status_in_words: text('delivery status for display'),
    list_icon: Type.Union([Type.Literal('truck'), Type.Literal('plane')]),
    media_types: Type.Array(Type.Union([Type.Literal('road'), Type.Literal('air')])),
    editable: Type.Boolean({ description: 'the caller may edit it now' }),
  },
  {
    $id: 'Freight',
    description:
      'A freight (transport request); the key inside data is `route` (api.md, Freight). Fields of other companies’ freights can be masked (null).',
  },
);

/** The body of POST /freights/add and /freights/edit: every writable field of the table, all optional. */
export const FREIGHT_INPUT_SCHEMA = Type.Object(
  {
    ...Object.fromEntries(FIELDS.filter((def) => def.input !== 'server').map((def) => [def.api, Type.Optional(valueSchema(def, true))])),
    pieces: Type.Optional(
      Type.Array(PIECE_IN, { maxItems: MAX_PIECE_LINES, description: 'replaces the piece lines; always send the complete list' }),
    ),
    eta_range: Type.Optional(text('"<start> to <end>": fills eta and eta_end (any other separator leaves both empty)')),
    etd_range: Type.Optional(text('"<start> to <end>": fills etd and etd_end')),
  },
  {
    description:
      'Freight fields; unknown or unreadable fields are ignored and named in `warnings`. company, user and target are the server’s.',
  },
);

const ID = (description: string) => Type.Integer({ minimum: 1, description });

/** A load as the caller marked it (POST /freights/hide, /freights/unhide). */
const HIDDEN_MARK = Type.Object({
  id: Type.Integer({ description: 'the freight id' }),
  hidden: Type.Boolean({ description: 'whether the load is now hidden from the caller’s market' }),
});

/**
 * GET /freights/enlist as it answers: Freights, and for the other modules' lists on it (TMS 51-53,
 * app.ts passes them) their own rows, named with their ids (`items` of each ExternalList).
 */
export function freightEnlistDoc(otherLists: ReadonlyMap<number, { items: TSchema }>) {
  const idsOf = new Map<TSchema, number[]>();
  for (const [id, list] of otherLists) idsOf.set(list.items, [...(idsOf.get(list.items) ?? []), id]);
  const others = [...idsOf].map(([schema, ids]) => `${schema.$id ?? 'its rows'} for ${ids.join(', ')}`);
  const description = `${others.length ? `Freights; ${others.join('; ')}. ` : ''}No total count: the last page is the first one shorter than limit.`;
  return {
    ...FREIGHT_DOCS.enlist,
    data: Type.Object({
      routes: Type.Array(idsOf.size ? Type.Union([FREIGHT_SCHEMA, ...idsOf.keys()]) : FREIGHT_SCHEMA, { description }),
    }),
  };
}

export const FREIGHT_DOCS = {
  add: {
    summary: 'Create a freight (a draft; open with winner_direct)',
    description: 'Answers the freight flat in data (id at data.id). Unknown or unreadable fields are ignored and named in warnings.',
    input: Type.Composite([
      FREIGHT_INPUT_SCHEMA,
      Type.Object({
        winner_direct: Type.Optional(
          ID(`a company: the freight opens at once for it alone (visibility ${VISIBILITY.whitelist}, whitelist [winner_direct])`),
        ),
        pricing_search_id: Type.Optional(
          ID('a stored rate search of the caller’s company: from, to, weight and pieces taken from it (also as query parameter)'),
        ),
        type: Type.Optional(
          Type.Union(
            ['AHR', 'FFR', 'DTR', 'DTO'].map((t) => Type.Literal(t)),
            { description: 'also as query parameter; default AHR' },
          ),
        ),
      }),
    ]),
    data: FREIGHT_SCHEMA,
    links: {
      read: {
        to: 'GET /freights/view/:id',
        description: 'The freight just created, as GET reads it.',
        parameters: { id: '$response.body#/data/id' },
      },
      edit: {
        to: 'POST /freights/edit/:id',
        description: 'Change fields of the freight just created (only those sent change).',
        parameters: { id: '$response.body#/data/id' },
      },
      publish: {
        to: 'POST /freights/view/:id',
        description: 'Publish the draft just created (answers 302: verify with GET /freights/view/{id}.json).',
        parameters: { id: '$response.body#/data/id' },
        requestBody: { action: 'publish' },
      },
    },
  },
  edit: {
    summary: 'Change the sent fields of an own draft or open freight (a pending one is frozen: status error)',
    description:
      '`status` = `error` with `code`: `freight.edit.not_allowed` (not a draft or open freight), `freight.edit.waterfall_running` (a change of `visibility` or `whitelist` while the freight’s waterfall runs, decisions.md §16: each turn sets them; other fields stay editable); nothing changed.',
    path: { id: ID('the freight id') },
    input: FREIGHT_INPUT_SCHEMA,
    data: Type.Object({ route: FREIGHT_SCHEMA }),
  },
  view: {
    summary: 'A freight with its pieces and, while open, pending or taken, the bids the caller may see',
    path: { id: ID('the freight id') },
    data: Type.Object({ route: FREIGHT_SCHEMA }),
  },
  editForm: {
    summary: 'The freight to edit (reads like view)',
    path: { id: ID('the freight id') },
    data: Type.Object({ route: FREIGHT_SCHEMA }),
  },
  publish: {
    summary: 'Publish an own draft (action=publish); without action it reads like GET',
    path: { id: ID('the freight id') },
    input: Type.Object({
      action: Type.Optional(
        Type.Literal('publish', { description: 'publish; without it the POST reads like GET /freights/view/{id}.json' }),
      ),
      visibility: Type.Optional(
        Type.Integer({
          minimum: VISIBILITY.whitelist,
          description: `${VISIBILITY.whitelist} whitelist only, ${VISIBILITY.ownCompany} own company, ${VISIBILITY.everyone}+ everyone`,
        }),
      ),
      whitelist: Type.Optional(
        Type.Array(Type.Integer(), { description: `company ids; taken only with visibility ${VISIBILITY.whitelist}` }),
      ),
      deadline: Type.Optional(
        Type.String({ description: 'end of bidding: YYYY-MM-DD HH:MM[:SS] or +N minutes|hours|days|weeks; default now + 24 hours' }),
      ),
    }),
    data: Type.Object({ route: FREIGHT_SCHEMA }),
    answers: { 302: 'Always, whether the publish worked or not (api.md): verify with GET /freights/view/{id}.json (status open).' },
  },
  enlist: {
    summary:
      `A list of freights by filter id (${LIST.market} market, ${LIST.bidOn} bid on, ${LIST.lost} lost, ${LIST.won} won, ` +
      `${LIST.foreignArchive} archive; ${LIST.drafts} drafts, ${LIST.ownOpen} own open, ${LIST.withBids}/${LIST.withoutBids} with/without bids, ` +
      `${LIST.awarded} awarded, ${LIST.ownArchive} own archive; ${listRange(listsOfGroup('booking'))} booking requests; ` +
      `${listRange(listsOfGroup('tms'))} TMS)`,
    path: { filterId: Type.Integer({ description: 'the list' }) },
    input: Type.Object({
      page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
      sort: Type.Optional(Type.String({ description: 'Routes.<id|created|modified|deadline|etd|eta|weight>; default Routes.created' })),
      direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
      // Load search (docs/reference.md#load-search), src/freights/search.ts; unreadable ones are ignored with a warning.
      ...SEARCH_INPUT_PROPERTIES,
    }),
    data: Type.Object({
      routes: Type.Array(FREIGHT_SCHEMA, { description: 'no total count: the last page is the first one shorter than limit' }),
    }),
  },
  hide: {
    summary: `Hide a load from the caller’s market: it leaves list ${LIST.market} and its load search for this user (not for colleagues)`,
    description:
      `Per user. The load stays hidden until shown again (POST /freights/unhide/{id}) or until it leaves the market; GET /freights/hidden lists the hidden ones. ` +
      `Hiding a hidden load again changes nothing. A freight the caller may not see answers 404 like a missing one. At most ${MAX_HIDDEN} loads hidden at once ` +
      '(hides of loads no longer in the market are dropped first).',
    path: { id: ID('the freight id') },
    data: Type.Object({ freight: HIDDEN_MARK }),
    links: {
      hidden: { to: 'GET /freights/hidden', description: 'The loads the caller hides.', parameters: {} },
    },
  },
  unhide: {
    summary: `Show a hidden load again in the caller’s market (list ${LIST.market})`,
    description: 'Showing a load that is not hidden changes nothing. A freight the caller neither hides nor may see answers 404.',
    path: { id: ID('the freight id') },
    data: Type.Object({ freight: HIDDEN_MARK }),
  },
  hidden: {
    summary: `The loads of the market (list ${LIST.market}) the caller hides, newest first by creation, as list ${LIST.market} presents them`,
    description: 'Per user: a colleague’s hides are not here. Loads that left the market or were bid on are not listed.',
    input: Type.Object({
      page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    }),
    data: Type.Object({
      routes: Type.Array(FREIGHT_SCHEMA, { description: 'no total count: the last page is the first one shorter than limit' }),
    }),
  },
  revoke: {
    summary: 'Withdraw an own draft, open or pending freight',
    path: { id: ID('the freight id') },
    data: Type.Object({ route: FREIGHT_SCHEMA }),
  },
  archive: {
    summary: 'Archive an own expired, revoked or closed freight',
    path: { id: ID('the freight id') },
    data: Type.Object({ route: FREIGHT_SCHEMA }),
  },
  delivery: {
    summary: `Delivery progress of a taken freight, by owner or winner: ${DELIVERY.notStarted} not started, ${DELIVERY.pickedUp} picked up, ${DELIVERY.inTransit} in transit, ${DELIVERY.delivered} delivered (closes it)`,
    path: { id: ID('the freight id') },
    input: Type.Object({ delivery_status: Type.Integer({ minimum: DELIVERY.notStarted, maximum: DELIVERY.delivered }) }),
    data: Type.Object({ route: FREIGHT_SCHEMA }),
  },
  request: {
    summary: 'A booking request (type FFR, a draft) from a rate line, a flight, or directly to a provider company',
    path: {
      entity: Type.Union([Type.Literal('rate'), Type.Literal('flight'), Type.Literal('direct')]),
      objId: ID('the rate line, flight or provider company'),
    },
    input: FREIGHT_INPUT_SCHEMA,
    data: Type.Object({ route: FREIGHT_SCHEMA }),
  },
} as const;

const ROUTE_EVENT = Type.Object({ route: FREIGHT_SCHEMA });
const BID_EVENT = Type.Object({
  bid: BID.schema,
  route: Type.Union([FREIGHT_SCHEMA, Type.Null()], { description: 'the freight as the recipient may see it now; null if it may not' }),
});
/** Who receives a freight event as it changes hands (freights/events.ts planFreightEvent). */
const FREIGHT_PARTIES =
  'the owner; the winner once there is one; the companies of the whitelist of a freight addressed to them (visibility -2) and every company with a bid that is not revoked, each while its role lets it see the freight (a former bidder sees it masked).';
const BID_PARTIES = 'the freight’s owner and the bidder (its own bid only); `route` as each may see the freight.';

const STATUS_LINE = Type.Object({
  code: Type.String({ description: 'status code (RCS, DEP, NFD, DLV, …)' }),
  time: timestamp(),
  location: Type.Union([Type.String(), Type.Null()], { description: 'airport (IATA)' }),
  flight_number: Type.Union([Type.String(), Type.Null()]),
  pieces: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'the pushing company only' })),
  weight: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: 'kg; the pushing company only' })),
  special_handling_codes: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'the pushing company only' })),
  warehouse_location: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'the pushing company only' })),
});

/** The events of a freight's life, of its bids and of AWB statuses (freights/events.ts), for the API description. */
export const FREIGHT_EVENT_DOCS = {
  'freight.published': {
    summary: 'A freight was published (or created open for one company).',
    recipients: FREIGHT_PARTIES,
    data: ROUTE_EVENT,
  },
  'freight.updated': { summary: 'A freight’s fields changed (edit).', recipients: FREIGHT_PARTIES, data: ROUTE_EVENT },
  'freight.revoked': { summary: 'The owner withdrew a freight.', recipients: FREIGHT_PARTIES, data: ROUTE_EVENT },
  'freight.expired': { summary: 'A freight’s deadline passed without award.', recipients: FREIGHT_PARTIES, data: ROUTE_EVENT },
  'freight.awarded': { summary: 'Both sides confirmed a bid: the freight is taken.', recipients: FREIGHT_PARTIES, data: ROUTE_EVENT },
  'freight.delivery_status': {
    summary: 'The delivery progress of a taken freight changed.',
    recipients: 'the owner and the winner.',
    data: ROUTE_EVENT,
  },
  'booking.requested': {
    summary: 'A booking request (type FFR) was made from a rate line, a flight or to a provider.',
    recipients: 'the requesting company, and the provider once it may see the request.',
    data: ROUTE_EVENT,
  },
  'bid.created': { summary: 'A bid was submitted.', recipients: BID_PARTIES, data: BID_EVENT },
  'bid.updated': { summary: 'A bid was changed.', recipients: BID_PARTIES, data: BID_EVENT },
  'bid.confirmed': { summary: 'One side confirmed a bid.', recipients: BID_PARTIES, data: BID_EVENT },
  'bid.revoked': { summary: 'The bidder revoked its bid.', recipients: BID_PARTIES, data: BID_EVENT },
  'bid.countered': {
    summary: 'The freight’s owner answered a bid with its own price (decisions.md §16): `bid.counter`.',
    recipients: 'the bidder alone; `route` as it may see the freight.',
    data: BID_EVENT,
  },
  'freight.offered': {
    summary:
      'A waterfall’s turn started (decisions.md §16): the freight is offered to the recipient alone until `step_until`, to take at `route.book_now` (POST /quotes/book/{id}.json) or pass (POST /quotes/decline/{id}.json).',
    recipients: 'the carrier whose turn it is.',
    data: Type.Object({
      route: FREIGHT_SCHEMA,
      step_until: timestamp('the end of the recipient’s turn; then the next carrier’s turn starts'),
    }),
  },
  'shipment.status': {
    summary: 'Status events of an air waybill arrived (file push): one event per AWB.',
    recipients:
      'the pushing company (every field); when it is a party to a freight carrying the AWB (owner, winner, transport company), also the other parties, with the events as public tracking shows them, their freight ids and the sender.',
    data: Type.Object({
      awb: Type.String({ description: 'the air waybill number' }),
      events: Type.Array(STATUS_LINE),
      routes: Type.Optional(Type.Array(Type.Integer(), { description: 'the other parties only: their freights carrying the AWB' })),
      sender: Type.Optional(
        Type.Object(
          { id: Type.Integer(), name: Type.Union([Type.String(), Type.Null()]) },
          { description: 'the other parties only: the company that pushed the statuses' },
        ),
      ),
    }),
  },
} satisfies Record<FreightEventType | BidEventType | 'shipment.status' | 'freight.offered', EventDoc>;
