import { Type } from '@sinclair/typebox';
import type { EventDoc } from '../events/index.ts';
import { field, presenter } from '../kernel/fields.ts';
import type { ProfileRead, RatingRead } from './store.ts';
import { AVERAGE_FROM, SCORE_MAX, SCORE_MIN, TEXT_MAX } from './tables.ts';

/** Company profiles, ratings and blocks (docs/reference.md#trust): presenters and the API description. */

const nullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const COMPANY_PROFILE = presenter<ProfileRead>()('CompanyProfile', 'A company as the exchange knows it (decisions.md §12)', {
  id: field.id('id'),
  name: field.text('name', 'the operator’s; not editable'),
  country: field.textOrNull('country', 'ISO 3166-1 alpha-2'),
  city: field.textOrNull('city'),
  postcode: field.textOrNull('postcode'),
  vat_id: field.textOrNull('vat_id', 'checked for its country’s format and check digits'),
  phone: field.textOrNull('phone'),
  website: field.textOrNull('website'),
  description: field.textOrNull('description'),
  fleet_size: field.idOrNull('fleet_size', 'vehicles in the fleet'),
  founded: field.idOrNull('founded', 'year'),
  member_since: field.time('created', 'when the company joined the exchange'),
  verified: field.computed(Type.Boolean({ description: 'verified by the operator' }), (row) => row.verified_at !== null),
  verified_at: field.timeOrNull('verified_at', 'when the operator verified it; null when not verified'),
  completed: field.computed(
    Type.Object(
      {
        as_owner: Type.Integer({ minimum: 0, description: 'its freights awarded to another company and delivered (closed)' }),
        as_carrier: Type.Integer({ minimum: 0, description: 'freights it won and delivered (closed)' }),
      },
      { description: 'freights awarded and closed' },
    ),
    (row) => row.completed,
  ),
  ratings: field.computed(
    Type.Object({
      count: Type.Integer({ minimum: 0 }),
      average: Type.Union([Type.Number({ minimum: SCORE_MIN, maximum: SCORE_MAX }), Type.Null()], {
        description: `to one decimal; null below ${AVERAGE_FROM} ratings`,
      }),
    }),
    (row) => ({ count: row.ratings.count, average: row.ratings.count >= AVERAGE_FROM ? row.ratings.average : null }),
  ),
});

export type ProfileView = ReturnType<typeof COMPANY_PROFILE.present>;

const COMPANY_REF = Type.Object(
  { id: Type.Integer(), name: Type.String(), verified: Type.Boolean({ description: 'verified by the operator' }) },
  { description: 'the rating company' },
);

export const RATING = presenter<RatingRead>()('Rating', 'A rating one party of a delivered freight gave the other (decisions.md §12)', {
  id: field.id('id'),
  score: field.id('score', `${SCORE_MIN} to ${SCORE_MAX}`),
  comment: field.text('comment'),
  created: field.time('created'),
  company: field.computed(COMPANY_REF, (r) => ({ id: r.rater_id, name: r.rater_name, verified: Boolean(r.rater_verified) })),
  company_name: field.text('rater_name', 'the rating company’s name'),
  rated: field.id('rated_id', 'the rated company'),
  display_id: field.text('display_id', 'the freight’s display id (its references for its parties, else its id); never price or addresses'),
  reply: field.textOrNull('reply', 'the rated company’s answer (once)'),
  replied: field.timeOrNull('replied'),
});

export type RatingView = ReturnType<typeof RATING.present>;

const ID = (description: string) => ({ id: Type.Integer({ description }) });
const BLOCKED_COMPANY = Type.Object({ id: Type.Integer(), name: Type.String() });
const PAGING = {
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

export const PROFILE_INPUT = Type.Object({
  country: Type.Optional(nullableText('two letters, ISO 3166-1 (DE); empty clears')),
  city: Type.Optional(Type.String({ maxLength: 100 })),
  postcode: Type.Optional(Type.String({ maxLength: 20 })),
  vat_id: Type.Optional(
    Type.String({ maxLength: 20, description: 'with its country prefix (DE…, FR…, EL for Greece), or without when country is set' }),
  ),
  phone: Type.Optional(Type.String({ maxLength: 40 })),
  website: Type.Optional(Type.String({ maxLength: 200, description: 'http(s) address; without scheme https:// is added' })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  fleet_size: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  founded: Type.Optional(Type.Integer({ minimum: 1800 })),
});

export const TRUST_DOCS = {
  view: {
    summary: 'A company’s profile: its details, the operator’s verification, completed freights and ratings (any logged-in user)',
    tag: 'companies',
    path: ID('the company id'),
    data: Type.Object({ company: COMPANY_PROFILE.schema }),
  },
  edit: {
    summary:
      'Change the caller’s own company’s profile (only the fields sent; empty clears). name, verified and the counts are not the company’s: ignored with a warning. Any invalid field refuses the change (status error, data.errors names each field).',
    tag: 'companies',
    input: PROFILE_INPUT,
    data: Type.Object({ company: COMPANY_PROFILE.schema }),
  },
  rate: {
    summary:
      'Rate the other party of a delivered (closed) freight, once per side: the owner rates the winner, the winner the owner. Anyone else: 404.',
    tag: 'companies',
    path: ID('the freight id'),
    input: Type.Object({
      score: Type.Integer({ minimum: SCORE_MIN, maximum: SCORE_MAX }),
      comment: Type.Optional(Type.String({ maxLength: TEXT_MAX })),
    }),
    data: Type.Object({ rating: RATING.schema }),
  },
  ratings: {
    summary: 'A company’s ratings, newest first, with paging',
    tag: 'companies',
    path: ID('the company id'),
    input: Type.Object(PAGING),
    data: Type.Object({ ratings: Type.Array(RATING.schema), count: Type.Integer({ description: 'all ratings of the company' }) }),
  },
  reply: {
    summary: 'Answer a rating of the caller’s company, once (another company’s rating: 404)',
    tag: 'companies',
    path: ID('the rating id'),
    input: Type.Object({ reply: Type.String({ maxLength: TEXT_MAX }) }),
    data: Type.Object({ rating: RATING.schema }),
  },
  block: {
    summary:
      'Block a company: its freights leave the caller’s company’s lists, searches, counts and alerts, and its bids on the company’s freights are refused',
    tag: 'companies',
    path: ID('the company id'),
    data: Type.Object({ company: Type.Object({ id: Type.Integer(), name: Type.String(), blocked: Type.Boolean() }) }),
  },
  unblock: {
    summary: 'Lift a block',
    tag: 'companies',
    path: ID('the company id'),
    data: Type.Object({ company: Type.Object({ id: Type.Integer(), name: Type.String(), blocked: Type.Boolean() }) }),
  },
  blocked: {
    summary: 'The companies the caller’s company has blocked',
    tag: 'companies',
    data: Type.Object({ companies: Type.Array(BLOCKED_COMPANY) }),
  },
};

/** The rating event (trust/routes.tsx), for the API description. */
export const TRUST_EVENT_DOCS = {
  'rating.received': {
    summary: 'A party of a delivered freight rated the company.',
    recipients: 'the rated company only.',
    data: Type.Object({ rating: RATING.schema }),
  },
} satisfies Record<'rating.received', EventDoc>;
