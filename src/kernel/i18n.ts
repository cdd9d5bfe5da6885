/** Languages of the exchange: `auth.language` codes (docs/reference.md#accounts). */
export const LANGUAGES = ['eng', 'deu'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * A module's texts in both languages. The German table must have exactly the English one's keys:
 * a missing or stray key fails the typecheck, not a page.
 */
export interface Catalogue<K extends string = string> {
  eng: Readonly<Record<K, string>>;
  deu: Readonly<Record<K, string>>;
}

/** A module's catalogue, its keys as typed as its English table's. */
export function catalogue<const E extends Record<string, string>>(
  eng: E,
  deu: { readonly [K in keyof E]: string },
): Catalogue<Extract<keyof E, string>> {
  return { eng, deu };
}

/**
 * Every key of every module's catalogue. Each module adds its own by declaration merging, beside
 * its catalogue (`declare module '../kernel/i18n.ts' { interface MessageKeys extends KeysOf<typeof X> {} }`),
 * so `t(key)` accepts exactly the keys that exist: a missing key fails the typecheck.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declarations
export interface MessageKeys {}
export type MessageKey = Extract<keyof MessageKeys, string>;
/** A catalogue's keys as an object type, for the declaration above. */
export type KeysOf<C extends Catalogue> = Record<keyof C['eng'], true>;

/** The kernel's own texts: labels every page shares, the placeholder of the API's display fields. */
export const KERNEL_MESSAGES = catalogue(
  {
    'placeholder.undefined': 'not defined',
    'pager.prev': '‹ Previous',
    'pager.next': 'Next ›',
    'pager.page': 'Page',
    'pager.size': 'Per page:',
    'pager.size.choose': '{count} per page',
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
    'nav.skip.list': 'Skip to the list',
    'nav.unread': 'unread',
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
    'ui.col.actions': 'Actions',
  },
  {
    'placeholder.undefined': 'nicht definiert',
    'pager.prev': '‹ Zurück',
    'pager.next': 'Weiter ›',
    'pager.page': 'Seite',
    'pager.size': 'Pro Seite:',
    'pager.size.choose': '{count} pro Seite',
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
    'nav.skip.list': 'Zur Liste springen',
    'nav.unread': 'ungelesen',
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
    'ui.col.actions': 'Aktionen',
  },
);
declare module './i18n.ts' {
  interface MessageKeys extends KeysOf<typeof KERNEL_MESSAGES> {}
}

/**
 * The texts in use, per language: the composition root (app.ts) installs every module's catalogue
 * once at start (installCatalogues); nothing is added as a side effect of an import.
 */
let installed: Record<Language, Readonly<Record<string, string>>> = { eng: KERNEL_MESSAGES.eng, deu: KERNEL_MESSAGES.deu };

/** Installs the catalogues (the kernel's first); a key defined by two catalogues is refused at start. */
export function installCatalogues(catalogues: readonly Catalogue[]): void {
  const eng: Record<string, string> = {};
  const deu: Record<string, string> = {};
  for (const c of [KERNEL_MESSAGES, ...catalogues.filter((c) => c !== KERNEL_MESSAGES)] as Catalogue[]) {
    const german: Readonly<Record<string, string>> = c.deu;
    for (const [key, text] of Object.entries(c.eng)) {
      if (Object.hasOwn(eng, key) && eng[key] !== text) throw new Error(`message key ${key} is defined twice`);
      eng[key] = text;
      deu[key] = german[key] ?? text;
    }
  }
  installed = { eng: Object.freeze(eng), deu: Object.freeze(deu) };
}

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

/**
 * The translator of a language: one function per language, made once (every request asks for
 * one: issue 49). It reads the installed catalogues when called, so installing them later holds.
 */
export function translator(language: string): Translate {
  return TRANSLATORS[isLanguage(language) ? language : 'eng'];
}

function makeTranslator(lang: Language): Translate {
  return (key, vars) => {
    // Every key exists (typed); the key itself only shows for a catalogue app.ts forgot to install.
    let text = installed[lang][key] ?? installed.eng[key] ?? key;
    if (vars) for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, String(v));
    return text;
  };
}

const TRANSLATORS = Object.fromEntries(LANGUAGES.map((lang) => [lang, makeTranslator(lang)])) as Record<Language, Translate>;
