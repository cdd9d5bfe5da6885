/**
 * How the exchange writes a place in one text (freight `from`/`to`, rate search origin and
 * destination, rate sheets, the place suggestions' values): `airport:<IATA>`, `city:<postal
 * area>` with the area as `<CC>-<postal code>`, or a bare value. Each reader decides what it
 * accepts; the spelling is read here once.
 */

export interface LocationText {
  /** the prefix, lower case; null for a bare value */
  prefix: 'airport' | 'city' | null;
  /** after the prefix and the spaces around it; the whole text for a bare value */
  rest: string;
}

export function splitLocation(text: string): LocationText {
  const m = /^(airport|city):\s*(.*)$/i.exec(text);
  return m ? { prefix: m[1]!.toLowerCase() as 'airport' | 'city', rest: m[2]!.trim() } : { prefix: null, rest: text };
}

/** `<CC>-<postal code>` with the country's two letters in upper case, or null. `spaced`: spaces may stand around the dash. */
export function countryAndPostal(rest: string, spaced = false): { country: string; postal: string } | null {
  const m = (spaced ? /^([A-Za-z]{2})\s*-\s*(.+)$/ : /^([A-Za-z]{2})-(.+)$/).exec(rest);
  return m ? { country: m[1]!.toUpperCase(), postal: m[2]! } : null;
}

export const airportText = (code: string) => `airport:${code}`;
export const cityText = (country: string, postal: string) => `city:${country}-${postal}`;
