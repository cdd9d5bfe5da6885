import { searchAirports, type Airport } from '../airports/index.ts';
import { citiesLoaded, searchCities, type City } from './cities.ts';
import { cityLocalName, cityNameIn } from './city-names.ts';
import { countryByCode, countryName, searchCountries } from './countries.ts';
import { airportPoint, airportsNear } from './geo.ts';
import { airportText, cityText } from './location.ts';
import { countriesForPostal, isPostalCode, isPostalPrefix, POSTAL_AREA, postalKey } from './postal.ts';
import { nearestPostalKey, postalCentre } from './postal-centres.ts';

/**
 * Places a person can type (docs/choices.md, Load search): countries, postal areas, airports
 * and cities, suggested for one kind of input. Each suggestion's `value` is what that input
 * takes:
 * - `filter` (list search `from`/`to`): `DE`, `DE-60`, `airport:FRA`; a city's value is its
 *   `lat,lon`, meant for the side's radius input (`from_near`);
 * - `near` (`from_near`/`to_near`): `lat,lon` of a city, `airport:FRA`;
 * - `freight` (freight form `from`/`to`): `city:DE-60311` (a complete postal code),
 *   `airport:FRA`; a city has no postal code in the data, so its value is empty and the form
 *   takes its country, name (address) and coordinates instead;
 * - `rate` (rate search origin/destination): `city:DE-60311` or a shorter postal area,
 *   `airport:FRA`; a city offers the airports around it (rate zones are postal areas);
 * - `lane` (lane prices `from`/`to`, kept per postal area): `DE`, `DE-60` (a longer code is
 *   offered as its area, POSTAL_AREA), `airport:FRA`; a city's value is the area of the postal
 *   code nearest its centre (Frankfurt am Main: `DE-60`), its country where the data has none.
 */

export const PLACE_INPUTS = ['filter', 'near', 'freight', 'rate', 'lane'] as const;
export type PlaceInput = (typeof PLACE_INPUTS)[number];

export interface PlaceSuggestion {
  kind: 'country' | 'postal' | 'airport' | 'city';
  value: string;
  label: string;
  country: string;
  name?: string;
  postal?: string;
  latitude?: number;
  longitude?: number;
  population?: number;
  /** km from the city asked about (airports around a city) */
  distance?: number;
}

export interface SuggestOptions {
  input: PlaceInput;
  language: string;
  /** a country the form already knows (freight form's country field): its postal areas first */
  country?: string;
  limit: number;
  /** how long to wait for the city data on its first load */
  waitMs?: number;
}

/** Postal areas of these countries come first for a bare code, after the hinted country. */
const HOME: Record<string, string[]> = { deu: ['DE', 'AT', 'CH'], eng: ['GB', 'IE'] };
const EUROPE = [
  'DE',
  'FR',
  'IT',
  'ES',
  'NL',
  'BE',
  'PL',
  'AT',
  'CH',
  'CZ',
  'DK',
  'SE',
  'NO',
  'FI',
  'PT',
  'HU',
  'SK',
  'SI',
  'HR',
  'RO',
  'BG',
  'GR',
  'LU',
  'LT',
  'LV',
  'EE',
  'GB',
  'IE',
];

const coord = (n: number) => String(Number(n.toFixed(4)));
/** A city's postal area is that of a code whose centre lies this near the city's (else its country). */
const CITY_POSTAL_KM = 25;

function airportSuggestion(a: Airport, language: string, near?: { city: City; km: number }): PlaceSuggestion {
  const point = airportPoint(a);
  const where = near ? ` – ${Math.round(near.km)} km ${language === 'deu' ? 'von' : 'from'} ${cityNameIn(near.city, language)}` : '';
  return {
    kind: 'airport',
    value: airportText(a.iata),
    label: `${a.iata} – ${a.name}${a.city ? `, ${a.city}` : ''} (${a.country})${where}`,
    country: a.country,
    name: a.name,
    latitude: point.latitude,
    longitude: point.longitude,
    ...(near ? { distance: Math.round(near.km * 10) / 10 } : {}),
  };
}

/** A postal area, with its town and centre where the postal data knows the code (or its area). */
function postalSuggestion(country: string, typed: string, input: PlaceInput, language: string): PlaceSuggestion {
  const area = language === 'deu' ? 'PLZ-Gebiet' : 'postal area';
  const code = input === 'lane' ? typed.slice(0, POSTAL_AREA) : typed;
  // A lane's area is named by the town of the code typed (DE-60 Frankfurt am Main for 60311).
  const centre = postalCentre(country, typed);
  return {
    kind: 'postal',
    value: input === 'filter' || input === 'lane' ? `${country}-${code}` : cityText(country, code),
    label: `${country}-${code}${centre ? ` ${centre.city}` : ''} · ${area}, ${countryName(country, language)}`,
    country,
    postal: code,
    ...(centre ? { name: centre.city, latitude: centre.latitude, longitude: centre.longitude } : {}),
  };
}

/** A typed postal code: `DE-60311`, `DE 60`, `de60311` (country first) or `60311` (any country). */
function readPostal(text: string): { country?: string; code: string } | undefined {
  const withCountry =
    /^([A-Za-z]{2})\s*-?\s*(\d[0-9A-Za-z -]{0,11})$/.exec(text) ?? /^([A-Za-z]{2})\s*-\s*([0-9A-Za-z][0-9A-Za-z -]{0,11})$/.exec(text);
  if (withCountry && countryByCode(withCountry[1]!)) return { country: withCountry[1]!.toUpperCase(), code: postalKey(withCountry[2]!) };
  if (/^\d[0-9A-Za-z -]{0,11}$/.test(text)) return { code: postalKey(text) };
  return undefined;
}

function postalSuggestions(text: string, options: SuggestOptions): PlaceSuggestion[] {
  const typed = readPostal(text);
  if (!typed?.code) return [];
  const fits = (country: string) => (options.input === 'freight' ? isPostalCode(country, typed.code) : isPostalPrefix(country, typed.code));
  // The hinted country first (the form's own country field), then countries where the postal
  // data knows the code (75019 is a code of Paris, not of Germany).
  const hinted = options.country?.toUpperCase();
  const known = (country: string) => (country === hinted ? -1 : postalCentre(country, typed.code)?.exact ? 0 : 1);
  const countries = typed.country
    ? fits(typed.country)
      ? [typed.country]
      : []
    : countriesForPostal(typed.code, [...(options.country ? [options.country] : []), ...(HOME[options.language] ?? []), ...EUROPE])
        .filter(fits)
        .sort((a, b) => known(a) - known(b))
        .slice(0, 4);
  return countries.map((c) => postalSuggestion(c, typed.code, options.input, options.language));
}

/**
 * A city, named as the person's language names it, with its own name beside it where that differs
 * ("Mailand / Milano (IT)", "Munich / München (DE)"); the address (`name`) takes its own name, as
 * written there.
 */
function citySuggestion(city: City, input: PlaceInput, language: string, duplicate: boolean): PlaceSuggestion {
  const inhabitants = duplicate
    ? ` · ${city.population.toLocaleString(language === 'deu' ? 'de-DE' : 'en-GB')} ${language === 'deu' ? 'Einw.' : 'inh.'}`
    : '';
  const shown = cityNameIn(city, language);
  const local = cityLocalName(city);
  let value = input === 'freight' ? '' : `${coord(city.latitude)},${coord(city.longitude)}`;
  let area = '';
  if (input === 'lane') {
    const key = nearestPostalKey(city.country, city, CITY_POSTAL_KM);
    value = key ? `${city.country}-${key.slice(0, POSTAL_AREA)}` : city.country;
    area = ` · ${value}`;
  }
  return {
    kind: 'city',
    value,
    label: `${shown === local ? shown : `${shown} / ${local}`} (${city.country})${inhabitants}${area}`,
    country: city.country,
    name: local,
    latitude: city.latitude,
    longitude: city.longitude,
    population: city.population,
  };
}

/** Suggestions for what was typed into one kind of place input, best first. */
export async function suggestPlaces(
  query: string,
  options: SuggestOptions,
): Promise<{ places: PlaceSuggestion[]; citiesPending: boolean }> {
  const text = query.trim().replace(/^(airport|city):\s*/i, '');
  const { input, language, limit } = options;
  const out: PlaceSuggestion[] = [];
  const add = (items: PlaceSuggestion[]) => {
    for (const s of items) if (!out.some((o) => o.kind === s.kind && o.value === s.value && o.label === s.label)) out.push(s);
  };
  const postal = input === 'near' ? [] : postalSuggestions(text, options);
  const looksPostal = postal.length > 0 || /^\d/.test(text);
  const airports = looksPostal ? [] : searchAirports(text, 5).map((a) => airportSuggestion(a, language));
  const exactAirport = airports.filter((a) => a.value === airportText(text.toUpperCase()));
  const countries =
    (input === 'filter' || input === 'lane') && !looksPostal
      ? searchCountries(text, 3).map(
          (c): PlaceSuggestion => ({
            kind: 'country',
            value: c.code,
            label: `${countryName(c.code, language)} (${c.code})`,
            country: c.code,
            name: countryName(c.code, language),
          }),
        )
      : [];
  const exactCountry = countries.filter((c) => c.value === text.toUpperCase());
  const cities = looksPostal ? [] : await searchCities(text, input === 'rate' ? 2 : 6, { waitMs: options.waitMs });
  const names = new Map<string, number>();
  for (const c of cities) names.set(`${c.name}|${c.country}`, (names.get(`${c.name}|${c.country}`) ?? 0) + 1);

  add(postal);
  add(exactCountry);
  add(exactAirport);
  if (input === 'rate') {
    // Rate zones are postal areas, so a city leads to the airports around it.
    for (const city of cities)
      add(
        airportsNear({ latitude: city.latitude, longitude: city.longitude }, 150, 3).map((a) =>
          airportSuggestion(a.airport, language, { city, km: a.km }),
        ),
      );
  } else {
    add(cities.map((c) => citySuggestion(c, input, language, (names.get(`${c.name}|${c.country}`) ?? 0) > 1)));
  }
  add(countries);
  add(airports);
  return { places: out.slice(0, limit), citiesPending: !looksPostal && !citiesLoaded() };
}
