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
  'error.unauthorized': 'Missing or invalid API token',
  'error.csrf': 'The form has expired. Please try again.',
  'error.bad_request': 'The request could not be read',
  'home.title': 'Overview',
  'home.welcome': 'Welcome, {name}.',
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
