import { addMessages } from '../kernel/i18n.ts';

addMessages('eng', {
  'template.name_required': 'A template needs a name (up to 200 characters).',
});

addMessages('deu', {
  'template.name_required': 'Eine Vorlage braucht einen Namen (bis 200 Zeichen).',
});
