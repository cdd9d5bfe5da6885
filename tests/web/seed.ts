import type { Actor, TestApp } from '../support/harness.ts';

/**
 * A realistic exchange for looking at the pages as dispatchers do (tests/web/walk.ts) and for
 * browser tests that need full lists: two shippers (German and English), four carriers, 85
 * freights across Europe in every state a list can show (drafts, open with and without bids,
 * pending, awarded, delivered, expired, withdrawn, archived, booking requests), with cities,
 * coordinates, windows, pieces, goods and references. Everything goes through the JSON API, so
 * the data is what clients would have made.
 */

export interface SeededExchange {
  shipperDe: Actor;
  shipperEn: Actor;
  carriers: Actor[];
  /** freight ids by what they show */
  freights: {
    draft: number[];
    open: number[];
    pending: number[];
    taken: number[];
    closed: number[];
    expired: number[];
    revoked: number[];
    booking: number[];
  };
}

interface Place {
  code: string;
  country: string;
  city: string;
  street: string;
  lat: number;
  lon: number;
}

const PLACES: Place[] = [
  { code: '04159', country: 'DE', city: 'Leipzig', street: 'Hauptstraße 112', lat: 51.37, lon: 12.36 },
  { code: '60311', country: 'DE', city: 'Frankfurt am Main', street: 'Hanauer Landstraße 180', lat: 50.11, lon: 8.68 },
  { code: '80331', country: 'DE', city: 'München', street: 'Landsberger Straße 300', lat: 48.14, lon: 11.58 },
  { code: '20457', country: 'DE', city: 'Hamburg', street: 'Am Sandtorkai 50', lat: 53.54, lon: 9.99 },
  { code: '50667', country: 'DE', city: 'Köln', street: 'Industriestraße 161', lat: 50.94, lon: 6.96 },
  { code: '70173', country: 'DE', city: 'Stuttgart', street: 'Heilbronner Straße 7', lat: 48.78, lon: 9.18 },
  { code: '90402', country: 'DE', city: 'Nürnberg', street: 'Hafenstraße 3', lat: 49.45, lon: 11.08 },
  { code: '28195', country: 'DE', city: 'Bremen', street: 'Überseetor 20', lat: 53.08, lon: 8.8 },
  { code: '63450', country: 'DE', city: 'Hanau', street: 'Rodenbacher Chaussee 6', lat: 50.13, lon: 8.92 },
  { code: '1010', country: 'AT', city: 'Wien', street: 'Handelskai 94', lat: 48.21, lon: 16.37 },
  { code: '8001', country: 'CH', city: 'Zürich', street: 'Hardturmstrasse 101', lat: 47.37, lon: 8.54 },
  { code: '20121', country: 'IT', city: 'Milano', street: 'Via Mecenate 76', lat: 45.47, lon: 9.19 },
  { code: '37135', country: 'IT', city: 'Verona', street: 'Via Sommacampagna 61', lat: 45.44, lon: 10.99 },
  { code: '28021', country: 'ES', city: 'Madrid', street: 'Calle de la Princesa 1', lat: 40.37, lon: -3.7 },
  { code: '08040', country: 'ES', city: 'Barcelona', street: 'Carrer 60 19', lat: 41.35, lon: 2.14 },
  { code: '69007', country: 'FR', city: 'Lyon', street: 'Port Edouard Herriot', lat: 45.73, lon: 4.84 },
  { code: '75019', country: 'FR', city: 'Paris', street: 'Quai de la Seine 12', lat: 48.88, lon: 2.37 },
  { code: '3011 AA', country: 'NL', city: 'Rotterdam', street: 'Waalhaven Zuidzijde 21', lat: 51.92, lon: 4.48 },
  { code: '2030', country: 'BE', city: 'Antwerpen', street: 'Noorderlaan 147', lat: 51.26, lon: 4.4 },
  { code: '00-001', country: 'PL', city: 'Warszawa', street: 'ul. Marywilska 44', lat: 52.23, lon: 21.01 },
  { code: '61-001', country: 'PL', city: 'Poznań', street: 'ul. Gdyńska 31', lat: 52.41, lon: 16.93 },
  { code: '110 00', country: 'CZ', city: 'Praha', street: 'Kolbenova 40', lat: 50.08, lon: 14.42 },
  { code: '1051', country: 'HU', city: 'Budapest', street: 'Csepel Szabadkikötő', lat: 47.5, lon: 19.05 },
  { code: '2100', country: 'DK', city: 'København', street: 'Containervej 9', lat: 55.69, lon: 12.6 },
];

const GOODS = [
  ['Maschinenteile auf Europaletten, nicht stapelbar', 'ftl'],
  ['Getränke, 33 Paletten', 'ftl'],
  ['Autoteile in Gitterboxen', 'ltl'],
  ['Papierrollen, stehend', 'ftl'],
  ['Elektronik, versichert, Plane verplombt', 'express'],
  ['Baustoffe, Säcke auf Paletten', 'ftl'],
  ['Möbel, Decken und Gurte nötig', 'ltl'],
  ['Kühlware 2–8 °C', 'ftl'],
  ['Textilien, hängend', 'ltl'],
  ['Stahlcoils, Muldenauflieger', 'ftl'],
] as const;

/** A stable sequence (no Math.random): the same 85 freights on every run. */
function* numbers(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    yield x / 2147483648;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
/** `YYYY-MM-DD HH:MM` in the app's zone is what the API reads; days ahead of `from`, at an hour. */
function stamp(from: Date, days: number, hour: number): string {
  const d = new Date(from.getTime() + days * 86400_000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(hour)}:00`;
}

export async function seedExchange(app: TestApp, options: { now?: Date } = {}): Promise<SeededExchange> {
  const now = options.now ?? new Date();
  const shipperDe = await app.actor('Spedition Nord GmbH', { language: 'deu' });
  const shipperEn = await app.actor('Rhine Valley Forwarding Ltd', { language: 'eng' });
  const carriers = [
    await app.actor('Trans Europa Sp. z o.o.', { language: 'eng' }),
    await app.actor('Alpen Cargo AG', { language: 'deu' }),
    await app.actor('Iberia Road S.L.', { language: 'eng' }),
    await app.actor('Nordic Haulage AB', { language: 'eng' }),
  ];
  for (const [actor, name] of [
    [shipperDe, 'Erika Mustermann'],
    [shipperEn, 'Oliver Bennett'],
    [carriers[0]!, 'Jan Kowalski'],
    [carriers[1]!, 'Lena Huber'],
    [carriers[2]!, 'Marta García'],
    [carriers[3]!, 'Nils Berg'],
  ] as const) {
    await app.services.db.updateTable('users').set({ realname: name }).where('id', '=', actor.user).execute();
  }
  const random = numbers(4711);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random.next().value! * list.length)]!;
  const between = (a: number, b: number) => a + Math.floor(random.next().value! * (b - a + 1));
  const post = async (who: Actor, url: string, json: Record<string, unknown>) => {
    const res = await app.post(url, { token: who.token, json });
    if (res.status !== 200 && res.status !== 302) throw new Error(`${url}: ${res.status} ${res.text}`);
    return res.body;
  };
  const freights: SeededExchange['freights'] = {
    draft: [],
    open: [],
    pending: [],
    taken: [],
    closed: [],
    expired: [],
    revoked: [],
    booking: [],
  };
  let sequence = 1000;

  const create = async (owner: Actor, when: Date, extra: Record<string, unknown> = {}): Promise<number> => {
    const from = pick(PLACES);
    let to = pick(PLACES);
    while (to === from) to = pick(PLACES);
    const [commodity, category] = pick(GOODS);
    const day = between(1, 12);
    const weight = category === 'ftl' ? between(8, 24) * 1000 + between(0, 9) * 100 : between(3, 60) * 50;
    const pallets = Math.max(1, Math.round(weight / 750));
    const body = await post(owner, '/freights/add.json', {
      from: `city:${from.country}-${from.code}`,
      from_country: from.country,
      from_addr: `${from.street}, ${from.code} ${from.city}`,
      from_latitude: from.lat,
      from_longitude: from.lon,
      to: `city:${to.country}-${to.code}`,
      to_country: to.country,
      to_addr: `${to.street}, ${to.code} ${to.city}`,
      to_latitude: to.lat,
      to_longitude: to.lon,
      etd_range: `${stamp(when, day, 7)} to ${stamp(when, day, between(10, 16))}`,
      eta_range: `${stamp(when, day + between(1, 3), 8)} to ${stamp(when, day + between(1, 3) + 1, 16)}`,
      weight,
      category,
      refs: { customer: `PO-${++sequence}`, commodity },
      // As the web form does by default: carriers see the goods (docs/choices.md, "What a carrier prices a load by").
      share: ['goods'],
      pieces: [{ pieces: pallets, depth: 120, width: 80, height: between(100, 180), weight: (weight / pallets).toFixed(1) }],
      ...extra,
    });
    return body.data.id as number;
  };
  const publish = (owner: Actor, id: number, deadline = `+${between(2, 6)} days`) =>
    post(owner, `/freights/view/${id}.json`, { action: 'publish', deadline });
  const bid = async (carrier: Actor, id: number, amount: number) =>
    (
      await post(carrier, '/quotes/add.json', {
        route: id,
        amount: amount.toFixed(2),
        currency_code: 'EUR',
        note: pick([
          'Planensattelzug, Hebebühne',
          'Fahrer spricht Deutsch',
          'Mega-Trailer 100 m³',
          'Kühlauflieger, Thermoschreiber',
          'Two drivers, delivery next morning',
          '',
        ]),
      })
    ).data.bid.id as number;

  for (const [owner, count] of [
    [shipperDe, 60],
    [shipperEn, 25],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const kind = i % 17;
      if (kind === 0 || kind === 9) {
        freights.draft.push(await create(owner, now));
      } else if (kind <= 5 || kind === 10 || kind === 11) {
        const id = await create(owner, now);
        await publish(owner, id);
        for (let b = 0; b < kind % 4; b++) await bid(carriers[(i + b) % carriers.length]!, id, between(900, 2600));
        freights.open.push(id);
      } else if (kind === 6 || kind === 12) {
        const id = await create(owner, now);
        await publish(owner, id);
        const carrier = carriers[i % carriers.length]!;
        const first = await bid(carrier, id, between(1200, 2400));
        await bid(carriers[(i + 1) % carriers.length]!, id, between(1200, 2400));
        await post(owner, `/quotes/confirm/${first}.json`, {});
        freights.pending.push(id);
      } else if (kind === 7 || kind === 13 || kind === 14) {
        const id = await create(owner, now);
        await publish(owner, id);
        const carrier = carriers[i % carriers.length]!;
        const won = await bid(carrier, id, between(1100, 2300));
        await post(owner, `/quotes/confirm/${won}.json`, {});
        await post(carrier, `/quotes/confirm/${won}.json`, {});
        if (kind === 14) {
          await post(carrier, `/freights/delivery/${id}.json`, { delivery_status: 3 });
          freights.closed.push(id);
        } else freights.taken.push(id);
      } else if (kind === 8 || kind === 15) {
        // Published a week ago with a short deadline: expired now, one bid came too late to matter.
        const then = new Date(now.getTime() - 7 * 86400_000);
        app.setNow(then);
        try {
          const id = await create(owner, then);
          await publish(owner, id, '+1 days');
          await bid(carriers[i % carriers.length]!, id, between(1000, 2000));
          freights.expired.push(id);
        } finally {
          app.setNow(options.now ?? null);
        }
      } else if (kind === 16) {
        const id = await create(owner, now);
        await publish(owner, id);
        await post(owner, `/freights/revoke/${id}.json`, {});
        freights.revoked.push(id);
      }
    }
  }
  // Booking requests: addressed to one carrier, answered until pick-up.
  for (const carrier of carriers.slice(0, 2)) {
    const id = await create(shipperDe, now, {
      type: 'FFR',
      visibility: -2,
      whitelist: [carrier.company],
      refs: { customer: `BK-${++sequence}`, commodity: 'Maschinenteile', target_rate: '1450.00', target_currency: 'EUR' },
      share: ['goods', 'target_price'],
    });
    freights.booking.push(id);
  }
  return { shipperDe, shipperEn, carriers, freights };
}
