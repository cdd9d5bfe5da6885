import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The shipments module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const SHIPMENT_MESSAGES = catalogue(
  { 'shipments.unknown_list': 'filter {id}: no such list' },
  { 'shipments.unknown_list': 'Filter {id}: keine solche Liste' },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof SHIPMENT_MESSAGES> {}
}
