import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The webhooks module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const WEBHOOK_MESSAGES = catalogue(
  {
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
    'webhooks.url_duplicate':
      'url: your company has a webhook for this address already (webhook {id}); to send it other events, delete that one and add it again',
    'nav.settings': 'Settings',
    'wh.title': 'Company settings · Webhooks',
    'wh.intro':
      'Events of your company (freights, bids, bookings, shipment status) are sent as signed HTTP POST requests (Standard Webhooks) to the addresses below. Failed deliveries are retried for more than a day.',
    'wh.empty': 'No webhooks yet.',
    'wh.col.url': 'Address',
    'wh.col.events': 'Events',
    'wh.col.secret': 'Signing secret',
    'wh.col.created': 'Added',
    'wh.col.actions': 'Actions',
    'wh.deliveries': 'Deliveries',
    'wh.test': 'Send test event',
    'wh.delete': 'Delete',
    'wh.delete.question': 'Delete the webhook for {url}? No more events are sent there, and its delivery log is deleted with it.',
    'wh.delete.confirm': 'Delete webhook',
    'wh.add': 'Add a webhook',
    'wh.url': 'Receiver URL (http or https)',
    'wh.events': 'Events to send',
    'wh.all': 'All events (*)',
    'wh.save': 'Add webhook',
    'wh.added': 'Webhook added',
    'wh.secret.once':
      'This is the signing secret of the new webhook. It is shown only now: store it in your receiver to verify the webhook-signature header.',
    'wh.back': '‹ All webhooks',
    'wh.deleted': 'Webhook deleted.',
    'wh.test.sent': 'Test event {id} queued; it is delivered within seconds.',
    'wh.log.title': 'Deliveries of webhook {id}',
    'wh.log.empty': 'Nothing delivered yet.',
    'wh.col.event': 'Event',
    'wh.col.type': 'Type',
    'wh.col.attempt': 'Attempt',
    'wh.col.status': 'HTTP status',
    'wh.col.state': 'State',
    'wh.col.error': 'Error',
    'wh.col.started': 'Sent',
    'wh.col.next': 'Next retry',
    'wh.state.pending': 'pending',
    'wh.state.delivered': 'delivered',
    'wh.state.failed': 'failed',
    'wh.queued': 'queued',
  },
  {
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
    'webhooks.url_duplicate':
      'url: Ihre Firma hat für diese Adresse schon einen Webhook (Webhook {id}); für andere Ereignisse diesen löschen und neu hinzufügen',
    'nav.settings': 'Einstellungen',
    'wh.title': 'Firmeneinstellungen · Webhooks',
    'wh.intro':
      'Ereignisse Ihrer Firma (Frachten, Gebote, Buchungen, Sendungsstatus) werden als signierte HTTP-POST-Anfragen (Standard Webhooks) an die folgenden Adressen gesendet. Fehlgeschlagene Zustellungen werden über mehr als einen Tag wiederholt.',
    'wh.empty': 'Noch keine Webhooks.',
    'wh.col.url': 'Adresse',
    'wh.col.events': 'Ereignisse',
    'wh.col.secret': 'Signaturschlüssel',
    'wh.col.created': 'Angelegt',
    'wh.col.actions': 'Aktionen',
    'wh.deliveries': 'Zustellungen',
    'wh.test': 'Testereignis senden',
    'wh.delete': 'Löschen',
    'wh.delete.question':
      'Den Webhook für {url} löschen? Dorthin werden keine Ereignisse mehr gesendet, und sein Zustellprotokoll wird mit gelöscht.',
    'wh.delete.confirm': 'Webhook löschen',
    'wh.add': 'Webhook hinzufügen',
    'wh.url': 'Empfänger-URL (http oder https)',
    'wh.events': 'Zu sendende Ereignisse',
    'wh.all': 'Alle Ereignisse (*)',
    'wh.save': 'Webhook hinzufügen',
    'wh.added': 'Webhook hinzugefügt',
    'wh.secret.once':
      'Dies ist der Signaturschlüssel des neuen Webhooks. Er wird nur jetzt angezeigt: Hinterlegen Sie ihn in Ihrem Empfänger, um den Header webhook-signature zu prüfen.',
    'wh.back': '‹ Alle Webhooks',
    'wh.deleted': 'Webhook gelöscht.',
    'wh.test.sent': 'Testereignis {id} eingereiht; es wird in wenigen Sekunden zugestellt.',
    'wh.log.title': 'Zustellungen von Webhook {id}',
    'wh.log.empty': 'Noch nichts zugestellt.',
    'wh.col.event': 'Ereignis',
    'wh.col.type': 'Typ',
    'wh.col.attempt': 'Versuch',
    'wh.col.status': 'HTTP-Status',
    'wh.col.state': 'Zustand',
    'wh.col.error': 'Fehler',
    'wh.col.started': 'Gesendet',
    'wh.col.next': 'Nächster Versuch',
    'wh.state.pending': 'ausstehend',
    'wh.state.delivered': 'zugestellt',
    'wh.state.failed': 'fehlgeschlagen',
    'wh.queued': 'eingereiht',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof WEBHOOK_MESSAGES> {}
}

/** The codes of the webhooks' failures (kernel/errors.ts): code -> its English text. */
export const WEBHOOK_ERRORS = errorCodes(WEBHOOK_MESSAGES, [
  'webhooks.url_required',
  'webhooks.url_invalid',
  'webhooks.url_scheme',
  'webhooks.url_credentials',
  'webhooks.url_private',
  'webhooks.url_unresolvable',
  'webhooks.url_duplicate',
  'webhooks.events_required',
  'webhooks.events_too_many',
  'webhooks.event_unknown',
  'webhooks.too_many',
]);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof WEBHOOK_ERRORS> {}
}
