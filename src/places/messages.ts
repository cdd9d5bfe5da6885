import { addMessages } from '../kernel/i18n.ts';

/** Texts of the place suggestions (eng, deu). */
addMessages('eng', {
  'places.query_short': 'Type at least 2 characters of a place.',
  'places.input_unknown': 'for must be filter, near, freight or rate.',
});
addMessages('deu', {
  'places.query_short': 'Bitte mindestens 2 Zeichen eines Ortes eingeben.',
  'places.input_unknown': 'for muss filter, near, freight oder rate sein.',
});
