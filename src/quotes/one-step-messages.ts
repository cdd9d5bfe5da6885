import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** Deals in one step (docs/reference.md#one-step), their texts in English and German (app.ts installs them). */
export const ONE_STEP_MESSAGES = catalogue(
  {
    'quotes.one_step.blocked': 'Not possible: one of the two companies has blocked the other.',
    'quotes.book.no_price': 'This freight has no Book Now price.',
    'quotes.book.own_freight': 'Your company cannot book its own freight.',
    'quotes.book.not_available': 'This freight can no longer be booked: it is taken or out of the market.',
    'quotes.book.done': 'Booked: the freight is yours.',
    'quotes.book.button': 'Book now for {price}',
    'quotes.book.confirm': 'Book this freight for {price}? It is yours at once, with no further confirmation.',
    'quotes.counter.not_open': 'This bid or freight is no longer open.',
    'quotes.counter.own_bid': 'A counter-offer answers another company’s bid.',
    'quotes.counter.amount': 'amount: a positive number with at most 2 decimals is required',
    'quotes.counter.note': 'note: at most {max} characters',
    'quotes.counter.done': 'Counter-offer sent.',
    'quotes.accept.no_counter': 'There is no counter-offer to accept on this bid.',
    'quotes.accept.done': 'Counter-offer accepted: the freight is yours.',
    'quotes.decline.not_your_turn': 'It is not your company’s turn on this freight.',
    'quotes.decline.done': 'You passed. The next carrier has its turn.',
    'freight.waterfall.not_draft': 'Only a draft freight can be offered in a waterfall.',
    'freight.waterfall.bad_carrier': 'carriers: company {id} cannot be offered this freight (unknown, or your own company).',
    'freight.waterfall.carriers': 'carriers: 1 to 20 company ids, in order, each once',
    'freight.waterfall.price': 'price: a positive number with at most 2 decimals is required',
    'freight.waterfall.currency': 'currency: a three-letter currency code such as EUR',
    'freight.waterfall.minutes': 'minutes: a whole number from 1 to 1440',
    'freight.waterfall.then': 'then: market or stop',
    'freight.waterfall.no_contracts':
      'guide: none of your contracts covers this freight’s lane on its pickup date; name the carriers instead.',
    'freight.waterfall.done': 'Waterfall started: the first carrier has its turn.',
  },
  {
    'quotes.one_step.blocked': 'Nicht möglich: eine der beiden Firmen hat die andere gesperrt.',
    'quotes.book.no_price': 'Diese Fracht hat keinen Sofort-Buchen-Preis.',
    'quotes.book.own_freight': 'Ihre Firma kann ihre eigene Fracht nicht buchen.',
    'quotes.book.not_available': 'Diese Fracht kann nicht mehr gebucht werden: sie ist vergeben oder nicht mehr am Markt.',
    'quotes.book.done': 'Gebucht: die Fracht gehört Ihnen.',
    'quotes.book.button': 'Sofort buchen für {price}',
    'quotes.book.confirm': 'Diese Fracht für {price} buchen? Sie gehört Ihnen sofort, ohne weitere Bestätigung.',
    'quotes.counter.not_open': 'Dieses Gebot oder diese Fracht ist nicht mehr offen.',
    'quotes.counter.own_bid': 'Ein Gegenangebot antwortet auf das Gebot einer anderen Firma.',
    'quotes.counter.amount': 'amount: ein positiver Betrag mit höchstens 2 Nachkommastellen ist erforderlich',
    'quotes.counter.note': 'note: höchstens {max} Zeichen',
    'quotes.counter.done': 'Gegenangebot gesendet.',
    'quotes.accept.no_counter': 'Zu diesem Gebot gibt es kein Gegenangebot.',
    'quotes.accept.done': 'Gegenangebot angenommen: die Fracht gehört Ihnen.',
    'quotes.decline.not_your_turn': 'Ihre Firma ist bei dieser Fracht nicht an der Reihe.',
    'quotes.decline.done': 'Sie haben abgelehnt. Der nächste Frachtführer ist an der Reihe.',
    'freight.waterfall.not_draft': 'Nur eine Fracht im Entwurf kann nacheinander angeboten werden.',
    'freight.waterfall.bad_carrier': 'carriers: Firma {id} kann diese Fracht nicht angeboten werden (unbekannt, oder Ihre eigene Firma).',
    'freight.waterfall.carriers': 'carriers: 1 bis 20 Firmen-Ids, in Reihenfolge, jede einmal',
    'freight.waterfall.price': 'price: ein positiver Betrag mit höchstens 2 Nachkommastellen ist erforderlich',
    'freight.waterfall.currency': 'currency: ein dreistelliger Währungscode wie EUR',
    'freight.waterfall.minutes': 'minutes: eine ganze Zahl von 1 bis 1440',
    'freight.waterfall.then': 'then: market oder stop',
    'freight.waterfall.no_contracts':
      'guide: keiner Ihrer Verträge deckt die Relation dieser Fracht an ihrem Ladetag; nennen Sie stattdessen die Frachtführer.',
    'freight.waterfall.done': 'Angebot gestartet: der erste Frachtführer ist an der Reihe.',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof ONE_STEP_MESSAGES> {}
}

/** The codes of the one-step deals' refusals (kernel/errors.ts): code -> its English text. */
export const ONE_STEP_ERRORS = errorCodes(ONE_STEP_MESSAGES, [
  'quotes.one_step.blocked',
  'quotes.book.no_price',
  'quotes.book.own_freight',
  'quotes.book.not_available',
  'quotes.counter.not_open',
  'quotes.counter.own_bid',
  'quotes.counter.amount',
  'quotes.counter.note',
  'quotes.accept.no_counter',
  'quotes.decline.not_your_turn',
  'freight.waterfall.not_draft',
  'freight.waterfall.bad_carrier',
  'freight.waterfall.carriers',
  'freight.waterfall.price',
  'freight.waterfall.currency',
  'freight.waterfall.minutes',
  'freight.waterfall.then',
  'freight.waterfall.no_contracts',
]);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof ONE_STEP_ERRORS> {}
}
