import { addMessages } from '../kernel/i18n.ts';

addMessages('eng', {
  'webhooks.url_required': 'url: the address of your receiver is required',
  'webhooks.url_invalid': 'url: not an absolute URL (at most 2000 characters)',
  'webhooks.url_scheme': 'url: only http and https addresses',
  'webhooks.url_credentials': 'url: user name and password in the address are not allowed (authenticate with the signature)',
  'webhooks.url_private': 'url: the address resolves to a loopback, private or otherwise non-public network address',
  'webhooks.url_unresolvable': 'url: the host name does not resolve',
  'webhooks.events_required': 'events: at least one event type, or "*" for all',
  'webhooks.events_too_many': 'events: at most {max} entries',
  'webhooks.event_unknown': 'events: unknown event type "{type}"',
  'webhooks.too_many': 'a company may have at most {max} webhooks; delete one first',
});

addMessages('deu', {
  'webhooks.url_required': 'url: die Adresse Ihres Empfängers ist erforderlich',
  'webhooks.url_invalid': 'url: keine absolute URL (höchstens 2000 Zeichen)',
  'webhooks.url_scheme': 'url: nur http- und https-Adressen',
  'webhooks.url_credentials': 'url: Benutzername und Passwort in der Adresse sind nicht erlaubt (die Signatur authentifiziert)',
  'webhooks.url_private': 'url: die Adresse führt in ein Loopback-, privates oder anderes nicht öffentliches Netz',
  'webhooks.url_unresolvable': 'url: der Hostname lässt sich nicht auflösen',
  'webhooks.events_required': 'events: mindestens ein Ereignistyp oder "*" für alle',
  'webhooks.events_too_many': 'events: höchstens {max} Einträge',
  'webhooks.event_unknown': 'events: unbekannter Ereignistyp „{type}“',
  'webhooks.too_many': 'eine Firma kann höchstens {max} Webhooks haben; bitte zuerst einen löschen',
});
