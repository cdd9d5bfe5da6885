import { Decimal } from 'decimal.js';

/**
 * Numbers, money and times as a person reads and types them in their language (`eng`, `deu`).
 * Display only, and the HTML forms' normalising before they call the same handler as the API:
 * the JSON API keeps its own lenient readers (kernel/params.ts) and never sees these rules.
 */

const TAG: Record<string, string> = { eng: 'en-GB', deu: 'de-DE' };
const tagOf = (language: string) => TAG[language] ?? 'en-GB';

const asNumber = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};

/**
 * The number formats, made once each: building an `Intl.NumberFormat` costs ~30 µs, using one ~1 µs,
 * and a list page or a transport order formats hundreds of values. Keyed by what makes them differ;
 * the currency codes a caller may name are many, so the table starts again when it is full.
 */
const formats = new Map<string, Intl.NumberFormat>();
const FORMATS_KEPT = 256;
function numberFormat(key: string, tag: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(tag, options);
    if (formats.size >= FORMATS_KEPT) formats.clear();
    formats.set(key, format);
  }
  return format;
}

/**
 * A number format for the reader's language (`eng`, `deu`) and these options, made once and kept
 * (for a page's own formats: whole money, a rating's one decimal). Throws as `Intl.NumberFormat`
 * does for options it refuses (an unknown currency code).
 */
export function numberFormatFor(language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const tag = tagOf(language);
  return numberFormat(`${tag} ${JSON.stringify(options)}`, tag, options);
}

/** `1.250,5` (deu) / `1,250.5` (eng); at most `max` decimals (3: grams of a kg). Null and junk: ''. */
export function formatNumber(value: unknown, language: string, max = 3, min = 0): string {
  const n = asNumber(value);
  if (n === null) return '';
  const tag = tagOf(language);
  return numberFormat(`${tag} ${max} ${min}`, tag, { maximumFractionDigits: max, minimumFractionDigits: min }).format(n);
}

/** `1.745,50 €` (deu) / `€1,745.50` (eng); an unknown currency code is written after the number. */
export function formatMoney(value: unknown, currency: unknown, language: string): string {
  const n = asNumber(value);
  if (n === null) return '';
  const code = typeof currency === 'string' && /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : null;
  if (!code) return formatNumber(n, language, 2, 2);
  try {
    const tag = tagOf(language);
    return numberFormat(`${tag} ${code}`, tag, { style: 'currency', currency: code }).format(n);
  } catch {
    return `${formatNumber(n, language, 2, 2)} ${code}`;
  }
}

/** `1.250,5 kg` */
export function formatKg(value: unknown, language: string): string {
  const text = formatNumber(value, language);
  return text ? `${text} kg` : '';
}

const STAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})/;

/** An API timestamp (`YYYY-MM-DD HH:MM[:SS]`) without seconds: `26.11.2026 08:00` (deu), `2026-11-26 08:00` (eng). */
export function formatStamp(value: unknown, language: string): string {
  const m = typeof value === 'string' ? STAMP.exec(value) : null;
  if (!m) return '';
  return language === 'deu' ? `${m[3]}.${m[2]}.${m[1]} ${m[4]}:${m[5]}` : `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}`;
}

/** A date (`YYYY-MM-DD`): `03.06.2030` (deu), as it is (eng). */
export function formatDay(value: unknown, language: string): string {
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (!m) return typeof value === 'string' ? value : '';
  return language === 'deu' ? `${m[3]}.${m[2]}.${m[1]}` : (value as string);
}

/** A time window: `26.11.2026 08:00–12:00` on one day, else both ends in full; one end alone as it is. */
export function formatWindow(start: unknown, end: unknown, language: string): string {
  const a = formatStamp(start, language);
  const b = formatStamp(end, language);
  if (!a) return b;
  if (!b || a === b) return a;
  const [dayA, timeA] = a.split(' ');
  const [dayB, timeB] = b.split(' ');
  return dayA === dayB ? `${dayA} ${timeA}–${timeB}` : `${a} – ${b}`;
}

/** `YYYY-MM-DDTHH:MM` for a native datetime-local input, from an API timestamp. */
export function toDateTimeLocal(value: unknown): string {
  const m = typeof value === 'string' ? STAMP.exec(value) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}` : '';
}

// ---------------------------------------------------------------------------------------------
// Reading what a person typed (HTML forms only)

/**
 * A decimal as people write it: `1.745,50`, `1745,50`, `1,745.50`, `1 745.5`, `12.5`. With both
 * separators the last one is the decimal mark; with one alone, a group of exactly three digits
 * after it is read by the language (`1.745` is 1745 in German, `1,745` is 1745 in English).
 * Answers the plain decimal text (`1745.50`), or undefined when it is no number.
 */
export function readLocaleDecimal(input: unknown, language: string): string | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? String(input) : undefined;
  if (typeof input !== 'string') return undefined;
  let s = input.trim().replace(/[\s\u00a0\u202f']/g, '');
  if (!s || s.length > 40) return undefined;
  const sign = s.startsWith('-') ? '-' : '';
  s = s.replace(/^[-+]/, '');
  const comma = s.lastIndexOf(',');
  const dot = s.lastIndexOf('.');
  let text: string;
  if (comma >= 0 && dot >= 0) {
    const decimal = comma > dot ? ',' : '.';
    const group = decimal === ',' ? '.' : ',';
    text = s.split(group).join('').replace(decimal, '.');
  } else if (comma >= 0 || dot >= 0) {
    const mark = comma >= 0 ? ',' : '.';
    const grouped = new RegExp(`^\\d{1,3}(\\${mark}\\d{3})+$`).test(s);
    // A thousands group is read as one where the language groups with that mark.
    const groupsWithMark = (language === 'deu' && mark === '.') || (language !== 'deu' && mark === ',');
    text = grouped && (groupsWithMark || s.split(mark).length > 2) ? s.split(mark).join('') : s.replace(mark, '.');
  } else {
    text = s;
  }
  if (!/^\d+(\.\d+)?$/.test(text) && !/^\.\d+$/.test(text)) return undefined;
  return new Decimal(`${sign}${text}`).toFixed();
}

/** A weight in kg from `12,5 t`, `12.500 kg`, `750`: the kg as decimal text, or undefined. */
export function readLocaleWeightKg(input: unknown, language: string): string | undefined {
  if (typeof input !== 'string') return readLocaleDecimal(input, language);
  const m = /^(.*?)\s*(kg|t|to|tonnen|tons?|tonnes?)?\.?$/i.exec(input.trim());
  if (!m) return undefined;
  const number = readLocaleDecimal(m[1], language);
  if (number === undefined) return undefined;
  const unit = (m[2] ?? 'kg').toLowerCase();
  return unit === 'kg' ? number : new Decimal(number).times(1000).toFixed();
}

/**
 * A time as typed: the native input's `2026-11-26T08:00`, the API's `2026-11-26 08:00`, or German
 * `26.11.2026 08:00` (`26.11.26 8:00` too). A date alone comes back as `YYYY-MM-DD` (which the
 * freight fields drop with a warning, docs/reference.md#the-api); undefined when it is no date.
 */
export function readLocaleDateTime(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  const s = input.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  let year: string, month: string, day: string;
  if (m) [year, month, day] = [m[1]!, m[2]!, m[3]!];
  else {
    m = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})(?:,?\s+(\d{1,2})[:.](\d{2})(?::(\d{2}))?(?:\s*Uhr)?)?$/i.exec(s);
    if (!m) return undefined;
    year = m[3]!.length === 2 ? `20${m[3]}` : m[3]!;
    month = m[2]!.padStart(2, '0');
    day = m[1]!.padStart(2, '0');
  }
  const date = `${year}-${month}-${day}`;
  if (m[4] === undefined) return date;
  return `${date} ${m[4]!.padStart(2, '0')}:${m[5]}${m[6] ? `:${m[6]}` : ''}`;
}
