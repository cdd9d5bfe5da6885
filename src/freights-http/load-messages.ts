import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/**
 * The freight pages' texts of the load's description (docs/choices.md, "Loads described as
 * trucks are"), in English and German (app.ts installs them). The bodies' names are the vehicle
 * offers' (`vv.body.*`): one word per body on both sides of the market.
 */
export const LOAD_PAGE_MESSAGES = catalogue(
  {
    'fv.form.section.load': 'Truck and load',
    'fv.form.body': 'Body type',
    'fv.form.body.any': 'Any',
    'fv.form.loading_meters': 'Loading metres',
    'fv.form.loading_meters.hint': 'm, up to 13.6',
    'fv.form.adr_class': 'Dangerous goods (ADR class)',
    'fv.form.adr_class.none': 'None',
    'fv.form.adr_class.option': 'Class {class}',
    'fv.form.temperature_min': 'Temperature from (°C)',
    'fv.form.temperature_max': 'Temperature to (°C)',
    'fv.form.temperature.hint': 'Reefer only: −40 to 40 °C',
    'fv.form.pallet_exchange': 'Pallet exchange',
    'fv.form.pallet_exchange.unset': 'Not said',
    'fv.form.pallet_exchange.yes': 'Yes',
    'fv.form.pallet_exchange.no': 'No',
    'fv.load.adr': 'ADR {class}',
    'fv.load.temperature': '{min} to {max} °C',
    'fv.load.pallets': 'pallet exchange',
    'fv.load.ldm': '{meters} ldm',
    'fv.col.load': 'Truck',
    'search.load.body': 'Body type',
    'search.load.adr': 'Dangerous goods (ADR)',
    'search.load.adr.any': 'Either',
    'search.load.adr.yes': 'Only ADR loads',
    'search.load.adr.no': 'No ADR loads',
    'search.load.loading_meters_max': 'Loading metres at most',
  },
  {
    'fv.form.section.load': 'Fahrzeug und Ladung',
    'fv.form.body': 'Aufbau',
    'fv.form.body.any': 'Beliebig',
    'fv.form.loading_meters': 'Lademeter',
    'fv.form.loading_meters.hint': 'm, bis 13,6',
    'fv.form.adr_class': 'Gefahrgut (ADR-Klasse)',
    'fv.form.adr_class.none': 'Keines',
    'fv.form.adr_class.option': 'Klasse {class}',
    'fv.form.temperature_min': 'Temperatur von (°C)',
    'fv.form.temperature_max': 'Temperatur bis (°C)',
    'fv.form.temperature.hint': 'Nur Kühlkoffer: −40 bis 40 °C',
    'fv.form.pallet_exchange': 'Palettentausch',
    'fv.form.pallet_exchange.unset': 'Keine Angabe',
    'fv.form.pallet_exchange.yes': 'Ja',
    'fv.form.pallet_exchange.no': 'Nein',
    'fv.load.adr': 'ADR {class}',
    'fv.load.temperature': '{min} bis {max} °C',
    'fv.load.pallets': 'Palettentausch',
    'fv.load.ldm': '{meters} LDM',
    'fv.col.load': 'Fahrzeug',
    'search.load.body': 'Aufbau',
    'search.load.adr': 'Gefahrgut (ADR)',
    'search.load.adr.any': 'Egal',
    'search.load.adr.yes': 'Nur ADR-Ladungen',
    'search.load.adr.no': 'Keine ADR-Ladungen',
    'search.load.loading_meters_max': 'Höchstens Lademeter',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof LOAD_PAGE_MESSAGES> {}
}
