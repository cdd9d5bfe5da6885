import { Type } from '@sinclair/typebox';
import type { EndpointDoc } from '../kernel/doc.ts';
import { DEFAULT_MODES } from './kinds.ts';
import { MAIL_KINDS, MAIL_MODES } from './tables.ts';

/** The e-mail settings' parameters and answers (docs/reference.md#mail), for the API description. */

const MODE = Type.Union(
  MAIL_MODES.map((m) => Type.Literal(m)),
  { description: 'instant: each mail within a minute; daily: one digest at 07:00 (APP_TIMEZONE); off: none' },
);

const KIND_DESCRIPTIONS: Record<(typeof MAIL_KINDS)[number], string> = {
  alerts: 'saved-search alerts and vehicle matches',
  bids: 'bids, confirmations and awards on the company’s freights and bids',
  messages: 'messages beside a freight',
  offers: 'invitations to bid, booking requests (later: waterfall turns, tender invitations)',
  documents: 'documents the other party adds',
};

const EMAIL = Type.Object(
  Object.fromEntries(MAIL_KINDS.map((k) => [k, { ...MODE, description: `${KIND_DESCRIPTIONS[k]}; default ${DEFAULT_MODES[k]}` }])),
  { description: 'each kind of mail and how it reaches the user' },
);

const SETTINGS = Type.Object({
  email: EMAIL,
  sending: Type.Boolean({ description: 'whether this exchange sends e-mail at all (its operator set SMTP_URL)' }),
});

export const MAIL_DOCS = {
  get: {
    summary: 'The caller’s e-mail settings: for each kind of mail, instant, daily or off',
    data: SETTINGS,
  },
  set: {
    summary: 'Change the caller’s e-mail settings (the kinds given; the others stay)',
    description:
      'A kind this exchange does not know is ignored with a warning; a mode other than instant, daily or off refuses the request (nothing changes). A form sends email[alerts]=daily.',
    input: Type.Object({ email: Type.Partial(EMAIL) }),
    data: SETTINGS,
  },
} satisfies Record<string, EndpointDoc>;
