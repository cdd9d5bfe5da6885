import { Type, type TSchema } from '@sinclair/typebox';
import type { EventDoc } from '../events/index.ts';
import { LOADS_MAX, MAX_INVITED, MAX_ITEMS, MAX_LANES, NAME_MAX, NOTE_MAX, RANK_MAX, TENDER_STATUSES, WEIGHT_MAX } from './tables.ts';

/** The lane tenders' API description (docs/reference.md#tenders): tenders, sealed bids, the award, contracts, and their events. */

const NULLABLE = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const COMPANY = Type.Object({ id: Type.Integer(), name: Type.String() });
const PATTERN = (side: string) =>
  Type.String({
    description: `${side}: one pattern of the load search (decisions.md §7): \`DE\`, \`DE-60\`, \`airport:FRA\`; answered in its normal form`,
  });
const ERRORS = (codes: string) => `\`status\` = \`error\` with \`code\`: ${codes}; nothing changed.`;

const BID = Type.Object(
  {
    company: Type.Integer({ description: 'the bidding company' }),
    company_name: Type.String(),
    price: Type.Number({ description: 'per load, in the tender’s currency' }),
    capacity: Type.Integer({ description: 'loads a month' }),
  },
  { description: 'A sealed bid' },
);

const LANE = Type.Object({
  id: Type.Integer(),
  position: Type.Integer({ description: '1-based, in the order given' }),
  from: PATTERN('origin'),
  to: PATTERN('destination'),
  loads: Type.Integer({ description: 'expected loads a month' }),
  weight: NULLABLE(Type.Number({ description: 'kg' })),
  body: NULLABLE(Type.String({ description: 'as decisions.md §11' })),
  note: NULLABLE(Type.String()),
  bid: Type.Optional(
    NULLABLE(
      Type.Object(
        { price: Type.Number(), capacity: Type.Integer() },
        { description: 'a bidder’s own bid on the lane (only ever its own); null: none' },
      ),
    ),
  ),
  bids: Type.Optional(
    Type.Array(BID, { description: 'the owner’s view: every bid, sorted by price, only once the deadline has passed; before it empty' }),
  ),
});

export const TENDER = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    company: COMPANY,
    status: Type.Union(
      TENDER_STATUSES.map((s) => Type.Literal(s)),
      { description: '`draft`, `open` (published, before the deadline), `closed` (the deadline passed), `awarded`' },
    ),
    currency: Type.String(),
    valid_from: Type.String({ description: 'YYYY-MM-DD: the contract period’s first day' }),
    valid_to: Type.String({ description: 'YYYY-MM-DD: its last day' }),
    deadline: Type.String({ description: 'YYYY-MM-DD HH:MM:SS in APP_TIMEZONE: bids close' }),
    invited: Type.Optional(Type.Array(Type.Integer(), { description: 'the owner’s view: invited company ids; empty: every company' })),
    created: Type.String(),
    published: NULLABLE(Type.String()),
    lanes: Type.Array(LANE),
  },
  {
    description:
      'A lane tender as the caller may see it: a bidder sees its own bids only, the owner every bid once the deadline has passed.',
  },
);

const TENDER_ROW = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  company: COMPANY,
  status: Type.String(),
  currency: Type.String(),
  valid_from: Type.String(),
  valid_to: Type.String(),
  deadline: Type.String(),
  lanes_count: Type.Integer(),
});

export const CONTRACT = Type.Object(
  {
    id: Type.Integer(),
    tender: Type.Integer({ description: 'the tender’s id' }),
    lane: Type.Integer({ description: 'the tender lane’s id' }),
    from: PATTERN('origin'),
    to: PATTERN('destination'),
    shipper: COMPANY,
    carrier: COMPANY,
    rank: Type.Integer({ description: '1 = primary, 2… backups' }),
    price: Type.Number({ description: 'per load: the carrier’s bid' }),
    currency: Type.String(),
    loads: Type.Integer({ description: 'expected loads a month' }),
    valid_from: Type.String({ description: 'YYYY-MM-DD' }),
    valid_to: Type.String({ description: 'YYYY-MM-DD' }),
  },
  { description: 'An awarded lane with both parties' },
);

const ID = { id: Type.Integer({ description: 'the tender id' }) };

export const TENDER_DOCS = {
  add: {
    summary:
      'Create a lane tender (a draft): the contract period, the bid deadline, the invited companies and 1–1,000 lanes (decisions.md §17)',
    description: `Any bad lane or field refuses the whole tender and nothing is stored: \`data.errors\` names the field (\`lanes[i].from\`) and the lane’s position (1-based). ${ERRORS('`tenders.name_invalid`, `tenders.period_invalid`, `tenders.deadline_invalid`, `tenders.currency_invalid`, `tenders.invited_invalid`, `tenders.lanes_invalid`, `tenders.lane_invalid`')}`,
    tag: 'tenders',
    input: Type.Object({
      name: Type.String({ minLength: 1, maxLength: NAME_MAX }),
      valid_from: Type.String({ format: 'date' }),
      valid_to: Type.String({ format: 'date' }),
      deadline: Type.String({ description: 'YYYY-MM-DD HH:MM in APP_TIMEZONE, in the future, not after the period’s end' }),
      currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'default EUR' })),
      invited: Type.Optional(
        Type.Array(Type.Integer({ minimum: 1 }), { maxItems: MAX_INVITED, description: 'company ids; empty: every company' }),
      ),
      lanes: Type.Array(
        Type.Object({
          from: PATTERN('origin'),
          to: PATTERN('destination'),
          loads: Type.Integer({ minimum: 1, maximum: LOADS_MAX }),
          weight: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: WEIGHT_MAX, description: 'kg' })),
          body: Type.Optional(Type.String({ description: 'tautliner, box, reefer, flatbed, van, tank or other' })),
          note: Type.Optional(Type.String({ maxLength: NOTE_MAX })),
        }),
        { minItems: 1, maxItems: MAX_LANES },
      ),
    }),
    data: Type.Object({ tender: TENDER }),
  },
  publish: {
    summary: 'Publish a draft tender (owner): `open`; event `tender.published` to the invited companies (every company when none)',
    description: ERRORS('`tenders.not_draft`, `tenders.closed` (its deadline has passed)'),
    tag: 'tenders',
    path: ID,
    data: Type.Object({ tender: TENDER }),
    answers: { 404: 'No such tender of the caller’s company.' },
  },
  index: {
    summary: 'The caller’s own tenders, those open to it (invited, before the deadline) and those it bid on; newest first',
    tag: 'tenders',
    data: Type.Object({ tenders: Type.Array(TENDER_ROW) }),
  },
  view: {
    summary:
      'A tender with its lanes, sealed: a bidder sees its own `bid` per lane; the owner sees `bids` once the deadline has passed (empty before)',
    tag: 'tenders',
    path: ID,
    data: Type.Object({ tender: TENDER }),
    answers: { 404: 'No such tender, or the caller’s company is neither its owner nor invited (or it is a draft of another company).' },
  },
  bid: {
    summary: 'Bid on lanes of an open tender (an invited company, before the deadline): replaces the company’s earlier bids on those lanes',
    description: `One bad item refuses the request whole (\`data.errors\` names \`bids[i].field\`). ${ERRORS('`tenders.bids_invalid`, `tenders.bid_invalid`, `tenders.own_tender`, `tenders.closed` (after the deadline)')}`,
    tag: 'tenders',
    path: ID,
    input: Type.Object({
      bids: Type.Array(
        Type.Object({
          lane: Type.Integer({ description: 'a lane id of this tender' }),
          price: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.String()], { description: 'per load, at most 2 decimals' }),
          capacity: Type.Integer({ minimum: 1, maximum: LOADS_MAX, description: 'loads a month' }),
        }),
        { minItems: 1, maxItems: MAX_ITEMS },
      ),
    }),
    data: Type.Object({ tender: TENDER }),
    answers: { 404: 'No such tender, or not open to the caller.' },
  },
  award: {
    summary: 'Award a tender’s lanes (owner, after the deadline): each to companies that bid on the lane, at their bid prices, ranked',
    description: `The awarded lanes become contracts; the tender becomes \`awarded\`. Events \`tender.awarded\` to each awarded company, \`tender.lost\` to the other bidders. ${ERRORS('`tenders.awards_invalid`, `tenders.award_invalid` (a lane not of the tender, a company that did not bid on it, a rank twice), `tenders.not_closed`, `tenders.already_awarded`')}`,
    tag: 'tenders',
    path: ID,
    input: Type.Object({
      awards: Type.Array(
        Type.Object({
          lane: Type.Integer(),
          company: Type.Integer({ description: 'a company that bid on that lane' }),
          rank: Type.Integer({ minimum: 1, maximum: RANK_MAX, description: '1 = primary, 2… backups' }),
        }),
        { minItems: 1, maxItems: MAX_ITEMS * 5 },
      ),
    }),
    data: Type.Object({ tender: TENDER, contracts: Type.Array(CONTRACT) }),
    answers: { 404: 'No such tender of the caller’s company.' },
  },
  contracts: {
    summary:
      'Every awarded lane the caller’s company is a party to, as shipper or carrier (decisions.md §17): the newest tender first, its lanes in order, each lane’s primary carrier before its backups',
    tag: 'tenders',
    data: Type.Object({ contracts: Type.Array(CONTRACT) }),
  },
};

const HEAD = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  company: COMPANY,
  currency: Type.String(),
  valid_from: Type.String(),
  valid_to: Type.String(),
  deadline: Type.String(),
  lanes: Type.Optional(Type.Integer({ description: 'the number of lanes' })),
});

export const TENDER_EVENT_DOCS = {
  'tender.published': {
    summary: 'A lane tender was published to the company (decisions.md §17): it may bid until the deadline.',
    recipients: 'the invited companies (every company when the tender invites none), except those that blocked the owner.',
    data: Type.Object({ tender: HEAD }),
  },
  'tender.awarded': {
    summary: 'The company was awarded lanes of a tender: its contracts (its own only).',
    recipients: 'each awarded company.',
    data: Type.Object({
      tender: HEAD,
      contracts: Type.Array(
        Type.Object({
          id: Type.Integer(),
          lane: Type.Integer(),
          from: Type.String(),
          to: Type.String(),
          rank: Type.Integer(),
          price: Type.Number(),
          currency: Type.String(),
          loads: Type.Integer(),
          carrier: COMPANY,
        }),
      ),
    }),
  },
  'tender.lost': {
    summary: 'A tender the company bid on was awarded without any lane to it.',
    recipients: 'every bidder that was awarded no lane.',
    data: Type.Object({ tender: HEAD }),
  },
} satisfies Record<'tender.published' | 'tender.awarded' | 'tender.lost', EventDoc>;
