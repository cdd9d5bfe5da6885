// The kernel's display formats (src/kernel/locale.ts), tested where they live: numbers and money in
// each language, the same text from a format made once and kept as from a new one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatKg, formatMoney, formatNumber, numberFormatFor } from '../../src/kernel/locale.ts';

const fresh = (language: 'eng' | 'deu', options: Intl.NumberFormatOptions, n: number) =>
  new Intl.NumberFormat(language === 'deu' ? 'de-DE' : 'en-GB', options).format(n);

test('numbers, weights and money in English and German', () => {
  assert.equal(formatNumber(1234.5678, 'deu'), '1.234,568');
  assert.equal(formatNumber(1234.5678, 'eng'), '1,234.568');
  assert.equal(formatNumber(5, 'eng', 2, 2), '5.00');
  assert.equal(formatNumber('junk', 'eng'), '');
  assert.equal(formatKg('12000.5', 'deu'), '12.000,5 kg');
  assert.equal(formatMoney('1745.5', 'EUR', 'deu'), '1.745,50\u00a0€');
  assert.equal(formatMoney(1745.5, 'eur', 'eng'), '€1,745.50');
  assert.equal(formatMoney(3, 'PLN', 'deu'), '3,00\u00a0PLN');
  // No currency, or no code: the number with two decimals.
  assert.equal(formatMoney(3, null, 'eng'), '3.00');
  assert.equal(formatMoney(3, 'E1R', 'deu'), '3,00');
  assert.equal(formatMoney(null, 'EUR', 'deu'), '');
});

test('a kept format writes what a new one writes, also after the table of formats started again', () => {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  // 26 × 26 codes: more than the table keeps, so it starts again on the way; each one is formatted twice.
  for (let round = 0; round < 2; round++)
    for (const a of letters)
      for (const b of letters) {
        const code = `X${a}${b}`;
        const language = (a.charCodeAt(0) + b.charCodeAt(0)) % 2 ? 'deu' : 'eng';
        assert.equal(formatMoney(12.5, code, language), fresh(language, { style: 'currency', currency: code }, 12.5));
      }
  for (const language of ['eng', 'deu'] as const)
    for (let max = 0; max <= 3; max++)
      for (let min = 0; min <= max; min++)
        assert.equal(
          formatNumber(98765.4321, language, max, min),
          fresh(language, { maximumFractionDigits: max, minimumFractionDigits: min }, 98765.4321),
        );
});

test("a page's own format is kept per language and options, and writes what a new one writes", () => {
  const whole = { style: 'currency', currency: 'EUR', maximumFractionDigits: 0, minimumFractionDigits: 0 } as const;
  assert.equal(numberFormatFor('deu', whole), numberFormatFor('deu', { ...whole }));
  assert.notEqual(numberFormatFor('deu', whole), numberFormatFor('eng', whole));
  assert.equal(numberFormatFor('deu', whole).format(1180.4), fresh('deu', whole, 1180.4));
  assert.equal(numberFormatFor('eng', { maximumFractionDigits: 1 }).format(4.25), fresh('eng', { maximumFractionDigits: 1 }, 4.25));
  assert.throws(() => numberFormatFor('eng', { style: 'currency', currency: 'E1R' }), RangeError);
});
