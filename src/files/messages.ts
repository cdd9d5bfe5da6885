import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The files module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const FILE_MESSAGES = catalogue(
  {
    'files.refused': 'file refused: {problems}',
    'files.too_large': 'the file is too large (at most {max} MiB)',
  },
  {
    'files.refused': 'Datei abgelehnt: {problems}',
    'files.too_large': 'Die Datei ist zu groß (höchstens {max} MiB)',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof FILE_MESSAGES> {}
}

/** The codes of file push's refusals (406, 413) (kernel/errors.ts): code -> its English text. */
export const FILE_ERRORS = errorCodes(FILE_MESSAGES, ['files.refused', 'files.too_large']);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof FILE_ERRORS> {}
}
