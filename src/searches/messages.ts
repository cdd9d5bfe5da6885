import { FREIGHT_LISTS_NAMED } from '../freights/index.ts';
import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The searches module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const SEARCH_MESSAGES = catalogue(
  {
    'searches.name_required': 'A saved search needs a name (up to 200 characters).',
    'searches.filter_unknown': `filter must be the id of a freight list (${FREIGHT_LISTS_NAMED}).`,
    'searches.too_many': 'You have {max} saved searches: delete one first.',
    'searches.duplicate': 'You already saved this search as “{name}”: nothing was added.',
    'searches.params_invalid': 'params must be an object of search parameters.',
    'searches.saved': 'Search saved.',
    'searches.deleted': 'Search deleted.',
    'searches.updated': 'Search changed.',
    'searches.title': 'Saved searches',
    'searches.none': 'No saved searches yet: search a list, then save the search there.',
    'searches.col.name': 'Name',
    'searches.col.list': 'List',
    'searches.col.params': 'Search',
    'searches.col.alert': 'Alert',
    'searches.alert.on': 'on',
    'searches.alert.off': 'off',
    'searches.alert.enable': 'Alert me',
    'searches.alert.disable': 'Stop alerts',
    'searches.delete': 'Delete',
    'searches.everything': 'everything',
    'searches.airport': 'airport {code}',
    'searches.col.actions': 'Actions',
    'searches.change': 'Change',
    'searches.edit.title': 'Change the saved search “{name}”',
    'searches.edit.save': 'Save changes',
    'searches.updated_partly': 'Search changed, but not what is marked below: the saved value stays there.',
    'searches.error.weight': 'Not a weight in kg (e.g. 12,500 or 12.5 t): the saved value stays.',
    'searches.weight.hint': 'kg, or with t for tonnes: 12.5 t',
    'searches.delete.question': 'Delete the saved search “{name}”? Its alerts stop; the notifications it gave stay.',
    'searches.delete.confirm': 'Yes, delete it',
    'notifications.title': 'Notifications',
    'notifications.none': 'No notifications. Switch on the alert of a saved search to hear of new matching freights.',
    'notifications.read_all': 'Mark all as read',
    'notifications.marked': '{count} notifications marked as read.',
    'notifications.col.created': 'When',
    'notifications.col.search': 'Search',
    'notifications.col.freight': 'Freight',
    'notifications.gone': 'no longer visible',
    'notifications.vehicle': 'Vehicle offer {id}',
    'notifications.invited': 'Invitation (vehicle offer {id})',
    'notifications.new': 'new',
    'nav.notifications': 'Notifications',
    'nav.searches': 'Saved searches',
  },
  {
    'searches.name_required': 'Eine gespeicherte Suche braucht einen Namen (bis 200 Zeichen).',
    'searches.filter_unknown': `filter muss die Nummer einer Frachtliste sein (${FREIGHT_LISTS_NAMED}).`,
    'searches.too_many': 'Sie haben {max} gespeicherte Suchen: bitte zuerst eine löschen.',
    'searches.duplicate': 'Diese Suche ist schon als „{name}“ gespeichert: nichts wurde hinzugefügt.',
    'searches.params_invalid': 'params muss ein Objekt mit Suchparametern sein.',
    'searches.saved': 'Suche gespeichert.',
    'searches.deleted': 'Suche gelöscht.',
    'searches.updated': 'Suche geändert.',
    'searches.title': 'Gespeicherte Suchen',
    'searches.none': 'Noch keine gespeicherten Suchen: eine Liste durchsuchen und die Suche dort speichern.',
    'searches.col.name': 'Name',
    'searches.col.list': 'Liste',
    'searches.col.params': 'Suche',
    'searches.col.alert': 'Benachrichtigung',
    'searches.alert.on': 'an',
    'searches.alert.off': 'aus',
    'searches.alert.enable': 'Benachrichtigen',
    'searches.alert.disable': 'Nicht mehr benachrichtigen',
    'searches.delete': 'Löschen',
    'searches.everything': 'alles',
    'searches.airport': 'Flughafen {code}',
    'searches.col.actions': 'Aktionen',
    'searches.change': 'Ändern',
    'searches.edit.title': 'Gespeicherte Suche „{name}“ ändern',
    'searches.edit.save': 'Änderungen speichern',
    'searches.updated_partly': 'Suche geändert, aber nicht das unten Markierte: dort bleibt der gespeicherte Wert.',
    'searches.error.weight': 'Kein Gewicht in kg (z. B. 12.500 oder 12,5 t): der gespeicherte Wert bleibt.',
    'searches.weight.hint': 'kg, oder mit t für Tonnen: 12,5 t',
    'searches.delete.question':
      'Die gespeicherte Suche „{name}“ löschen? Ihre Benachrichtigungen enden; bisherige Benachrichtigungen bleiben.',
    'searches.delete.confirm': 'Ja, löschen',
    'notifications.title': 'Benachrichtigungen',
    'notifications.none':
      'Keine Benachrichtigungen. Schalten Sie die Benachrichtigung einer gespeicherten Suche ein, um von neuen passenden Frachten zu erfahren.',
    'notifications.read_all': 'Alle als gelesen markieren',
    'notifications.marked': '{count} Benachrichtigungen als gelesen markiert.',
    'notifications.col.created': 'Wann',
    'notifications.col.search': 'Suche',
    'notifications.col.freight': 'Fracht',
    'notifications.gone': 'nicht mehr sichtbar',
    'notifications.vehicle': 'Fahrzeugangebot {id}',
    'notifications.invited': 'Einladung (Fahrzeugangebot {id})',
    'notifications.new': 'neu',
    'nav.notifications': 'Benachrichtigungen',
    'nav.searches': 'Gespeicherte Suchen',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof SEARCH_MESSAGES> {}
}

/** The codes of the saved searches' failures (kernel/errors.ts): code -> its English text. */
export const SEARCH_ERRORS = errorCodes(SEARCH_MESSAGES, [
  'searches.name_required',
  'searches.filter_unknown',
  'searches.params_invalid',
  'searches.too_many',
  'searches.duplicate',
]);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof SEARCH_ERRORS> {}
}
