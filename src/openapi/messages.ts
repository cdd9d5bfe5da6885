import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The openapi module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const OPENAPI_MESSAGES = catalogue(
  {
    'docs.title': 'API reference',
    'docs.intro': 'Every JSON endpoint of this server, generated from the code it runs. Machine-readable: ',
    'docs.parameters': 'Parameters',
    'docs.body': 'Parameters (JSON body, form or query)',
    'docs.answer': 'data of a successful answer',
    'docs.document': 'A successful answer',
    'docs.answers': 'Answers',
    'docs.token': 'API token',
    'docs.public': 'no token',
    'docs.required': 'required',
    'docs.preview': 'preview',
    'docs.schemas': 'Resources',
    'docs.contents': 'Contents',
  },
  {
    'docs.title': 'API-Referenz',
    'docs.intro': 'Alle JSON-Endpunkte dieses Servers, erzeugt aus dem Code, den er ausführt. Maschinenlesbar: ',
    'docs.parameters': 'Parameter',
    'docs.body': 'Parameter (JSON-Body, Formular oder Query)',
    'docs.answer': 'data einer erfolgreichen Antwort',
    'docs.document': 'Eine erfolgreiche Antwort',
    'docs.answers': 'Antworten',
    'docs.token': 'API-Token',
    'docs.public': 'ohne Token',
    'docs.required': 'Pflicht',
    'docs.preview': 'Vorschau',
    'docs.schemas': 'Ressourcen',
    'docs.contents': 'Inhalt',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof OPENAPI_MESSAGES> {}
}
