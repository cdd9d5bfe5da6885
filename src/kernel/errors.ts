import { KERNEL_MESSAGES, type Catalogue, type MessageKey } from './i18n.ts';

/**
 * Machine-readable errors (issue 25): every `status` = `error` answer carries a stable `code`
 * beside its human `message`. Each module lists the codes it answers with, beside its
 * catalogue (`errorCodes`), and adds them to `ErrorCodes` by declaration merging
 * (`declare module '../kernel/errors.ts' { interface ErrorCodes extends CodesOf<typeof X> {} }`),
 * so a failure can only carry a listed code: an unlisted one fails the typecheck. app.ts joins
 * the lists (`ERROR_CODES`, which must name every code) for the API description.
 *
 * A functional failure's code is its message key (`FailureCode`): the English text of the
 * catalogue says what it means, and the message is that key's text in the caller's language.
 * Codes are never renamed, only added (docs/choices.md, Error codes).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declarations
export interface ErrorCodes {}
export type ErrorCode = Extract<keyof ErrorCodes, string>;
/** The code of a functional failure (200, `status` = `error`): a listed code that is also a message key. */
export type FailureCode = Extract<ErrorCode, MessageKey>;
/** A list of codes as an object type, for the declaration above. */
export type CodesOf<L extends Readonly<Record<string, string>>> = Record<keyof L, true>;

/** A module's codes taken from its catalogue: code -> the English text, which is its meaning. */
export function errorCodes<K extends string, const C extends K>(catalogue: Catalogue<K>, codes: readonly C[]): Readonly<Record<C, string>> {
  const list = {} as Record<C, string>;
  for (const code of codes) list[code] = catalogue.eng[code];
  return list;
}

/**
 * The codes of a page's form refused with each problem beside its field (the freight, bid and
 * rate-search forms read what a person typed, in their language). HTML only: the API reads the
 * same fields by its own rules and refuses with their own codes, so this code never reaches a
 * JSON answer and is not among the documented ones.
 */
export const PAGE_FORM_INVALID = 'form.invalid' satisfies MessageKey;
export type PageFormCode = typeof PAGE_FORM_INVALID;

/**
 * The kernel's codes: the refusals of a request before or around any endpoint (the framework's
 * answers), and the login's failures (their texts are the kernel's, the login page shows them).
 */
export const KERNEL_ERRORS = {
  'auth.unauthorized': 'The API token is missing or invalid, or it is a token of the other environment (401).',
  not_found: 'No such record or path, or one the caller may not see: the two cannot be told apart (404, `data` is an empty array).',
  'request.unreadable': 'The request could not be read: a malformed request line, URL or body (400).',
  'request.too_large': 'The body is larger than the endpoint accepts (413).',
  'request.path_too_long': 'A path parameter is longer than the server reads (414).',
  'request.headers_too_large': 'The request line and headers are larger than 16 KiB (431).',
  'request.timeout': 'The request did not arrive completely in time (408).',
  internal: 'An error of the server (500), logged as a bug; the request may be tried again later.',
  ...errorCodes(KERNEL_MESSAGES, ['login.failed', 'login.throttled']),
} as const;

declare module './errors.ts' {
  interface ErrorCodes extends CodesOf<typeof KERNEL_ERRORS> {}
}
