import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/**
 * The freights module's texts in English and German (app.ts installs them; kernel/i18n.ts): its
 * refusals and the words of its answers (delivery steps, piece counts). The pages' texts, and the
 * lists' names on tabs, titles and the menu, are the HTTP face's (freights-http/messages.ts,
 * list-names.ts).
 */
export const FREIGHT_MESSAGES = catalogue(
  {
    'freight.info.pieces': '{count} pcs',
    'freight.delivery.0': 'not started',
    'freight.delivery.1': 'picked up',
    'freight.delivery.2': 'in transit',
    'freight.delivery.3': 'delivered',
    'freight.published': 'The freight is published.',
    'freight.request.created': 'Booking request created as a draft: check it and publish it.',
    'freight.publish.not_owner': 'Only the owning company may publish this freight.',
    'freight.publish.not_draft': 'Only a draft can be published.',
    'freight.publish.bad_deadline': 'The deadline could not be read.',
    'freight.publish.past_deadline': 'The deadline must lie in the future.',
    'freight.revoke.not_allowed': 'Only a draft, open or pending freight can be revoked.',
    'freight.archive.not_allowed': 'Only an expired, revoked or closed freight can be archived.',
    'freight.delivery.not_taken': 'The delivery status can only be set on a taken freight.',
    'freight.delivery.bad_value': 'delivery_status must be 0, 1, 2 or 3.',
    'freight.delivery.backwards': 'The delivery status cannot go backwards.',
    'freight.edit.not_allowed':
      'Only a draft or open freight can be edited; while a confirmation is pending the terms are frozen (revoke the freight instead).',
    'freight.edit.waterfall_running':
      'This freight is being offered to carriers one after the other (a waterfall): its visibility and whitelist move with each turn and cannot be changed until the waterfall ends.',
    'freight.enlist.unknown_filter': 'Unknown list filter.',
    'freight.hide.own': 'Your company’s own freights are not in your market: there is nothing to hide.',
    'freight.hide.too_many': 'You hide {max} loads of the market already: show one of them again first.',
    'tracking.unsupported_type': 'Only tracking by AWB (type=awb) is supported.',
  },
  {
    'freight.info.pieces': '{count} Stk.',
    'freight.delivery.0': 'nicht begonnen',
    'freight.delivery.1': 'abgeholt',
    'freight.delivery.2': 'unterwegs',
    'freight.delivery.3': 'zugestellt',
    'freight.published': 'Die Fracht ist veröffentlicht.',
    'freight.request.created': 'Buchungsanfrage als Entwurf angelegt: prüfen und veröffentlichen.',
    'freight.publish.not_owner': 'Nur das besitzende Unternehmen darf diese Fracht veröffentlichen.',
    'freight.publish.not_draft': 'Nur ein Entwurf kann veröffentlicht werden.',
    'freight.publish.bad_deadline': 'Die Frist konnte nicht gelesen werden.',
    'freight.publish.past_deadline': 'Die Frist muss in der Zukunft liegen.',
    'freight.revoke.not_allowed': 'Nur eine Fracht im Entwurf, offen oder schwebend kann zurückgezogen werden.',
    'freight.archive.not_allowed': 'Nur eine abgelaufene, zurückgezogene oder abgeschlossene Fracht kann archiviert werden.',
    'freight.delivery.not_taken': 'Der Lieferstatus kann nur bei einer vergebenen Fracht gesetzt werden.',
    'freight.delivery.bad_value': 'delivery_status muss 0, 1, 2 oder 3 sein.',
    'freight.delivery.backwards': 'Der Lieferstatus kann nicht zurückgesetzt werden.',
    'freight.edit.not_allowed':
      'Nur eine Fracht im Entwurf oder offen kann bearbeitet werden; solange eine Bestätigung aussteht, sind die Bedingungen eingefroren (stattdessen die Fracht zurückziehen).',
    'freight.edit.waterfall_running':
      'Diese Fracht wird Frachtführern nacheinander angeboten (Wasserfall): Sichtbarkeit und Freigabeliste wechseln mit jeder Runde und können erst nach dem Wasserfall geändert werden.',
    'freight.enlist.unknown_filter': 'Unbekannter Listenfilter.',
    'freight.hide.own': 'Frachten Ihrer eigenen Firma stehen nicht in Ihrer Börse: es gibt nichts auszublenden.',
    'freight.hide.too_many': 'Sie blenden bereits {max} Ladungen der Börse aus: bitte zuerst eine wieder einblenden.',
    'tracking.unsupported_type': 'Nur die Sendungsverfolgung per AWB (type=awb) wird unterstützt.',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof FREIGHT_MESSAGES> {}
}

/** The codes of the freights' failures, and of tracking's (its text is here) (kernel/errors.ts): code -> its English text. */
export const FREIGHT_ERRORS = errorCodes(FREIGHT_MESSAGES, [
  'freight.edit.not_allowed',
  'freight.edit.waterfall_running',
  'freight.revoke.not_allowed',
  'freight.archive.not_allowed',
  'freight.delivery.not_taken',
  'freight.delivery.bad_value',
  'freight.delivery.backwards',
  'freight.enlist.unknown_filter',
  'freight.hide.own',
  'freight.hide.too_many',
  'tracking.unsupported_type',
]);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof FREIGHT_ERRORS> {}
}
