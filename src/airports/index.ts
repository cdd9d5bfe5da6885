import data from './airports.json' with { type: 'json' };

/**
 * An airport with an IATA code: OurAirports' medium and large airports, vendored in
 * airports.json with their time zones (scripts/vendor-airports.ts names the sources).
 */
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
  /** IANA zone: local times of air cargo messages are the airport's */
  timezone: string;
}

type Row = [iata: string, name: string, city: string, country: string, latitude: string, longitude: string, type: string, timezone: string];

let byCode: Map<string, Airport> | undefined;

function load(): Map<string, Airport> {
  if (!byCode) {
    byCode = new Map();
    for (const [iata, name, city, country, latitude, longitude, type, timezone] of data.airports as Row[]) {
      byCode.set(iata, {
        iata,
        name,
        city,
        country,
        latitude,
        longitude,
        type: type === 'L' ? 'large_airport' : 'medium_airport',
        timezone,
      });
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
