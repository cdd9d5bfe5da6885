import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The flights module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const FLIGHT_MESSAGES = catalogue(
  {
    'flight.invalid':
      'A flight needs from and to (known IATA codes), etd and eta (YYYY-MM-DD HH:MM) with eta after etd, and a flight number.',
    'flv.title': 'Flights',
    'flv.empty': 'No flights in the schedule.',
    'flv.col.number': 'Flight',
    'flv.col.from': 'From',
    'flv.col.to': 'To',
    'flv.col.etd': 'Departure',
    'flv.col.eta': 'Arrival',
    'flv.col.provider': 'Provider',
    'flv.own': 'own company',
    'flv.request': 'Request booking',
    'flv.add': 'Add a flight',
    'flv.number': 'Flight number',
    'flv.iata.hint': 'IATA code, e.g. FRA',
    'flv.save': 'Add flight',
    'flv.saved': 'Flight {number} added.',
  },
  {
    'flight.invalid':
      'Ein Flug braucht from und to (bekannte IATA-Codes), etd und eta (YYYY-MM-DD HH:MM) mit eta nach etd und eine Flugnummer.',
    'flv.title': 'Flüge',
    'flv.empty': 'Keine Flüge im Flugplan.',
    'flv.col.number': 'Flug',
    'flv.col.from': 'Von',
    'flv.col.to': 'Nach',
    'flv.col.etd': 'Abflug',
    'flv.col.eta': 'Ankunft',
    'flv.col.provider': 'Anbieter',
    'flv.own': 'eigene Firma',
    'flv.request': 'Buchung anfragen',
    'flv.add': 'Flug hinzufügen',
    'flv.number': 'Flugnummer',
    'flv.iata.hint': 'IATA-Code, z. B. FRA',
    'flv.save': 'Flug hinzufügen',
    'flv.saved': 'Flug {number} hinzugefügt.',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof FLIGHT_MESSAGES> {}
}

/** The codes of the flights module's failures (kernel/errors.ts): code -> its English text. */
export const FLIGHT_ERRORS = errorCodes(FLIGHT_MESSAGES, ['flight.invalid']);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof FLIGHT_ERRORS> {}
}
