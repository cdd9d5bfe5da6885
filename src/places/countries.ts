import { createRequire } from 'node:module';

/**
 * Countries by ISO 3166-1 alpha-2 code with their names in English and German (npm
 * i18n-iso-countries, which lists official and common names: "Deutschland", "USA", "UK").
 */

const require = createRequire(import.meta.url);

interface CountriesLib {
  registerLocale(data: unknown): void;
  getNames(lang: string, options: { select: 'all' }): Record<string, string[]>;
  getAlpha2Codes(): Record<string, string>;
}

export interface Country {
  code: string;
  /** names per language, the official one first */
  names: { eng: string[]; deu: string[] };
}

let byCode: Map<string, Country> | undefined;

function load(): Map<string, Country> {
  if (byCode) return byCode;
  const lib = require('i18n-iso-countries') as CountriesLib;
  lib.registerLocale(require('i18n-iso-countries/langs/en.json'));
  lib.registerLocale(require('i18n-iso-countries/langs/de.json'));
  const en = lib.getNames('en', { select: 'all' });
  const de = lib.getNames('de', { select: 'all' });
  byCode = new Map();
  for (const code of Object.keys(lib.getAlpha2Codes())) {
    byCode.set(code, { code, names: { eng: en[code] ?? [code], deu: de[code] ?? en[code] ?? [code] } });
  }
  return byCode;
}

/** The country with this alpha-2 code (any case), or undefined. */
export function countryByCode(code: string): Country | undefined {
  return load().get(code.trim().toUpperCase());
}

/** The country's name in the language (`eng` or `deu`). */
export function countryName(code: string, language: string): string {
  const c = countryByCode(code);
  if (!c) return code.toUpperCase();
  return (language === 'deu' ? c.names.deu : c.names.eng)[0] ?? c.code;
}

/** Lower case without diacritics, so "osterreich" finds Österreich. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').toLowerCase().trim();
}

/**
 * Countries matching what a person typed: the exact code first, then names in either language
 * starting with the text, then names containing it. Two letters are also read as a code.
 */
export function searchCountries(query: string, limit = 5): Country[] {
  const q = fold(query);
  if (q.length < 2) return [];
  const scored: Array<{ c: Country; score: number }> = [];
  for (const c of load().values()) {
    let score = Infinity;
    if (q.length === 2 && c.code.toLowerCase() === q) score = 0;
    for (const name of [...c.names.eng, ...c.names.deu]) {
      const n = fold(name);
      if (n === q) score = Math.min(score, 1);
      else if (n.startsWith(q)) score = Math.min(score, 2);
      else if (q.length >= 3 && n.includes(q)) score = Math.min(score, 3);
    }
    if (score < Infinity) scored.push({ c, score });
  }
  scored.sort((a, b) => a.score - b.score || a.c.code.localeCompare(b.c.code));
  return scored.slice(0, limit).map((s) => s.c);
}
