import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The cases module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const CASE_MESSAGES = catalogue(
  {
    'cases.name_required': 'name: a case name is required',
    'cases.name_too_long': 'name: at most {max} characters',
    'cases.route_required': 'route_id: the id of the shipment to link is required',
    'cases.route_not_found': 'route_id: shipment {id} not found',
    'cv.title': 'Cases',
    'cv.empty': 'No cases yet.',
    'cv.col.id': 'No.',
    'cv.col.name': 'Case',
    'cv.col.links': 'Shipments',
    'cv.col.created': 'Opened',
    'cv.col.modified': 'Last change',
    'cv.add': 'New case',
    'cv.name': 'Case name',
    'cv.save': 'Open case',
    'cv.opened': 'Case “{name}” opened.',
    'cv.details': 'Details',
    'cv.author': 'Opened by',
    'cv.shipments': 'Linked shipments',
    'cv.no_links': 'No shipments linked yet.',
    'cv.col.shipment': 'Freight',
    'cv.col.from': 'From',
    'cv.col.to': 'To',
    'cv.col.weight': 'Chargeable kg',
    'cv.col.capacity': 'Capacity (m³)',
    'cv.col.linked': 'Linked',
    'cv.invisible': 'no longer visible',
    'cv.link': 'Link a shipment',
    'cv.route_id': 'Freight id',
    'cv.route_id.hint': 'The reference number of a freight you can see',
    'cv.link.save': 'Link',
    'cv.linked': 'Shipment linked.',
    'cv.back': '‹ All cases',
  },
  {
    'cases.name_required': 'name: ein Fallname ist erforderlich',
    'cases.name_too_long': 'name: höchstens {max} Zeichen',
    'cases.route_required': 'route_id: die Id der zu verknüpfenden Sendung ist erforderlich',
    'cases.route_not_found': 'route_id: Sendung {id} nicht gefunden',
    'cv.title': 'Vorgänge',
    'cv.empty': 'Noch keine Vorgänge.',
    'cv.col.id': 'Nr.',
    'cv.col.name': 'Vorgang',
    'cv.col.links': 'Sendungen',
    'cv.col.created': 'Eröffnet',
    'cv.col.modified': 'Letzte Änderung',
    'cv.add': 'Neuer Vorgang',
    'cv.name': 'Name des Vorgangs',
    'cv.save': 'Vorgang eröffnen',
    'cv.opened': 'Vorgang „{name}“ eröffnet.',
    'cv.details': 'Details',
    'cv.author': 'Eröffnet von',
    'cv.shipments': 'Verknüpfte Sendungen',
    'cv.no_links': 'Noch keine Sendungen verknüpft.',
    'cv.col.shipment': 'Fracht',
    'cv.col.from': 'Von',
    'cv.col.to': 'Nach',
    'cv.col.weight': 'Frachtpflichtiges kg',
    'cv.col.capacity': 'Volumen (m³)',
    'cv.col.linked': 'Verknüpft',
    'cv.invisible': 'nicht mehr sichtbar',
    'cv.link': 'Sendung verknüpfen',
    'cv.route_id': 'Fracht-Id',
    'cv.route_id.hint': 'Die Referenznummer einer Fracht, die Sie sehen können',
    'cv.link.save': 'Verknüpfen',
    'cv.linked': 'Sendung verknüpft.',
    'cv.back': '‹ Alle Vorgänge',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof CASE_MESSAGES> {}
}

/** The codes of the cases module's failures (kernel/errors.ts): code -> its English text. */
export const CASE_ERRORS = errorCodes(CASE_MESSAGES, [
  'cases.name_required',
  'cases.name_too_long',
  'cases.route_required',
  'cases.route_not_found',
]);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof CASE_ERRORS> {}
}
