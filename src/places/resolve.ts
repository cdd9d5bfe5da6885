import { citiesNamed, searchCities, type City } from './cities.ts';
import { cityLocalName, cityNameIn } from './city-names.ts';
import { countryByCode, fold, searchCountries } from './countries.ts';
import { POSTAL_AREA, postalKey } from './postal.ts';
import { nearestPostalKey, postalAreaCentre } from './postal-centres.ts';

/**
 * A place typed and submitted without picking a suggestion (docs/choices.md, Typed places):
 * "München", "Muenchen", "Munich", "PL Warszawa", "Warszawa (PL)", "Warschau / Warszawa (PL)"
 * (a suggestion's own label), or a postal area "PL-00", "DE 80331". The pages resolve it on
 * submit into the coordinates (and country, town, postal code) their inputs take; the JSON API
 * reads its own forms as before.
 *
 * A name resolves when exactly one city carries it (in its own, English or German name, or one
 * of the spellings the data lists), or when the most populous of those that do is at least
 * DOMINANT times as big as the next ("Frankfurt (Oder)" does not make "Frankfurt am Main"
 * ambiguous, two Neustadts of a similar size do). Otherwise it answers the choices: the cities
 * of that name, else the cities whose name begins with it.
 */

export interface ResolvedPlace {
  kind: 'city' | 'postal';
  /** ISO 3166-1 alpha-2 */
  country: string;
  /** as the reader's language names it ("Warschau" in German) */
  name: string;
  /** as written on an address there ("Warszawa") */
  local: string;
  latitude: number;
  longitude: number;
  /** a postal area or code (postal places only), as typed: `00`, `80331` */
  postal?: string;
  /** the reader's words for it: "Warschau / Warszawa (PL)", "DE-80331 München" */
  label: string;
}

export type Resolution = { place: ResolvedPlace } | { choices: ResolvedPlace[] } | { unknown: true };

/** How many times the biggest city of a name must outnumber the next to be meant by it alone. */
export const DOMINANT = 10;
const CHOICES = 8;
/** On submit a page may wait this long for the city data's first load. */
const SUBMIT_WAIT_MS = 4000;

function cityPlace(city: City, language: string, duplicate = false): ResolvedPlace {
  const name = cityNameIn(city, language);
  const local = cityLocalName(city);
  const people = duplicate
    ? ` · ${city.population.toLocaleString(language === 'deu' ? 'de-DE' : 'en-GB')} ${language === 'deu' ? 'Einw.' : 'inh.'}`
    : '';
  return {
    kind: 'city',
    country: city.country,
    name,
    local,
    latitude: city.latitude,
    longitude: city.longitude,
    label: `${name === local ? name : `${name} / ${local}`} (${city.country})${people}`,
  };
}

/** The ways a text may name a city: a name, perhaps with a country (before, after or in brackets). */
function readings(text: string): Array<{ names: string[]; country?: string }> {
  const out: Array<{ names: string[]; country?: string }> = [];
  const names = (s: string) =>
    s
      .split(' / ')
      .map((n) => n.trim())
      .filter((n) => n.length >= 2);
  const bracket = /^(.+?)\s*\(([A-Za-z]{2})\)$/.exec(text);
  if (bracket && countryByCode(bracket[2]!)) out.push({ names: names(bracket[1]!), country: bracket[2]!.toUpperCase() });
  const before = /^([A-Za-z]{2})(?:\s*[-,]\s*|\s+)(\p{L}.+)$/u.exec(text);
  const after = /^(\p{L}.+?)\s*,\s*([A-Za-z]{2})$/u.exec(text);
  const withCountry = [
    before && { names: names(before[2]!), country: before[1]! },
    after && { names: names(after[1]!), country: after[2]! },
  ]
    .filter((r): r is { names: string[]; country: string } => Boolean(r) && Boolean(countryByCode(r!.country)))
    .map((r) => ({ ...r, country: r.country.toUpperCase() }));
  // "PL Warszawa" reads as country and name first; "La Coruña" (LA is Laos) as a name first.
  const upper = before && /^[A-Z]{2}$/.test(before[1]!);
  if (upper) out.push(...withCountry, { names: names(text) });
  else out.push({ names: names(text) }, ...withCountry);
  return out.filter((r) => r.names.length > 0);
}

/** A postal area or code typed with its country: `PL-00`, `DE 80331`, `DE-80331 München` (a suggestion's words). */
function readPostalPlace(text: string): ResolvedPlace | undefined {
  const m = /^([A-Za-z]{2})\s*-?\s*(\d[\dA-Za-z-]{0,11})(?:\s+\p{L}.*)?$/u.exec(text);
  if (!m || !countryByCode(m[1]!)) return undefined;
  const country = m[1]!.toUpperCase();
  const code = postalKey(m[2]!);
  const centre = postalAreaCentre(country, code);
  if (!centre) return undefined;
  const town = centre.city || '';
  return {
    kind: 'postal',
    country,
    name: town,
    local: town,
    latitude: centre.latitude,
    longitude: centre.longitude,
    postal: m[2]!,
    label: `${country}-${m[2]!}${town ? ` ${town}` : ''}`,
  };
}

/** What a typed place text names (see above), for a reader of `language`. */
export async function resolvePlaceText(typed: string, language: string, options: { waitMs?: number } = {}): Promise<Resolution> {
  // A suggestion's label may carry a note after " · " (inhabitants, a lane's area).
  const text = typed.split(' · ')[0]!.trim().slice(0, 100);
  if (text.length < 2) return { unknown: true };
  const postal = readPostalPlace(text);
  if (postal) return { place: postal };
  const waitMs = options.waitMs ?? SUBMIT_WAIT_MS;
  for (const reading of readings(text)) {
    const found = new Map<string, City>();
    for (const name of reading.names)
      for (const c of await citiesNamed(name, { country: reading.country, limit: 20, waitMs }))
        found.set(`${c.name}|${c.country}|${c.latitude}|${c.longitude}`, c);
    const cities = [...found.values()].sort((a, b) => b.population - a.population);
    if (cities.length === 0) continue;
    if (cities.length === 1 || cities[0]!.population >= DOMINANT * cities[1]!.population) return { place: cityPlace(cities[0]!, language) };
    return { choices: presented(cities.slice(0, CHOICES), language) };
  }
  // No city of that name: those whose name begins with it, as "did you mean".
  const reading = readings(text)[0];
  const begun = reading ? await searchCities(reading.names[0]!, CHOICES, { country: reading.country, waitMs }) : [];
  return begun.length ? { choices: presented(begun, language) } : { unknown: true };
}

/** Choices named so that two of the same name differ (by their inhabitants). */
function presented(cities: City[], language: string): ResolvedPlace[] {
  const count = new Map<string, number>();
  const key = (c: City) => `${cityNameIn(c, language)}|${c.country}`;
  for (const c of cities) count.set(key(c), (count.get(key(c)) ?? 0) + 1);
  return cities.map((c) => cityPlace(c, language, (count.get(key(c)) ?? 0) > 1));
}

/** A point as the radius inputs take it: `lat,lon` to four decimals (about 11 m). */
export const pointText = (p: { latitude: number; longitude: number }) =>
  `${Number(p.latitude.toFixed(4))},${Number(p.longitude.toFixed(4))}`;

/** A city's postal area is that of a code whose centre lies this near the city's (suggest.ts, `lane`). */
const CITY_POSTAL_KM = 25;

/**
 * A lane's place as a person types it on the lane prices page (docs/choices.md, Typed places): a
 * country's name ("Polen") as its code, a town as the postal area of its centre (the lane
 * suggestion's value: "München" → `DE-80`, else its country), a postal code as its area; the
 * text itself when it names none of these, or several (the page then says it cannot read it).
 */
export async function laneAreaOfText(typed: string, language: string): Promise<string> {
  const text = typed.trim();
  if (!text || /^[A-Za-z]{2}(-.*)?$/.test(text) || /^airport:/i.test(text) || /^[A-Za-z]{3}$/.test(text)) return text;
  const country = searchCountries(text, 1)[0];
  if (country && [...country.names.eng, ...country.names.deu].some((n) => fold(n) === fold(text))) return country.code;
  const found = await resolvePlaceText(text, language);
  if (!('place' in found)) return text;
  const { place } = found;
  if (place.kind === 'postal') return `${place.country}-${postalKey(place.postal ?? '').slice(0, POSTAL_AREA)}`;
  const key = nearestPostalKey(place.country, place, CITY_POSTAL_KM);
  return key ? `${place.country}-${key.slice(0, POSTAL_AREA)}` : place.country;
}

/**
 * A form's place typed as a town's name (the truck offer form's origin; docs/choices.md, Typed
 * places): the form's side then carries the town's country and coordinates, its code left empty,
 * as the API takes a place given by its point. A name that names several towns keeps coordinates
 * a picked suggestion put beside it; `choices` says which towns it may mean otherwise. A code, an
 * airport or an empty field is left as it is.
 */
export async function townIntoForm(
  params: Record<string, unknown>,
  side: string,
  language: string,
): Promise<{ resolved: boolean; choices: ResolvedPlace[] }> {
  const raw = params[side];
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!/^\p{L}/u.test(text) || /^(airport|city):/i.test(text) || /^[A-Za-z]{3}$/.test(text)) return { resolved: false, choices: [] };
  const found = await resolvePlaceText(text, language);
  const given = (v: unknown) => v !== undefined && v !== null && String(v).trim() !== '';
  if ('place' in found) {
    params[side] = '';
    params[`${side}_country`] = found.place.country;
    params[`${side}_latitude`] = String(found.place.latitude);
    params[`${side}_longitude`] = String(found.place.longitude);
    return { resolved: true, choices: [] };
  }
  if (given(params[`${side}_latitude`]) && given(params[`${side}_longitude`])) {
    params[side] = '';
    return { resolved: true, choices: [] };
  }
  return { resolved: false, choices: 'choices' in found ? found.choices : [] };
}
