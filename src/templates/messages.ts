import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The templates module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const TEMPLATE_MESSAGES = catalogue(
  {
    'template.name_required': 'A template needs a name (up to 200 characters).',
    'tv.title': 'Templates',
    'tv.empty': 'No templates yet.',
    'tv.col.name': 'Name',
    'tv.col.route': 'Route',
    'tv.col.weight': 'Weight (kg)',
    'tv.col.created': 'Created',
    'tv.use': 'Create freight',
    'tv.add': 'New template',
    'tv.name': 'Template name',
    'tv.save': 'Save template',
    'tv.not_saved': 'The template was not saved. Please check the marked fields.',
    'tv.name.required': 'needed',
    'tv.saved': 'Template “{name}” saved.',
    'tv.created': 'Freight created from the template.',
    'tv.hint': 'A freight made from a template starts as your own order (taken, your company as carrier).',
  },
  {
    'template.name_required': 'Eine Vorlage braucht einen Namen (bis 200 Zeichen).',
    'tv.title': 'Vorlagen',
    'tv.empty': 'Noch keine Vorlagen.',
    'tv.col.name': 'Name',
    'tv.col.route': 'Strecke',
    'tv.col.weight': 'Gewicht (kg)',
    'tv.col.created': 'Angelegt',
    'tv.use': 'Fracht anlegen',
    'tv.add': 'Neue Vorlage',
    'tv.name': 'Name der Vorlage',
    'tv.save': 'Vorlage speichern',
    'tv.not_saved': 'Die Vorlage wurde nicht gespeichert. Bitte die markierten Felder prüfen.',
    'tv.name.required': 'nötig',
    'tv.saved': 'Vorlage „{name}“ gespeichert.',
    'tv.created': 'Fracht aus der Vorlage angelegt.',
    'tv.hint': 'Eine Fracht aus einer Vorlage ist gleich Ihr eigener Auftrag (vergeben, Ihre Firma als Frachtführer).',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof TEMPLATE_MESSAGES> {}
}

/** The codes of the templates' failures (kernel/errors.ts): code -> its English text. */
export const TEMPLATE_ERRORS = errorCodes(TEMPLATE_MESSAGES, ['template.name_required']);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof TEMPLATE_ERRORS> {}
}
