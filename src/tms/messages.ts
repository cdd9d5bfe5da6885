import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The tms module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const TMS_MESSAGES = catalogue(
  {
    'tms.name_required': 'name: a tour name is required',
    'tms.name_too_long': 'name: at most {max} characters',
    'tms.date_invalid': 'date: "{value}" is not a date YYYY-MM-DD',
    'tms.route_ids_invalid': 'route_ids: "{value}" is not a freight id',
    'tms.too_many_routes': 'route_ids: at most {max} freights on one tour',
    'tms.not_won_orders': 'route_ids: {ids} not won orders of your company (winner, status taken)',
    'tms.on_other_tour': 'route_ids: {ids} already on another tour',
    'tmv.plan': 'Plan a tour',
    'tmv.col.id': 'Tour',
    'tmv.col.name': 'Name',
    'tmv.col.date': 'Date',
    'tmv.col.orders': 'Orders',
    'tmv.col.weight': 'Chargeable kg',
    'tmv.col.freight': 'Freight',
    'tmv.col.from': 'From',
    'tmv.col.to': 'To',
    'tmv.col.capacity': 'Capacity (m³)',
    'tmv.name': 'Tour name',
    'tmv.date': 'Date',
    'tmv.date.hint': 'YYYY-MM-DD, optional',
    'tmv.orders': 'Won orders not yet on a tour',
    'tmv.no_orders': 'No won orders wait for a tour.',
    'tmv.on_tour': 'Orders on this tour',
    'tmv.no_routes': 'No orders on this tour.',
    'tmv.route_ids': 'Freight ids on the tour, in order (comma separated)',
    'tmv.route_ids.hint': 'Replaces the tour’s list; empty removes every order.',
    'tmv.save': 'Plan tour',
    'tmv.update': 'Save tour',
    'tmv.delete': 'Delete tour',
    'tmv.details': 'Details',
    'tmv.edit': 'Change the tour',
    'tmv.created': 'Created',
    'tmv.modified': 'Last change',
    'tmv.planned': 'Tour “{name}” planned.',
    'tmv.saved': 'Tour saved.',
    'tmv.deleted': 'Tour deleted; its orders wait for a tour again.',
    'tmv.back': '‹ All tours',
  },
  {
    'tms.name_required': 'name: ein Tourname ist erforderlich',
    'tms.name_too_long': 'name: höchstens {max} Zeichen',
    'tms.date_invalid': 'date: "{value}" ist kein Datum JJJJ-MM-TT',
    'tms.route_ids_invalid': 'route_ids: "{value}" ist keine Fracht-Id',
    'tms.too_many_routes': 'route_ids: höchstens {max} Frachten auf einer Tour',
    'tms.not_won_orders': 'route_ids: {ids} keine gewonnenen Aufträge Ihrer Firma (Gewinner, Status taken)',
    'tms.on_other_tour': 'route_ids: {ids} bereits auf einer anderen Tour',
    'tmv.plan': 'Tour planen',
    'tmv.col.id': 'Tour',
    'tmv.col.name': 'Name',
    'tmv.col.date': 'Datum',
    'tmv.col.orders': 'Aufträge',
    'tmv.col.weight': 'Frachtpflichtiges kg',
    'tmv.col.freight': 'Fracht',
    'tmv.col.from': 'Von',
    'tmv.col.to': 'Nach',
    'tmv.col.capacity': 'Volumen (m³)',
    'tmv.name': 'Name der Tour',
    'tmv.date': 'Datum',
    'tmv.date.hint': 'JJJJ-MM-TT, optional',
    'tmv.orders': 'Gewonnene Aufträge ohne Tour',
    'tmv.no_orders': 'Keine gewonnenen Aufträge warten auf eine Tour.',
    'tmv.on_tour': 'Aufträge auf dieser Tour',
    'tmv.no_routes': 'Keine Aufträge auf dieser Tour.',
    'tmv.route_ids': 'Fracht-Ids der Tour in Reihenfolge (durch Komma getrennt)',
    'tmv.route_ids.hint': 'Ersetzt die Liste der Tour; leer entfernt alle Aufträge.',
    'tmv.save': 'Tour planen',
    'tmv.update': 'Tour speichern',
    'tmv.delete': 'Tour löschen',
    'tmv.details': 'Details',
    'tmv.edit': 'Tour ändern',
    'tmv.created': 'Angelegt',
    'tmv.modified': 'Letzte Änderung',
    'tmv.planned': 'Tour „{name}“ geplant.',
    'tmv.saved': 'Tour gespeichert.',
    'tmv.deleted': 'Tour gelöscht; ihre Aufträge warten wieder auf eine Tour.',
    'tmv.back': '‹ Alle Touren',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof TMS_MESSAGES> {}
}

/** The codes of the tours' failures (kernel/errors.ts): code -> its English text. */
export const TMS_ERRORS = errorCodes(TMS_MESSAGES, [
  'tms.name_required',
  'tms.name_too_long',
  'tms.date_invalid',
  'tms.route_ids_invalid',
  'tms.too_many_routes',
  'tms.not_won_orders',
  'tms.on_other_tour',
]);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof TMS_ERRORS> {}
}
