/**
 * Air waybill numbers: `NNN-NNNNNNNN` (airline prefix, serial of eight digits whose last is the
 * check digit). Every module that reads one spells it this way.
 */

/**
 * The stored spelling `NNN-NNNNNNNN`, or null when `text` is no AWB. What is dropped before the
 * eleven digits are read: `space` only the spaces around it (a dash may follow the prefix;
 * tracking with fullstring=1), `separators` spaces and dashes anywhere (`020 12345675`: the
 * status files), `non-digits` everything but digits (tracking with fullstring=0).
 */
export function normaliseAwb(text: string, drop: 'space' | 'separators' | 'non-digits'): string | null {
  const kept = drop === 'space' ? text.trim() : text.replace(drop === 'separators' ? /[\s-]/g : /[^0-9]/g, '');
  const m = /^(\d{3})-?(\d{8})$/.exec(kept);
  return m ? `${m[1]}-${m[2]}` : null;
}

/** The AWB check digit: the serial's first seven digits mod 7 equal its eighth. */
export function awbCheckDigitValid(awb: string): boolean {
  const serial = awb.slice(-8);
  return Number(serial.slice(0, 7)) % 7 === Number(serial[7]);
}
