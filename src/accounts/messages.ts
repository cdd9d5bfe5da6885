import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The accounts module's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const ACCOUNT_MESSAGES = catalogue(
  {
    'password.title': 'Change password',
    'password.current': 'Current password',
    'password.new': 'New password',
    'password.repeat': 'New password again',
    'password.submit': 'Change password',
    'password.changed': 'Password changed. Your other browser sessions have been logged out; the API token stays the same.',
    'password.wrong_current': 'current_password: this is not your current password',
    'password.mismatch': 'password_repeat: the two new passwords differ',
    'password.length': 'password: at least {min} and at most {max} characters',
    'password.hint': 'At least 6 characters. Changing it logs out your other browser sessions.',
    'company.verified': 'verified by the operator',
    'company.block': 'Block this company',
    'company.unblock': 'Unblock',
    'company.block.question':
      'Block {company}? Its freights disappear from your lists, searches and alerts, and its bids on your freights are refused. You can unblock it at any time.',
    'company.block.confirm': 'Yes, block',
    'company.rate.link': 'Rate {company}',
  },
  {
    'password.title': 'Passwort ändern',
    'password.current': 'Aktuelles Passwort',
    'password.new': 'Neues Passwort',
    'password.repeat': 'Neues Passwort wiederholen',
    'password.submit': 'Passwort ändern',
    'password.changed': 'Passwort geändert. Ihre anderen Browser-Sitzungen wurden abgemeldet; das API-Token bleibt gleich.',
    'password.wrong_current': 'current_password: Das ist nicht Ihr aktuelles Passwort',
    'password.mismatch': 'password_repeat: Die beiden neuen Passwörter sind verschieden',
    'password.length': 'password: mindestens {min} und höchstens {max} Zeichen',
    'password.hint': 'Mindestens 6 Zeichen. Eine Änderung meldet Ihre anderen Browser-Sitzungen ab.',
    'company.verified': 'vom Betreiber geprüft',
    'company.block': 'Diese Firma sperren',
    'company.unblock': 'Entsperren',
    'company.block.question':
      '{company} sperren? Ihre Frachten verschwinden aus Ihren Listen, Suchen und Benachrichtigungen, und ihre Gebote auf Ihre Frachten werden abgelehnt. Sie können die Sperre jederzeit aufheben.',
    'company.block.confirm': 'Ja, sperren',
    'company.rate.link': '{company} bewerten',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof ACCOUNT_MESSAGES> {}
}

/** The codes of the accounts module's failures (kernel/errors.ts); the login's own are the kernel's. */
export const ACCOUNT_ERRORS = errorCodes(ACCOUNT_MESSAGES, ['password.wrong_current', 'password.mismatch', 'password.length']);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof ACCOUNT_ERRORS> {}
}
