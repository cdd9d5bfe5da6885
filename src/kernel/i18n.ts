/** Languages of the exchange: `auth.language` codes (decisions.md §3). */
export const LANGUAGES = ['eng', 'deu'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

type Messages = Record<string, string>;

/**
 * Every label and placeholder in both languages. Modules add their keys here so a missing
 * translation is one file away; `deu` falls back to `eng` for a key it lacks.
 */
const eng: Messages = {
  'placeholder.undefined': 'not defined',
  'pager.prev': '‹ Previous',
  'pager.next': 'Next ›',
  'pager.page': 'Page',
  'app.name': 'Freight Exchange',
  'nav.freights': 'Freights',
  'nav.rates': 'Rate search',
  'nav.templates': 'Templates',
  'nav.flights': 'Flights',
  'nav.milkrun': 'Milk-run',
  'nav.cases': 'Cases',
  'nav.logout': 'Log out',
  'nav.account': 'Your account: change password',
  'login.title': 'Log in',
  'login.user': 'E-mail or username',
  'login.password': 'Password',
  'login.submit': 'Log in',
  'login.failed': 'Unknown user or wrong password.',
  'login.throttled': 'Too many failed logins. Try again in {minutes} minutes.',
  'error.not_found': 'Not found',
  'error.not_found.text': 'This record does not exist or is not visible to you.',
  'error.unauthorized': 'missing or invalid API token',
  'error.csrf': 'The form has expired. Please try again.',
  'error.bad_request': 'The request could not be read',
  'home.title': 'Overview',
  'home.welcome': 'Welcome, {name}.',
  'nav.skip': 'Skip to content',
  'nav.menu': 'Main menu',
  'error.not_found.home': 'To the freight lists',
  'form.required': 'needed to publish',
  'form.required.legend': 'Fields marked * are needed to publish; a draft can be saved without them.',
  'form.invalid': 'Please check the marked fields.',
  'form.error.number': 'Please enter a number, e.g. {example}.',
  'form.error.weight': 'Please enter a weight, e.g. {example} (kg, or t for tonnes).',
  'form.error.datetime': 'Please enter a date and a time, e.g. {example}.',
  'form.error.time_missing': 'Please add a time of day (the date alone is not taken).',
  'form.error.country': 'Unknown country: enter its name or two-letter code (e.g. {example}).',
  'form.error.end_before_start': 'The end lies before the start.',
  'form.error.past': 'This time lies in the past.',
  'form.error.integer': 'Please enter a whole number.',
  'form.error.companies': 'Unknown company: {names}.',
  'status.draft': 'draft',
  'status.open': 'open',
  'status.pending': 'awaiting confirmation',
  'status.taken': 'awarded',
  'status.expired': 'expired',
  'status.revoked': 'withdrawn',
  'status.closed': 'delivered',
  'status.archived': 'archived',
  'status.accepted': 'accepted',
  'status.waiting': 'waiting',
  'status.selected': 'selected',
  'status.deselected': 'deselected',
  'status.follow_up': 'follow-up',
  'status.dispatched': 'dispatched',
  'status.running': 'on the road',
  'status.delivered': 'delivered',
  'ui.cancel': 'Cancel',
};

const deu: Messages = {
  'placeholder.undefined': 'nicht definiert',
  'pager.prev': '‹ Zurück',
  'pager.next': 'Weiter ›',
  'pager.page': 'Seite',
  'app.name': 'Frachtbörse',
  'nav.freights': 'Frachten',
  'nav.rates': 'Ratensuche',
  'nav.templates': 'Vorlagen',
  'nav.flights': 'Flüge',
  'nav.milkrun': 'Milkrun',
  'nav.cases': 'Vorgänge',
  'nav.logout': 'Abmelden',
  'nav.account': 'Ihr Konto: Passwort ändern',
  'login.title': 'Anmelden',
  'login.user': 'E-Mail oder Benutzername',
  'login.password': 'Passwort',
  'login.submit': 'Anmelden',
  'login.failed': 'Unbekannter Benutzer oder falsches Passwort.',
  'login.throttled': 'Zu viele fehlgeschlagene Anmeldungen. Bitte in {minutes} Minuten erneut versuchen.',
  'error.not_found': 'Nicht gefunden',
  'error.not_found.text': 'Dieser Datensatz existiert nicht oder ist für Sie nicht sichtbar.',
  'error.unauthorized': 'API-Token fehlt oder ist ungültig',
  'error.csrf': 'Das Formular ist abgelaufen. Bitte erneut versuchen.',
  'error.bad_request': 'Die Anfrage konnte nicht gelesen werden',
  'home.title': 'Übersicht',
  'home.welcome': 'Willkommen, {name}.',
  'nav.skip': 'Zum Inhalt springen',
  'nav.menu': 'Hauptmenü',
  'error.not_found.home': 'Zu den Frachtlisten',
  'form.required': 'zum Veröffentlichen nötig',
  'form.required.legend': 'Mit * markierte Felder sind zum Veröffentlichen nötig; ein Entwurf kann ohne sie gespeichert werden.',
  'form.invalid': 'Bitte die markierten Felder prüfen.',
  'form.error.number': 'Bitte eine Zahl eingeben, z. B. {example}.',
  'form.error.weight': 'Bitte ein Gewicht eingeben, z. B. {example} (kg, oder t für Tonnen).',
  'form.error.datetime': 'Bitte Datum und Uhrzeit eingeben, z. B. {example}.',
  'form.error.time_missing': 'Bitte auch eine Uhrzeit angeben (ein Datum allein wird nicht übernommen).',
  'form.error.country': 'Unbekanntes Land: Namen oder zweistelligen Code eingeben (z. B. {example}).',
  'form.error.end_before_start': 'Das Ende liegt vor dem Beginn.',
  'form.error.past': 'Dieser Zeitpunkt liegt in der Vergangenheit.',
  'form.error.integer': 'Bitte eine ganze Zahl eingeben.',
  'form.error.companies': 'Unbekannte Firma: {names}.',
  'status.draft': 'Entwurf',
  'status.open': 'offen',
  'status.pending': 'Bestätigung ausstehend',
  'status.taken': 'vergeben',
  'status.expired': 'abgelaufen',
  'status.revoked': 'zurückgezogen',
  'status.closed': 'zugestellt',
  'status.archived': 'archiviert',
  'status.accepted': 'angenommen',
  'status.waiting': 'wartend',
  'status.selected': 'ausgewählt',
  'status.deselected': 'abgewählt',
  'status.follow_up': 'Wiedervorlage',
  'status.dispatched': 'disponiert',
  'status.running': 'unterwegs',
  'status.delivered': 'zugestellt',
  'ui.cancel': 'Abbrechen',
};

const catalogs: Record<Language, Messages> = { eng, deu };

/** Adds a module's messages (called at import time by the module's messages file). */
export function addMessages(language: Language, messages: Messages): void {
  Object.assign(catalogs[language], messages);
}

/** Keys with an English text but no German one (a test keeps this empty). */
export function untranslated(): string[] {
  return Object.keys(catalogs.eng).filter((key) => !(key in catalogs.deu));
}

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

export function translator(language: string): Translate {
  const lang: Language = isLanguage(language) ? language : 'eng';
  return (key, vars) => {
    let text = catalogs[lang][key] ?? eng[key] ?? key;
    if (vars) for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, String(v));
    return text;
  };
}
