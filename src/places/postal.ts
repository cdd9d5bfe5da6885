import { createRequire } from 'node:module';
import { countryByCode } from './countries.ts';

/**
 * Postal code formats per country (npm postal-codes-js: a validation pattern, characters to
 * ignore and valid examples per country, from the UPU's formats). A postal area is a country
 * and a prefix of its postal codes (`DE-60`), as rate zones and load searches use them.
 */

const require = createRequire(import.meta.url);

interface FormatFile {
  Description: string;
  RedundantCharacters: string;
  ValidationRegex: string | string[];
  TestData?: { Valid?: string[] };
}

interface PostalFormat {
  pattern: RegExp;
  /** valid examples as written ("44-100", "SE5 0EG") */
  examples: string[];
  description: string;
}

let formats: Map<string, PostalFormat | null> | undefined;

function load(): Map<string, PostalFormat | null> {
  if (formats) return formats;
  const byCountry = require('postal-codes-js/generated/postal-codes-alpha2.json') as Record<string, { postalCodeFormat?: string }>;
  const files = new Map<string, PostalFormat>();
  formats = new Map();
  for (const [code, entry] of Object.entries(byCountry)) {
    const file = entry.postalCodeFormat;
    if (!file) {
      formats.set(code, null);
      continue;
    }
    let format = files.get(file);
    if (!format) {
      const data = require(`postal-codes-js/formats/${file}`) as FormatFile;
      const source = Array.isArray(data.ValidationRegex) ? `^(?:${data.ValidationRegex.join('|')})$` : data.ValidationRegex;
      format = {
        pattern: new RegExp(source.startsWith('^') ? source : `^(?:${source})$`, 'i'),
        examples: (data.TestData?.Valid ?? []).map((e) => e.trim().toUpperCase()),
        description: data.Description,
      };
      files.set(file, format);
    }
    formats.set(code, format);
  }
  return formats;
}

/**
 * A postal area: a country and its codes' first this many characters of the postal key (DE-60).
 * Lane prices are kept per area (lanes/lane.ts), so the lane form's suggestions offer areas.
 */
export const POSTAL_AREA = 2;

/** A postal code or prefix as stored for search: letters and digits only, upper case ("SE5 0EG" -> "SE50EG"). */
export function postalKey(text: string): string {
  return text.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
}

/**
 * Whether `prefix` can begin a valid postal code of the country: it is one, or completing it
 * with the tail of one of the format's examples gives one. Countries without a known format
 * accept any prefix of letters and digits.
 */
export function isPostalPrefix(country: string, prefix: string): boolean {
  const format = load().get(country.toUpperCase());
  const key = postalKey(prefix);
  if (!key || key.length > 12) return false;
  if (!format) return /^[0-9A-Z]+$/.test(key);
  if (matches(format, key)) return true;
  return format.examples.some((example) => {
    const tail = postalKey(example);
    return tail.length > key.length && matches(format, key + tail.slice(key.length));
  });
}

/** Whether `code` is a complete postal code of the country. */
export function isPostalCode(country: string, code: string): boolean {
  const format = load().get(country.toUpperCase());
  return Boolean(format && matches(format, postalKey(code)));
}

/**
 * Whether letters and digits `key` form a valid code: as they are, or written in the shape of
 * one of the examples (some patterns require their separator: PL "44-100", JP "100-0001").
 */
function matches(format: PostalFormat, key: string): boolean {
  if (format.pattern.test(key)) return true;
  return format.examples.some((example) => {
    if (postalKey(example).length !== key.length) return false;
    let i = 0;
    const shaped = [...example].map((ch) => (/[0-9A-Z]/i.test(ch) ? key[i++] : ch)).join('');
    return format.pattern.test(shaped);
  });
}

/** Countries (codes) whose postal codes can begin with `prefix`, in the order given by `preferred` first. */
export function countriesForPostal(prefix: string, preferred: readonly string[] = []): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const code of [...preferred, ...load().keys()]) {
    const c = code.toUpperCase();
    if (seen.has(c) || !countryByCode(c)) continue;
    seen.add(c);
    if (load().get(c) && isPostalPrefix(c, prefix)) out.push(c);
  }
  return out;
}
