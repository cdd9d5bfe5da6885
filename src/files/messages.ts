import { addMessages } from '../kernel/i18n.ts';

addMessages('eng', {
  'files.refused': 'file refused: {problems}',
  'files.too_large': 'the file is too large (at most {max} MiB)',
});

addMessages('deu', {
  'files.refused': 'Datei abgelehnt: {problems}',
  'files.too_large': 'Die Datei ist zu groß (höchstens {max} MiB)',
});
