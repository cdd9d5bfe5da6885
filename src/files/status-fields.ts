import { Decimal } from 'decimal.js';
import { FileRefused, type FileProblem } from '../kernel/refused.ts';

/**
 * What every status reader (CSV, Cargo-IMP FSU, Cargo-XML XFSU) shares, so that the three give
 * the same status events for the same facts.
 */

/** Problems kept for the message; more are counted. */
export const MAX_PROBLEMS = 50;

/** The problems of one file: every one counted, the first MAX_PROBLEMS kept for the 406 message. */
export class Problems {
  readonly kept: FileProblem[] = [];
  total = 0;
  add(p: FileProblem): void {
    this.total++;
    if (this.kept.length < MAX_PROBLEMS) this.kept.push(p);
  }
  /** Refuses the whole file when anything was wrong: nothing is stored. */
  throwIfAny(): void {
    if (this.total) throw new FileRefused(this.kept, this.total);
  }
}

/** A flight as stored: upper case, no spaces (`lh 400` → `LH400`). */
export const flightNumber = (text: string): string => text.toUpperCase().replace(/\s+/g, '');

const KG_PER_LB = new Decimal('0.45359237');

/** Pounds (exact decimal text) in kilograms to the gram, half up. */
export function poundsToKg(pounds: string): string {
  return new Decimal(pounds).mul(KG_PER_LB).toDecimalPlaces(3, Decimal.ROUND_HALF_UP).toFixed();
}

/** A weight as stored: exact decimal text, at most 3 decimals, no trailing zeros (`250.50` → `250.5`). */
export const weightText = (kg: string): string => new Decimal(kg).toFixed();

/** Status codes read as events (IATA Cargo-IMP / cXML code list 1.18, except DIS, OCI, OSI, TRM). */
export const STATUS_CODES = [
  'BKD',
  'RCS',
  'FOH',
  'MAN',
  'PRE',
  'DEP',
  'ARR',
  'RCF',
  'AWR',
  'NFD',
  'AWD',
  'DLV',
  'DDL',
  'DPU',
  'TFD',
  'RCT',
  'CCD',
  'TGC',
  'CRC',
  'DOC',
  'FIW',
  'FOW',
] as const;
