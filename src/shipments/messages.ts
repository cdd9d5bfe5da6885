import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The shipments module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const SHIPMENT_MESSAGES = catalogue(
  { 'shipments.unknown_list': 'filter {id}: no such list' },
  { 'shipments.unknown_list': 'Filter {id}: keine solche Liste' },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof SHIPMENT_MESSAGES> {}
}

/** The codes of the Shipments lists' failures (kernel/errors.ts): code -> its English text. */
export const SHIPMENT_ERRORS = errorCodes(SHIPMENT_MESSAGES, ['shipments.unknown_list']);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof SHIPMENT_ERRORS> {}
}
