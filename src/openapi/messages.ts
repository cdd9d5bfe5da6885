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
    'docs.auth.title': 'Authentication',
    'docs.auth.login':
      'Log in once with POST /users/login.json (your e-mail and password): the answer’s auth.token is your API token. It does not expire.',
    'docs.auth.header': 'Send it with every request as this header:',
    'docs.auth.query':
      'The parameter auth_token=<API_TOKEN> works as well, for quick tests only: query strings appear in logs. BASE_URL below is your server, e.g. http://127.0.0.1:8080.',
    'docs.curl': 'Example with curl',
    'docs.requestExample': 'Request example',
    'docs.responseExample': 'Response example',
    'docs.events': 'Events (webhooks)',
    'docs.events.intro':
      'A webhook receives these events as signed POSTs of JSON (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature).',
    'docs.events.data': 'data of the event',
    'docs.events.example': 'Example event (as delivered)',
    'docs.errors': 'Error codes',
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
    'docs.auth.title': 'Authentifizierung',
    'docs.auth.login':
      'Einmal mit POST /users/login.json anmelden (E-Mail und Passwort): auth.token der Antwort ist Ihr API-Token. Es läuft nicht ab.',
    'docs.auth.header': 'Senden Sie es mit jeder Anfrage als diesen Header:',
    'docs.auth.query':
      'Der Parameter auth_token=<API_TOKEN> geht auch, aber nur für schnelle Tests: Query-Strings landen in Logs. BASE_URL unten ist Ihr Server, z. B. http://127.0.0.1:8080.',
    'docs.curl': 'Beispiel mit curl',
    'docs.requestExample': 'Beispielanfrage',
    'docs.responseExample': 'Beispielantwort',
    'docs.events': 'Ereignisse (Webhooks)',
    'docs.events.intro':
      'Ein Webhook erhält diese Ereignisse als signierte POSTs mit JSON (Standard-Webhooks-Header webhook-id, webhook-timestamp, webhook-signature).',
    'docs.events.data': 'data des Ereignisses',
    'docs.events.example': 'Beispielereignis (wie zugestellt)',
    'docs.errors': 'Fehlercodes',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof OPENAPI_MESSAGES> {}
}
