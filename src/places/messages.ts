import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The places module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const PLACE_MESSAGES = catalogue(
  {
    'places.query_short': 'Type at least 2 characters of a place.',
    'places.input_unknown': 'for must be filter, near, freight or rate.',
  },
  {
    'places.query_short': 'Bitte mindestens 2 Zeichen eines Ortes eingeben.',
    'places.input_unknown': 'for muss filter, near, freight oder rate sein.',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof PLACE_MESSAGES> {}
}

/** The codes of the place suggestions' failures (kernel/errors.ts): code -> its English text. */
export const PLACE_ERRORS = errorCodes(PLACE_MESSAGES, ['places.query_short', 'places.input_unknown']);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof PLACE_ERRORS> {}
}
