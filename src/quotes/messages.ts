import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The quotes module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const QUOTE_MESSAGES = catalogue(
  {
    // Texts of the quotes module: `message` of `status: error` answers and the flash after a 302.
    'quotes.route_required': 'route: the id of the freight to bid on is required',
    'quotes.amount_required': 'amount: a positive number with at most 2 decimals is required',
    'quotes.currency_required': 'currency_code: a 3-letter currency code such as EUR is required',
    'quotes.note_too_long': 'note: at most {max} characters',
    'quotes.route_mismatch': 'route: a bid cannot be moved to another freight',
    'quotes.freight_not_biddable': 'This freight is not open for bids.',
    'quotes.bid_not_open': 'Only an open bid can be changed.',
    'quotes.bid_not_revocable': 'This bid can no longer be revoked.',
    'quotes.bidder_blocked': 'The freight’s company does not take bids from your company.',
    'quotes.confirmed_waiting': 'Bid confirmed. Waiting for the other side to confirm.',
    'quotes.awarded': 'Bid confirmed by both sides: the freight is awarded.',
    'quotes.already_confirmed': 'You have already confirmed this bid.',
    'quotes.not_confirmable': 'This bid cannot be confirmed (any more).',
    'quotes.party_blocked': 'This bid cannot be confirmed: one of the two companies has blocked the other.',
    'quotes.revoked': 'Bid revoked.',
    'quotes.submitted': 'Bid saved.',
    'quotes.submitted.awarded': 'Bid accepted at once: the freight is yours.',
    'quotes.title': 'Bid',
    'quotes.warning.money': 'not a non-negative number with at most 2 decimals; ignored',
    'quotes.warning.display_company': 'only the bidding company can be displayed; ignored',
    // The page's bid form (HTML only): next to the field, in the user's words.
    'quotes.form.problems': 'Your bid was not sent. Please check the marked fields.',
    'quotes.form.amount': 'Please enter your price, more than 0 with at most 2 decimals, e.g. {example}.',
    'quotes.form.component': 'Please enter an amount with at most 2 decimals, e.g. {example}, or leave it empty.',
    'quotes.form.currency': 'Please enter a three-letter currency code, e.g. EUR.',
    'quotes.form.note': 'At most {max} characters, please.',
  },
  {
    'quotes.route_required': 'route: die Id der Fracht, auf die geboten wird, ist erforderlich',
    'quotes.amount_required': 'amount: ein positiver Betrag mit höchstens 2 Nachkommastellen ist erforderlich',
    'quotes.currency_required': 'currency_code: ein dreistelliger Währungscode wie EUR ist erforderlich',
    'quotes.note_too_long': 'note: höchstens {max} Zeichen',
    'quotes.route_mismatch': 'route: ein Gebot kann nicht auf eine andere Fracht verschoben werden',
    'quotes.freight_not_biddable': 'Auf diese Fracht kann nicht (mehr) geboten werden.',
    'quotes.bid_not_open': 'Nur ein offenes Gebot kann geändert werden.',
    'quotes.bid_not_revocable': 'Dieses Gebot kann nicht mehr zurückgezogen werden.',
    'quotes.bidder_blocked': 'Die Firma dieser Fracht nimmt keine Gebote Ihrer Firma an.',
    'quotes.confirmed_waiting': 'Gebot bestätigt. Die Bestätigung der Gegenseite steht aus.',
    'quotes.awarded': 'Gebot von beiden Seiten bestätigt: die Fracht ist vergeben.',
    'quotes.already_confirmed': 'Sie haben dieses Gebot bereits bestätigt.',
    'quotes.not_confirmable': 'Dieses Gebot kann nicht (mehr) bestätigt werden.',
    'quotes.party_blocked': 'Dieses Gebot kann nicht bestätigt werden: eine der beiden Firmen hat die andere gesperrt.',
    'quotes.revoked': 'Gebot zurückgezogen.',
    'quotes.submitted': 'Gebot gespeichert.',
    'quotes.submitted.awarded': 'Gebot sofort angenommen: die Fracht gehört Ihnen.',
    'quotes.title': 'Gebot',
    'quotes.warning.money': 'keine nicht-negative Zahl mit höchstens 2 Nachkommastellen; ignoriert',
    'quotes.warning.display_company': 'nur die bietende Firma kann angezeigt werden; ignoriert',
    'quotes.form.problems': 'Ihr Gebot wurde nicht gesendet. Bitte prüfen Sie die markierten Felder.',
    'quotes.form.amount': 'Bitte Ihren Preis eingeben, größer als 0 mit höchstens 2 Nachkommastellen, z. B. {example}.',
    'quotes.form.component': 'Bitte einen Betrag mit höchstens 2 Nachkommastellen eingeben, z. B. {example}, oder leer lassen.',
    'quotes.form.currency': 'Bitte einen dreistelligen Währungscode eingeben, z. B. EUR.',
    'quotes.form.note': 'Bitte höchstens {max} Zeichen.',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof QUOTE_MESSAGES> {}
}

/** The codes of the bids' failures (a refused confirmation is a 302, without one) (kernel/errors.ts): code -> its English text. */
export const QUOTE_ERRORS = errorCodes(QUOTE_MESSAGES, [
  'quotes.route_required',
  'quotes.amount_required',
  'quotes.currency_required',
  'quotes.note_too_long',
  'quotes.route_mismatch',
  'quotes.freight_not_biddable',
  'quotes.bid_not_open',
  'quotes.bid_not_revocable',
  'quotes.bidder_blocked',
]);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof QUOTE_ERRORS> {}
}
