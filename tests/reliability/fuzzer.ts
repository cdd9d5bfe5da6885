import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import qs from 'qs';
import { FIELDS } from '../../src/freights/fields.ts';
import type { Endpoint } from '../../src/kernel/route.tsx';
import { SEARCH_PARAMS } from '../../src/market/index.ts';

/**
 * The seeded request fuzzer behind `npm run fuzz` and tests/reliability/fuzz.test.ts.
 *
 * Request i of a run is a pure function of (seed, i): a failure names both, and
 * `npm run fuzz -- --seed S --from i --count 1` sends that request again. Every endpoint of the
 * route table is a target, as JSON (`.json`) and as a page, with a real token, with none and
 * with forged ones; bodies are plausible values with nasty ones mixed in (wrong types, huge
 * numbers, 2^31 ids, 150,000-item lists, deep nesting, NUL, lone surrogates, invalid UTF-8),
 * in every encoding the server reads and some it does not. Raw socket requests add malformed
 * request lines, over-long URLs and headers, and broken framing.
 *
 * A request fails on a 5xx, an answer slower than `limitMs`, a `.json` answer outside the
 * envelope, answer headers over 16 KB, or an answer naming the server's files; `/healthz` must
 * stay healthy throughout and answer in time at the end. An answer slower than the limit among
 * concurrent requests is sent again alone and fails when it is slow alone too: a request that
 * takes that long, or blocks the event loop, fails; one that waited for a starved CPU does not.
 */

export interface FuzzTarget {
  /** `http://127.0.0.1:<port>` of a listening server. */
  base: string;
  endpoints: readonly Endpoint[];
  /** Real API tokens (of different companies). */
  tokens: string[];
  /** A logged-in page session: cookie header and CSRF token, so page posts reach the handlers. */
  session?: { cookie: string; csrf: string };
  /** Ids that exist (any kind), used as plausible path and body values. */
  ids: number[];
  /** Free-text values that exist (AWBs, postal zones). */
  words: string[];
}

export interface FuzzOptions {
  seed: number;
  count: number;
  /** First request index (replay of one request: from = its index, count = 1). */
  from?: number;
  concurrency?: number;
  /** Slowest acceptable answer. */
  limitMs?: number;
  /** `/healthz` is checked every this many requests and at the end. */
  healthEvery?: number;
  /** Part of requests sent on raw sockets (malformed HTTP), 0..1. */
  rawShare?: number;
  /** Some file pushes carry megabytes (the long run; too slow for the short one). */
  largeUploads?: boolean;
  onProgress?(done: number, failures: number): void;
}

export interface FuzzFailure {
  index: number;
  reason: string;
  request: string;
  status: number | null;
  ms: number;
  answer: string;
}

export interface FuzzReport {
  seed: number;
  from: number;
  count: number;
  sent: number;
  raw: number;
  byStatus: Record<string, number>;
  /** Requests per route table entry (`POST /freights/add`). */
  byRoute: Record<string, number>;
  slowestMs: number;
  failures: FuzzFailure[];
  ms: number;
  /** The target's fingerprint: a replay is exact when it matches. */
  fingerprint?: string;
  /** Answers over the limit among concurrent requests that were in time when sent again alone. */
  slowInCrowd: number;
}

// ---------------------------------------------------------------- random numbers

/** sfc32 seeded from (seed, index): every request has its own reproducible stream. */
export function rngFor(seed: number, index: number): Rng {
  let a = seed >>> 0;
  let b = Math.imul(index + 1, 0x9e3779b9) >>> 0;
  let c = (seed ^ 0xdeadbeef) >>> 0;
  let d = (index ^ 0x41c64e6d) >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return new Rng(next);
}

export class Rng {
  constructor(readonly next: () => number) {}
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

// ---------------------------------------------------------------- values

/** A piece of JSON text spliced in as is (deep nesting, numbers JSON.stringify cannot write). */
class Raw {
  constructor(readonly text: string) {}
}
const raw = (text: string) => new Raw(text);

const SEQUENCE_150K = raw(`[${Array.from({ length: 150_000 }, (_, i) => i + 1).join(',')}]`);
const deepArray = (depth: number) => raw('['.repeat(depth) + ']'.repeat(depth));
const deepObject = (depth: number) => raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

/** Lone UTF-16 surrogates (sent as raw JSON escapes): a value another company later reads back. */
const LONE_SURROGATES = ['\udc00', '\ud800', 'a\udfffb', '\ud83d', 'x\ud83d\ude00\udc00'];

/**
 * Cargo-XML status messages that are hostile by shape: nested far deeper than any message
 * (issue 22: the cost grew with the square of the depth), wide, with long names and attributes.
 */
function hostileXml(rng: Rng): string {
  const depth = rng.pick([100, 5000, 32_000]);
  const name = rng.pick(['a', 'ReportedStatus', 'x'.repeat(200)]);
  switch (rng.int(4)) {
    case 0:
      return `<StatusMessage>${`<${name}>`.repeat(depth)}${`</${name}>`.repeat(depth)}</StatusMessage>`;
    case 1:
      return `<StatusMessage><MasterConsignment>${'<ReportedStatus><ReasonCode>DEP</ReasonCode></ReportedStatus>'.repeat(depth)}</MasterConsignment></StatusMessage>`;
    case 2:
      return `<StatusMessage${' a="1"'.repeat(1)} b="${'v'.repeat(depth * 10)}">${`<${name}/>`.repeat(depth)}</StatusMessage>`;
    default:
      return `<StatusMessage>${`<${name}>`.repeat(depth)}`; // never closed
  }
}

/**
 * Webhook addresses the target must refuse at registration: IPv6 literals that carry an IPv4
 * address of a refused range (IPv4-compatible, mapped, NAT64, 6to4, Teredo), and other IPv6
 * ranges. The target runs with refusal on (a demo server's default: public addresses and plain
 * loopback only), so every one is refused; each is sent with the path REFUSED_PATH, and the
 * run fails when an answer or a company's webhook list shows one registered.
 */
export const REFUSED_PATH = '/fuzz-refused';

/** IPv4 ranges the address rule refuses, each as a random address in it. */
const REFUSED_V4: Array<(rng: Rng) => [number, number, number, number]> = [
  (r) => [127, r.int(256), r.int(256), r.int(256)],
  (r) => [10, r.int(256), r.int(256), r.int(256)],
  (r) => [172, 16 + r.int(16), r.int(256), r.int(256)],
  (r) => [192, 168, r.int(256), r.int(256)],
  (r) => [169, 254, r.int(256), r.int(256)], // link-local: the cloud metadata service
  (r) => [100, 64 + r.int(64), r.int(256), r.int(256)], // carrier-grade NAT
  (r) => [0, 1 + r.int(255), r.int(256), r.int(256)], // 0/8 (not 0.0.0.1: `::0.0.0.1` is `::1`)
  (r) => [198, 18 + r.int(2), r.int(256), r.int(256)], // benchmarking
  (r) => [224 + r.int(16), r.int(256), r.int(256), r.int(256)], // multicast
];
const PUBLIC_V4: [number, number, number, number] = [93, 184, 215, 14];

const hex4 = (n: number) => n.toString(16);
/** The two 16-bit groups of an IPv4 address, in hex; `invert` for Teredo's client address. */
const v4groups = (v: readonly number[], invert = false) =>
  [((v[0]! << 8) | v[1]!) ^ (invert ? 0xffff : 0), ((v[2]! << 8) | v[3]!) ^ (invert ? 0xffff : 0)].map(hex4).join(':');

/** Every IPv6 form that carries an IPv4 address, written from that address. */
const EMBEDDINGS: Array<(v: readonly number[], rng: Rng) => string> = [
  (v) => `::ffff:${v.join('.')}`,
  (v) => `::ffff:${v4groups(v)}`,
  (v) => `0:0:0:0:0:ffff:${v.join('.')}`,
  (v) => `::${v.join('.')}`,
  (v) => `::${v4groups(v)}`,
  (v) => `0:0:0:0:0:0:${v.join('.')}`,
  (v) => `64:ff9b::${v.join('.')}`,
  (v) => `64:ff9b::${v4groups(v)}`,
  (v, r) => `2002:${v4groups(v)}:${hex4(r.int(0x10000))}::${hex4(r.int(0x10000))}`,
  (v) => `2001:0:${v4groups(v)}:8000:63bf:${v4groups(PUBLIC_V4, true)}`,
  (v) => `2001:0:${v4groups(PUBLIC_V4)}:8000:63bf:${v4groups(v, true)}`,
];

/** A webhook URL at an address the target must refuse, made from `rng`. */
export function refusedWebhookUrl(rng: Rng): string {
  const host = rng.chance(0.85)
    ? rng.pick(EMBEDDINGS)(rng.pick(REFUSED_V4)(rng), rng)
    : rng.pick([
        'fe80::1',
        'fd00::1',
        'fc00::53',
        '::',
        'ff02::1',
        '2001:db8::1',
        `64:ff9b:1::${PUBLIC_V4.join('.')}`,
        '::ffff:0:127.0.0.1',
      ]);
  return `${rng.pick(['http', 'https'])}://[${host}]${rng.chance(0.5) ? `:${rng.pick([80, 22, 5432, 6379, 8080])}` : ''}${REFUSED_PATH}`;
}

const NASTY_NUMBERS: unknown[] = [
  0,
  -1,
  1.5,
  -0.0001,
  2147483647,
  2147483648,
  -2147483649,
  4294967296,
  // biome-ignore lint/correctness/noPrecisionLoss: 2^53 + 1 is sent on purpose, to see what the server makes of a rounded id
  9007199254740993,
  1e21,
  1e308,
  -1e308,
  5e-324,
  raw('1e999'),
  raw('-1e999'),
  raw('123456789012345678901234567890'),
  raw('1.0000000000000000000000001'),
  raw('-0'),
];
const NASTY_NUMBER_TEXTS = [
  '2147483648',
  '-2147483649',
  '99999999999999999999',
  '1e999',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '１２３',
  ' 12 ',
  '12,5',
  '1.2.3',
  '-0',
  '000000000000000000001',
  '1_000',
  '+1',
  '.5',
  '5.',
];
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udc00',
  'x\udfff\ud800y',
  '\u202eRTL',
  '\r\n',
  '\t',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  "'; drop table freights; --",
  '" or 1=1 --',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
  '${7*7}{{7*7}}',
  '%00',
  '%s%n',
  '../../etc/passwd',
  '\\',
  '/\t/evil.example',
  'airport:',
  'city:',
  'airport:ZZZ',
  'city:DE-',
  `city:${'9'.repeat(40)}`,
  'airport:FRA'.repeat(100),
  '+99999999999 hours',
  '+1 fortnights',
  '-5 days',
  '+0 minutes',
  '2031-02-30 25:61',
  '9999-12-31 23:59:59',
  '0000-00-00 00:00',
  '1969-12-31 23:59:59',
  '2031-05-04 08:00 to 2031-05-04',
  ' to ',
  '2031-05-04 08:00 to 2030-01-01 00:00',
  '2031-05-04T08:00:00Z',
  '𝕏'.repeat(300),
  'é'.repeat(5000),
  'x'.repeat(300),
  'x'.repeat(70_000),
];
const OBJECTS = (): unknown[] => [
  { toString: 1 },
  { valueOf: 1 },
  { toJSON: 1 },
  { length: 1e9 },
  { 0: 1, length: 2 },
  {},
  { hasOwnProperty: 1 },
  // biome-ignore lint/suspicious/noThenProperty: a thenable-looking body is one of the probes
  { then: 1 },
  raw('{"__proto__":{"polluted":1}}'),
  raw('{"constructor":{"prototype":{"polluted":1}}}'),
  raw('{"a":1,"a":2}'),
];

/**
 * Ids that name nothing (issue 39: a whitelist naming no company answered 500): every list of ids
 * gets them beside known ones, and the ids of vehicle space, trust, the deal room, lane prices and
 * the live board's operations (docs/reference.md#vehicles–§15: `freight`, `company`, `whitelist`) too.
 */
const UNKNOWN_IDS = [999_999, 2_147_483_647, 987_654_321];

/** A plausible value for a parameter name, so requests get past the first check into deeper code. */
function plausible(rng: Rng, key: string, t: FuzzTarget): unknown {
  const id = () => (t.ids.length && rng.chance(0.85) ? rng.pick(t.ids) : rng.int(50) + 1);
  const unknown = () => rng.pick(UNKNOWN_IDS);
  const k = key.toLowerCase();
  if (k === 'auth') return { user: rng.pick(['nobody@example.test', 'x', '']), password: rng.pick(['wrong', '', 'x'.repeat(100)]) };
  if (k === 'action') return rng.pick(['publish', 'rates', 'status', 'fsu', 'xfsu', 'xfsu', 'unknown', 'PUBLISH', 'toString']);
  if (k === 'encoding') return rng.pick(['base64', 'plain', 'utf8', '']);
  if (k === 'content') {
    const text = rng.chance(0.3) ? hostileXml(rng) : rng.pick(CSV_BODIES);
    return Buffer.from(text).toString(rng.chance(0.8) ? 'base64' : 'utf8');
  }
  if (k === 'type') return rng.pick(['AHR', 'FFR', 'DTR', 'DTO', 'awb', 'city', 'airport']);
  if (k === 'class') return rng.pick(['rfs', 'air', 'rfs_order']);
  if (k === 'direction') return rng.pick(['asc', 'desc', 'auto', 'export', 'import']);
  if (k === 'sort') return rng.pick(['Routes.created', 'Routes.deadline', 'Routes.weight', 'Routes.id; drop', 'created']);
  if (k === 'visibility') return rng.pick([-2, -1, 0, 1, 'private', 'exchange', 'public_search']);
  if (k === 'currency' || k === 'currency_code') return rng.pick(['EUR', 'USD', 'eur', 'XXXX']);
  if (k === 'search_type') return rng.pick(['uld', 'kg']);
  if (k === 'unitofLength'.toLowerCase()) return rng.pick(['cm', 'in', 'm']);
  if (k === 'media') return rng.pick(['road', 'air']);
  if (k === 'language') return rng.pick(['eng', 'deu', 'fra']);
  if (k === 'url')
    return rng.chance(0.5)
      ? refusedWebhookUrl(rng)
      : rng.pick(['http://127.0.0.1:9/hook', 'https://example.test/hook', 'ftp://x', 'http://[::1]/', 'javascript:alert(1)']);
  if (k === 'events') return rng.pick([['*'], ['freight.published'], ['nope']]);
  if (k === 'next' || k === 'back')
    // Other sites, and line breaks, separators, lone surrogates and characters above U+00FF
    // (a Location header carries none of them; issue 22 answered 500 for them).
    return rng.pick([
      '/',
      '/freights/enlist/10',
      '//evil.example',
      '/\\evil.example',
      'http://evil.example',
      '/searches/index\r\nSet-Cookie: x=1',
      '/companies/blocked\r',
      '/notifications/index\n',
      '/searches/\u2028',
      '/companies/\u2029x',
      '/freights/view/1\ud800',
      '/freights/enlist/8?q=K\u00f6ln\u0100',
      '/companies/\u65e5\u672c',
      '/searches/\u{1F69A}',
      String(rng.int(100)),
    ]);
  if (k === 'refs' || k === 'params') {
    // Now and then a lone surrogate in a value or a key: stored, then read by another company's search.
    const text = () => (rng.chance(0.2) ? rng.pick(LONE_SURROGATES) : 'PO-1');
    return {
      customer: text(),
      q: rng.chance(0.9) ? 'FRA' : text(),
      [rng.pick(['x', 'incoterm', 'obj_id', ...LONE_SURROGATES])]: rng.pick([1, 'fob', null]),
    };
  }
  if (k === 'pieces' || k === 'pieces_json') {
    const line: Record<string, unknown> = { pieces: rng.int(5) + 1, depth: 120, width: 80, height: 100, weight: 50 };
    if (rng.chance(0.1)) line[rng.pick(['toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'])] = 1;
    return [line];
  }
  if (k === 'whitelist' || k.endsWith('_ids') || k === 'ids') {
    // Known ids, then now and then one or more that name nothing, in every list of ids.
    const shape = rng.int(4);
    return shape === 0 ? [id(), id()] : shape === 1 ? [id(), unknown()] : shape === 2 ? [unknown()] : [unknown(), id(), unknown()];
  }
  if (k === 'freight' || k === 'company' || k === 'vehicle' || k === 'offer') return rng.chance(0.3) ? unknown() : id();
  if (k === 'id' || k === 'route' || k.endsWith('_id') || k === 'filter' || k === 'carrier' || k === 'winner_direct')
    return rng.chance(0.15) ? unknown() : rng.chance(0.7) ? id() : String(id());
  if (
    /weight|amount|price|rate_|charge|lat|lon|radius|count|limit|page|rating|pieces|depth|width|height|status|alert|flag|secured|stackable|dangerous/.test(
      k,
    )
  ) {
    return rng.pick([rng.int(1000), `${rng.int(100000)}.${rng.int(99)}`, 1, 0]);
  }
  if (/etd|eta|deadline|date|valid|created|modified|_from$|_to$|time/.test(k))
    return rng.pick(['2031-05-04 08:00', '2031-05-04 08:00:00', '+48 hours', '2031-05-04', '2031-05-04 08:00 to 2031-05-05 10:00']);
  if (/^(from|to|origin|destination)$|_near$/.test(k))
    return rng.pick(['airport:FRA', 'city:DE-60311', 'FRA', 'city:60311', 'DE-60', '50.1,8.6', ...t.words]);
  if (k.endsWith('country')) return rng.pick(['DE', 'de', 'XX', 'DEU']);
  if (k === 'q' || k === 'query' || k === 'name' || k === 'note' || k === 'realname' || k === 'username')
    return rng.pick(['Monday FRA', 'PO-4711', ...t.words, ...(rng.chance(0.1) ? LONE_SURROGATES : [])]);
  if (k.includes('password')) return rng.pick(['s3cret-pw-1234', 'short', '']);
  if (k === 'email' || k === 'user') return rng.pick(['ops@example.test', 'not-an-email']);
  return rng.pick(['x', 1, 'FRA', '']);
}

/** A hostile value: wrong type, out of range, oversize, badly encoded, or deeply nested. */
function nasty(rng: Rng, t: FuzzTarget, depth = 0): unknown {
  const r = rng.next();
  if (r < 0.2) return rng.pick(NASTY_NUMBERS);
  if (r < 0.32) return rng.pick(NASTY_NUMBER_TEXTS);
  if (r < 0.55) return rng.pick(NASTY_STRINGS);
  if (r < 0.6) return rng.pick([null, true, false]);
  if (r < 0.72) return rng.pick(OBJECTS());
  if (r < 0.8 && depth < 2) return Array.from({ length: rng.int(4) + 1 }, () => nasty(rng, t, depth + 1));
  if (r < 0.86 && depth < 2) return { [rng.pick(['a', 'weight', 'customer', '0'])]: nasty(rng, t, depth + 1) };
  if (r < 0.9) return rng.chance(0.5) ? deepArray(rng.pick([50, 5000, 100_000])) : deepObject(rng.pick([50, 5000, 50_000]));
  if (r < 0.93) return SEQUENCE_150K;
  if (r < 0.96) return Array.from({ length: rng.pick([1001, 5000]) }, (_, i) => (rng.chance(0.5) ? i : { pieces: i }));
  return t.ids.length ? -rng.pick(t.ids) : -1;
}

const CSV_BODIES = [
  'origin,destination,transit_days,min_charge,kg_100,fsc_pct,ssc_per_kg,uld_price\ncity:DE-60,airport:FRA,1,45.00,0.40,12.5,0.05,\n',
  'origin,destination,transit_days,min_charge,kg_100\ncity:DE-60,airport:FRA,1,{"a":1},x\n',
  'origin,destination,transit_days,min_charge,kg_99999999999999999999\ncity:DE-60,airport:FRA,-1,1e999,0.4\n',
  'awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location\n176-12345675,RCF,2031-03-02 06:10,FRA,EK1,4,1250.25,PER,A-1\n',
  'awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location\n176-12345675,RCF,2031-02-30 99:99,FRA,EK1,2147483648,1e308,,\n',
  '"unterminated,quote\n\u0000\u0000\n',
  '',
];

// ---------------------------------------------------------------- parameter names

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

/** Every parameter name the server reads: harvested from src/ and the freight field table. */
export function parameterNames(): string[] {
  const names = new Set<string>(FIELDS.map((f) => f.api));
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name)) {
        const text = fs.readFileSync(p, 'utf8');
        for (const m of text.matchAll(/params\??\.([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(m[1]!);
        for (const m of text.matchAll(/params\[['"]([^'"\]]+)['"]\]/g)) names.add(m[1]!);
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  for (const n of [
    'auth',
    'pieces',
    'pieces_json',
    'refs',
    'whitelist',
    'route_ids',
    'events',
    'url',
    'params',
    'filter',
    'alert',
    ...SEARCH_PARAMS,
    'name',
    'date',
    'eta_range',
    'etd_range',
  ])
    names.add(n);
  for (const n of ['ts', 'tsx', 'length', 'prototype']) names.delete(n);
  return [...names].sort();
}

// ---------------------------------------------------------------- requests

export interface FuzzRequest {
  kind: 'http' | 'raw';
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The raw bytes of a raw-socket request. */
  bytes?: Buffer;
  /** The answer must be the JSON envelope (a `.json` request whose URL the server could read). */
  envelope: boolean;
  /** The route table entry aimed at (`POST /freights/add`). */
  route?: string;
  /** This request's own time limit (large uploads); the run's limit otherwise. */
  limitMs?: number;
  /** The webhook address it carries, one the target must refuse (refusedWebhookUrl). */
  refusedUrl?: string;
}

function bigStatusCsv(lines: number): { text: string; action: string } {
  const rows = ['awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location'];
  const codes = ['RCF', 'NFD', 'AWD', 'DLV'];
  for (let i = 0; i < lines; i++) {
    const serial = 1000000 + (i % 5000);
    rows.push(
      `176-${serial}${serial % 7},${codes[i % 4]},2031-03-02 0${i % 10}:${String(i % 60).padStart(2, '0')},FRA,EK${i % 900},${(i % 9) + 1},${(i % 5000) + 0.5},PER,A-${i % 99}`,
    );
  }
  return { text: rows.join('\n'), action: 'status' };
}

function bigRatesCsv(lines: number): { text: string; action: string } {
  const rows = ['origin,destination,transit_days,min_charge,kg_100,kg_1000,fsc_pct,ssc_per_kg,uld_price'];
  for (let i = 0; i < lines; i++)
    rows.push(`city:DE-${10000 + (i % 89999)},airport:${['FRA', 'MUC', 'HAM', 'CGN'][i % 4]},${(i % 5) + 1},45.00,0.40,0.30,12.5,0.05,`);
  return { text: rows.join('\n'), action: 'rates' };
}

const PATH_NASTY = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '9007199254740993',
  '1e3',
  '1.5',
  'abc',
  '%00',
  '1%00',
  '%2e%2e',
  '..',
  '%ZZ',
  '%FF',
  '%C0%AE',
  '%F0%9F%92%A9',
  '+1',
  '1%20',
  '%D9%A1',
  'x'.repeat(600),
  '%2F',
  'null',
  '[object Object]',
];

function fillPath(rng: Rng, template: string, t: FuzzTarget): string {
  return template.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    if (name === 'entity') return rng.pick(['rate', 'flight', 'direct', 'RATE', 'x', '%00']);
    if (name === 'type') return rng.pick(['airport', 'city', 'x', '']);
    if (rng.chance(0.25)) return rng.pick(PATH_NASTY);
    if (name === 'query') return encodeURIComponent(rng.pick([...t.words, 'FRA', 'fr', 'x', '176-12345675', 'DE-6']));
    if (name === 'filterId')
      return String(rng.pick([2, 6, 7, 8, 9, 10, 12, 17, 18, 19, 20, 51, 52, 53, 70, 73, 80, 84, 200, 211, 219, 0, 999]));
    return String(t.ids.length ? rng.pick(t.ids) : rng.int(20) + 1);
  });
}

function serialize(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(serialize).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${serialize(v)}`)
      .join(',')}}`;
  const text = JSON.stringify(value);
  return text === undefined ? 'null' : text;
}

/** Raw values as the text a form would carry. */
function formable(value: unknown): unknown {
  if (value instanceof Raw) return value.text.length > 200_000 ? value.text.slice(0, 200_000) : value.text;
  if (Array.isArray(value)) return value.map(formable);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, formable(v)]));
  return value;
}

const INVALID_UTF8 = [
  Buffer.from([0xff]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
];

function forgedTokens(t: FuzzTarget): string[] {
  const real = t.tokens[0] ?? '1.x';
  const mac = real.split('.')[1] ?? 'A'.repeat(43);
  return [
    `2147483648.${'A'.repeat(43)}`,
    `9999999999.${mac}`,
    `4294967296.${mac}`,
    `0.${mac}`,
    `-1.${mac}`,
    `${real}x`,
    real.slice(0, -1),
    '',
    ' ',
    'x'.repeat(10_000),
    `1.${'A'.repeat(43)}`,
    `${real}\u0000`,
    '%00',
    `1.${'/'.repeat(43)}`,
    `00000000001.${mac}`,
  ];
}

/** Request `index` of the run with `seed`. */
export function makeRequest(
  seed: number,
  index: number,
  t: FuzzTarget,
  names: readonly string[],
  o: Pick<FuzzOptions, 'rawShare' | 'largeUploads'> = {},
): FuzzRequest {
  const rawShare = o.rawShare ?? 0.06;
  const rng = rngFor(seed, index);
  const routes = t.endpoints.flatMap((e) => [e.spec.method].flat().map((m) => ({ method: String(m), path: e.spec.path })));
  // The first round of the table is all endpoints; after it, raw requests and extras mix in.
  const firstRound = index < routes.length;
  if (!firstRound && rng.chance(rawShare)) return rawRequest(rng, t);

  // Target: an endpoint of the table (any of its methods; sometimes a method it lacks), or an extra.
  let method: string;
  let pathname: string;
  let target: string | undefined;
  let extraAuth: string | undefined;
  if (!firstRound && rng.chance(0.06)) {
    method = rng.pick(['GET', 'POST']);
    // Routes outside the table: health, assets, ONE Record (JSON-LD, its own errors), and none at all.
    const id = () => String(t.ids.length ? rng.pick(t.ids) : 1);
    const object = () =>
      rng.pick([
        `shipment-${id()}`,
        `waybill-${id()}`,
        `piece-${id()}-${rng.pick(['1', '9999', '0'])}`,
        `shipment-${rng.pick(PATH_NASTY)}`,
        rng.pick(PATH_NASTY),
      ]);
    pathname = rng.pick([
      '/healthz',
      '/assets/app.css',
      '/assets/..%2fpackage.json',
      '/nope',
      '/freights',
      '/freights/view',
      '/freights/view/1/2',
      '//',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/onerecord/shipments',
      `/onerecord/logistics-objects/${object()}`,
      `/onerecord/logistics-objects/${object()}/logistics-events`,
      `/onerecord/logistics-objects/${object()}/logistics-events/${rng.pick([id(), ...PATH_NASTY])}`,
      '/onerecord',
      '/onerecord/',
      '/onerecord/%ZZ',
      '/onerecord/logistics-objects/%E0%A4%A',
      `/onerecord/logistics-objects/shipment-${'9'.repeat(600)}`,
    ]);
    if (pathname.startsWith('/onerecord')) method = rng.pick(['GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
    if (pathname.startsWith('/onerecord') && rng.chance(0.5) && t.tokens.length)
      extraAuth = `${rng.pick(['Bearer', 'TokenPass'])} ${rng.pick(t.tokens)}`;
  } else {
    // Round the table in order, so every endpoint is hit in any run of a few times its size.
    const route = routes[index % routes.length]!;
    target = `${route.method} ${route.path}`;
    method = rng.chance(0.05) ? rng.pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'GET', 'POST']) : route.method;
    pathname = fillPath(rng, route.path, t);
  }
  const json = rng.chance(0.85);
  if (json) pathname = pathname === '/' ? '/.json' : `${pathname}.json`;
  // Health check, static assets and ONE Record are no API endpoints: `.json` on them promises no envelope.
  const envelope = json && method !== 'HEAD' && !/^\/(healthz|assets\/|onerecord[/.]|onerecord$)/.test(pathname);
  const headers: Record<string, string> = { 'user-agent': 'freight-exchange-fuzz / 1.0' };
  const query: Record<string, unknown> = Object.create(null);

  // Who asks.
  const who = rng.next();
  if (json) {
    if (who < 0.6 && t.tokens.length) headers.authorization = `TokenPass ${rng.pick(t.tokens)}`;
    else if (who < 0.68 && t.tokens.length) query.auth_token = rng.pick(t.tokens);
    else if (who < 0.88) {
      const forged = rng.pick(forgedTokens(t));
      if (rng.chance(0.7))
        headers.authorization = rng.pick([
          `TokenPass ${forged}`,
          `Bearer ${forged}`,
          'TokenPass',
          `tokenpass ${forged}`,
          `TokenPass  ${forged}  `,
        ]);
      else query.auth_token = forged;
    }
    if (who >= 0.6 && who < 0.7 && t.session) headers.cookie = t.session.cookie; // a session on a JSON GET (pages' own scripts)
  } else if (t.session && who < 0.8 && !target?.endsWith('/users/logout')) {
    // (A logout would end the session the rest of the run's page requests use.)
    headers.cookie = t.session.cookie;
    if (rng.chance(0.9)) headers['x-csrf-token'] = t.session.csrf;
  }

  if (extraAuth) headers.authorization = extraAuth;

  // The parameters: plausible values for some of the names the server reads, some replaced by nasty ones.
  // Without a prototype, so a key named `__proto__` is a key like any other (sent as such), never
  // the object's prototype (which once made the parameters pass for a Raw value).
  const params: Record<string, unknown> = Object.create(null);
  const keyCount = rng.int(7) + (method === 'GET' ? 0 : 1);
  for (let i = 0; i < keyCount; i++) {
    const key = rng.chance(0.93)
      ? rng.pick(names)
      : rng.pick(['__proto__', 'constructor', '', ' ', 'a'.repeat(300), 'x\u0000y', '𝕏', 'toString', 'hasOwnProperty']);
    params[key] = rng.chance(0.55) ? plausible(rng, key, t) : nasty(rng, t);
  }
  if (rng.chance(0.05)) params.refs = deepObject(rng.pick([1000, 20_000, 100_000]));
  // Registration is asked to take a refused address half the time; an answer that takes one fails.
  if (target === 'POST /webhooks/add' && rng.chance(0.5)) {
    params.url = refusedWebhookUrl(rng);
    params.events = ['*'];
  }
  const refusedUrl = typeof params.url === 'string' && params.url.endsWith(REFUSED_PATH) ? params.url : undefined;

  let body: Buffer | undefined;
  let ownLimitMs: number | undefined;
  const inQuery = method === 'GET' || method === 'HEAD' || rng.chance(0.1);
  if (inQuery) Object.assign(query, params);
  else if (target === 'POST /files/push' && json && rng.chance(0.05) && o.largeUploads) {
    // A large push (megabytes of status events or rates): it may take its time, but every other
    // request in flight keeps its 2 s limit, so a push that blocks the server fails them.
    const lines = rng.pick([20_000, 60_000, 120_000]);
    const csv = rng.chance(0.5) ? bigStatusCsv(lines) : bigRatesCsv(lines);
    headers['content-type'] = 'application/json';
    body = Buffer.from(
      JSON.stringify({ encoding: 'base64', content: Buffer.from(csv.text).toString('base64'), name: 'big.csv', action: csv.action }),
    );
    ownLimitMs = 60_000;
  } else {
    const enc = rng.next();
    if (enc < 0.5) {
      headers['content-type'] = rng.pick([
        'application/json',
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'APPLICATION/JSON',
      ]);
      body = Buffer.from(serialize(params));
    } else if (enc < 0.62) {
      // JSON whose text is broken: invalid UTF-8 inside a string, truncation, trailing garbage, BOM, comments.
      headers['content-type'] = 'application/json';
      const text = serialize(params);
      const cut = rng.int(text.length + 1);
      body = rng.pick([
        Buffer.concat([Buffer.from('{"name":"a'), rng.pick(INVALID_UTF8), Buffer.from(`b",${text.slice(1)}`.replace(/,}$/, '}'))]),
        Buffer.from(text.slice(0, cut)),
        Buffer.from(`${text}}}`),
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
        Buffer.from(`/* c */${text}`),
        Buffer.from("{'route': 1}"),
        Buffer.from('[1,2,3]'),
        Buffer.from('"text"'),
        Buffer.from('null'),
        Buffer.from('{"a":NaN}'),
        Buffer.from(text.replace(/:/g, ':\u0000')),
      ]);
    } else if (enc < 0.8) {
      headers['content-type'] = rng.pick(['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=iso-8859-1']);
      const text = qs.stringify(formable(params), { arrayFormat: rng.pick(['brackets', 'indices', 'repeat'] as const), allowDots: false });
      body = Buffer.from(rng.chance(0.8) ? text : `${text}&${rng.pick(FORM_NASTY)}`);
      if (t.session && !json && rng.chance(0.9)) body = Buffer.concat([body, Buffer.from(`&_csrf=${encodeURIComponent(t.session.csrf)}`)]);
    } else if (enc < 0.88) {
      headers['content-type'] = rng.pick([
        'text/plain',
        'application/xml',
        'application/octet-stream',
        'multipart/form-data; boundary=zz',
        'multipart/form-data',
        'application/json, text/html',
        'image/png',
        '*/*',
        ';',
        'application/x-www-form-urlencoded, application/json',
      ]);
      body = Buffer.from(rng.chance(0.5) ? serialize(params) : qs.stringify(formable(params)));
    } else if (enc < 0.94) {
      body = Buffer.from(serialize(params)); // no content type at all
    } else {
      // Sizes: over the body limit, or a value just under it.
      headers['content-type'] = 'application/json';
      body = rng.chance(0.5)
        ? Buffer.from(`{"name":"${'x'.repeat(1024 * 1024 + 10)}"}`)
        : Buffer.from(`{"note":"${'é'.repeat(450_000)}","name":"${'y'.repeat(90_000)}"}`);
    }
    if (rng.chance(0.03)) headers['content-encoding'] = rng.pick(['gzip', 'br', 'identity', 'x-unknown']);
  }
  let qtext = qs.stringify(formable(query), { arrayFormat: 'brackets' });
  if (qtext.length > 12_000) qtext = qtext.slice(0, 12_000);
  if (rng.chance(0.04))
    qtext = rng.pick([
      '%',
      '%ZZ=1',
      'a=%FF',
      'a[=1',
      'a]]=1',
      '&&&=&',
      '__proto__[x]=1',
      'page=1&page=2&page[]=3',
      '=',
      'a[b][c][d][e][f][g][h][i][j][k]=1',
    ]);
  const url = qtext ? `${pathname}?${qtext}` : pathname;
  if (rng.chance(0.03)) headers['accept-language'] = rng.pick(['de', 'zz', '*', 'de-DE;q=0.9,\u0000']);
  if (rng.chance(0.02))
    headers.cookie = rng.pick([
      `fx_session=${'x'.repeat(300)}`,
      'fx_session=%00',
      'fx_flash={"message":{"toString":1}}',
      `fx_flash=${encodeURIComponent('{"message":"<script>"}')}`,
      '_csrf=1',
    ]);
  // What a client library can send at all (bytes it refuses go through the raw-socket cases).
  for (const [k, v] of Object.entries(headers)) headers[k] = v.replace(/[^\t\x20-\x7e]/gu, percent);
  const sendable = url.replace(/[^\x21-\x7e]/gu, percent);
  return { kind: 'http', method, url: sendable, headers, body, envelope, route: target, limitMs: ownLimitMs, refusedUrl };
}

/** Percent-encoding of any character, lone surrogates included (as U+FFFD, what UTF-8 can carry). */
const percent = (c: string) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

const FORM_NASTY = [
  'a[b][c][d][e][f][g][h][i][j][k][l]=1',
  'pieces[99999999][weight]=1',
  'pieces[-1][weight]=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  Array.from({ length: 2000 }, (_, i) => `route_ids[]=${i + 1}`).join('&'),
  Array.from({ length: 6000 }, (_, i) => `k${i}=1`).join('&'),
  'route_ids[1000000]=1',
  'refs[customer][toString]=1',
  'weight[toString]=1',
  'auth[user][]=a&auth[password][]=b',
  '%ZZ=%E0%A4',
  'name=%00%00',
  'name=%FF%FE',
  `whitelist=1,2,3,${'4,'.repeat(20_000)}`,
  `pieces=${'x'.repeat(10_000)}`,
];

function rawRequest(rng: Rng, t: FuzzTarget): FuzzRequest {
  return rng.pick(rawCases(t.tokens.length ? rng.pick(t.tokens) : undefined));
}

/** Malformed HTTP on a raw socket; `envelope` where the request line still names a `.json` URL. */
export function rawCases(token?: string): FuzzRequest[] {
  const auth = token ? `Authorization: TokenPass ${token}\r\n` : '';
  const cases: Array<[string, boolean]> = [
    ['GARBAGE\r\n\r\n', false],
    ['GET\r\n\r\n', false],
    ['GET /freights/enlist/10.json\r\n\r\n', false],
    ['GET /freights/enlist/10.json HTTP/1.1 extra\r\nHost: x\r\n\r\n', false],
    ['GET /freights/enlist/10.json HTTP/9.9\r\nHost: x\r\n\r\n', false],
    ['G\u0000T /freights/enlist/10.json HTTP/1.1\r\nHost: x\r\n\r\n', false],
    ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', false],
    ['\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003', false],
    ['OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', false],
    ['CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n', false],
    [`GET /freights/enlist/10.json HTTP/1.1\r\nHost: x\r\n${auth}Bad Header\r\n\r\n`, true],
    [`GET /freights/enlist/10.json HTTP/1.1\r\nHost: x\r\n${auth}X-A: a\u0000b\r\n\r\n`, true],
    [`GET /freights/enlist/10.json HTTP/1.1\r\nHost: x\r\n${auth}X-A: a\u007fb\r\n\r\n`, true],
    [`GET /freights/enlist/10.json HTTP/1.1\r\nHost: x\r\n${auth}Cookie: ${'c'.repeat(20_000)}\r\n\r\n`, true],
    [`GET /freights/enlist/10.json?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n\r\n`, true],
    [`GET /freights/track/${'1'.repeat(17_000)}.json HTTP/1.1\r\nHost: x\r\n\r\n`, true],
    [`GET /freights/view/${'9'.repeat(9_000)}.json HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, true],
    [`POST /freights/add.json HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`, true],
    [
      `POST /freights/add.json HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      true,
    ],
    [
      `POST /freights/add.json HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      true,
    ],
    [
      `POST /freights/add.json HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      true,
    ],
    [
      `POST /freights/add.json HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 99999999999999999999\r\n\r\n{}`,
      true,
    ],
    [`GET /freights/view/%ZZ.json HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, true],
    [`GET /freights/view/\u00ff\u00fe.json HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, true],
    [`GET http://evil.example/freights/enlist/10.json HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, true],
    [`GET /freights/enlist/10.json HTTP/1.0\r\n${auth}\r\n`, true],
    [`GET /freights/enlist/10.json HTTP/1.1\r\nHost: x\r\nHost: y\r\n${auth}\r\n`, true],
    [`GET /freights/enlist/10.json HTTP/1.1\r\nHost: x\r\n${auth}Expect: 100-continue\r\n\r\n`, true],
    [`GET /freights/enlist/10.json HTTP/1.1\nHost: x\n${auth.replace('\r\n', '\n')}\n`, true],
    [`GET /users/me.json HTTP/1.1\r\nHost: x\r\n${auth}\r\nGET /users/me.json HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, true],
    [`GET /freights/enlist/10.json HTTP/1.1\r\nHost: x\r\n${auth} folded: header\r\n\r\n`, true],
    [`GET /users/me.json HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`, true],
  ];
  // Keep-alive requests are closed by us after the answer; the server must answer all the same.
  return cases.map(([text, envelope]) => {
    const firstLine = text.split(/\r?\n/)[0]!;
    return {
      kind: 'raw',
      method: firstLine.split(' ')[0] ?? '',
      url: firstLine.slice(0, 200),
      headers: {},
      bytes: Buffer.from(text, 'latin1'),
      envelope,
    };
  });
}

/** Sends one request and answers what is wrong with its answer, or null. */
export async function check(base: string, req: FuzzRequest, limitMs = 2000): Promise<string | null> {
  const agent = new http.Agent({ keepAlive: false });
  const answer =
    req.kind === 'raw' ? await sendRaw(base, req, limitMs * 3) : await sendHttp(base, req, agent, (req.limitMs ?? limitMs) * 3);
  agent.destroy();
  const problem = problemOf(req, answer, req.limitMs ?? limitMs);
  return problem && `${problem}; answer ${answer.status} ${JSON.stringify(answer.text.slice(0, 200))}`;
}

// ---------------------------------------------------------------- sending and checking

interface Answer {
  status: number | null;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
  error?: string;
}

function sendHttp(base: string, req: FuzzRequest, agent: http.Agent, timeoutMs: number): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const u = new URL(base);
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body) headers['content-length'] = req.body.length;
    // A large header limit on our side: the answer's own header size is checked below.
    const r = http.request(
      { host: u.hostname, port: u.port, method: req.method, path: req.url, headers, agent, maxHeaderSize: 1024 * 1024 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? null,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', (err) =>
          resolve({ status: res.statusCode ?? null, headers: res.headers, text: '', ms: performance.now() - started, error: err.message }),
        );
      },
    );
    r.setTimeout(timeoutMs, () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', (err) => resolve({ status: null, headers: {}, text: '', ms: performance.now() - started, error: err.message }));
    r.end(req.body);
  });
}

/** Sends raw bytes; reads until the server closes or one complete answer has arrived. */
function sendRaw(base: string, req: FuzzRequest, timeoutMs: number): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const u = new URL(base);
    const socket = net.connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      socket.destroy();
      const all = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(all);
      const split = all.indexOf('\r\n\r\n');
      const head = split < 0 ? all : all.slice(0, split);
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n').slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      // The first answer only (pipelined requests get several).
      let rest = split < 0 ? '' : all.slice(split + 4);
      if (headers['content-length'] !== undefined) rest = rest.slice(0, Number(headers['content-length']));
      const body = Buffer.from(rest, 'latin1').toString('utf8');
      resolve({ status: m ? Number(m[1]) : null, headers, text: body, ms: performance.now() - started, error });
    };
    const complete = () => {
      const all = Buffer.concat(chunks).toString('latin1');
      const split = all.indexOf('\r\n\r\n');
      if (split < 0) return false;
      const len = /\r\ncontent-length:\s*(\d+)/i.exec(all.slice(0, split));
      return len ? Buffer.byteLength(all.slice(split + 4), 'latin1') >= Number(len[1]) : /^HTTP\/1\.[01] (1\d\d|204|304)/.test(all);
    };
    socket.setTimeout(timeoutMs, () => finish(`no answer within ${timeoutMs} ms`));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (complete()) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (err) => finish(chunks.length ? undefined : err.message));
    socket.on('connect', () => socket.write(req.bytes!));
  });
}

/** What is wrong with an answer, or null. */
export function problemOf(req: FuzzRequest, a: Answer, limitMs: number): string | null {
  if (a.status !== null && a.status >= 500) return `answered ${a.status}`;
  if (a.ms > limitMs) return `answered after ${Math.round(a.ms)} ms (limit ${limitMs} ms)`;
  if (a.status === null) {
    // A raw request the server refuses to read may be closed without an answer; anything else must answer.
    if (req.kind === 'raw' && !req.envelope) return null;
    if (a.error && /ECONNRESET|socket hang up|EPIPE/.test(a.error) && req.body && req.body.length > 1024 * 1024) return null; // body over the limit: answered 413 and closed while we were still sending
    return `no answer: ${a.error ?? 'closed'}`;
  }
  // A stack frame is `at name (file:line:column)`; prose such as 'that matched (…)' is none.
  if (/\/work\/|node_modules|\bat [\w.<>]+ \([^()\s]*:\d+:\d+\)/.test(a.text)) return 'the answer names server files (stack trace)';
  // Node's own clients and common proxies refuse answers whose header is over 16 KB (a 502 behind nginx).
  const headerBytes = Object.entries(a.headers).reduce((n, [k, v]) => n + k.length + 4 + String(v ?? '').length, 0);
  if (headerBytes > 16 * 1024)
    return `answer headers of ${headerBytes} bytes (over 16 KB; location: ${String(a.headers.location ?? '').slice(0, 80)}…)`;
  // Under /onerecord every failure is ONE Record's error (JSON-LD), never the envelope or text.
  if (/^\/onerecord(\/|\?|$)/.test(req.url) && a.status >= 400 && req.method !== 'HEAD') {
    const ld = String(a.headers['content-type'] ?? '');
    if (!ld.startsWith('application/ld+json') || !a.text.includes('api:Error'))
      return `a ONE Record request answered ${a.status} with content-type "${ld}", not an api:Error`;
  }
  if (!req.envelope || a.status === 302 || (a.status >= 100 && a.status < 200)) return null;
  const type = String(a.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return `a .json request answered ${a.status} with content-type "${type}" (not the envelope)`;
  let body: any;
  try {
    body = JSON.parse(a.text);
  } catch {
    return `a .json request answered ${a.status} with a body that is not JSON`;
  }
  if (
    !body ||
    typeof body !== 'object' ||
    !('data' in body) ||
    (body.status !== 'success' && body.status !== 'error') ||
    typeof body.auth !== 'object'
  ) {
    return `a .json request answered ${a.status} outside the envelope: ${a.text.slice(0, 120)}`;
  }
  if (a.status >= 400 && body.status !== 'error') return `answered ${a.status} with status "${body.status}"`;
  if (req.refusedUrl && body.status === 'success' && body.data?.webhook)
    return `registered a webhook at an address the rule refuses: ${String(body.data.webhook.url).slice(0, 120)}`;
  if (a.status === 404 && !(Array.isArray(body.data) && body.data.length === 0)) return 'a 404 whose data is not the empty array';
  return null;
}

export function describeRequest(req: FuzzRequest): string {
  if (req.kind === 'raw')
    return `raw socket: ${JSON.stringify(req.bytes!.toString('latin1').slice(0, 300))}${req.bytes!.length > 300 ? ` … (${req.bytes!.length} bytes)` : ''}`;
  const headers = Object.entries(req.headers)
    .filter(([k]) => k !== 'user-agent')
    .map(([k, v]) => `${k}: ${v.length > 80 ? `${v.slice(0, 80)}…(${v.length})` : v}`)
    .join(' | ');
  const url = req.url.length > 300 ? `${req.url.slice(0, 300)}…(${req.url.length})` : req.url;
  const body = req.body
    ? ` body(${req.body.length} bytes): ${JSON.stringify(req.body.subarray(0, 300).toString('latin1'))}${req.body.length > 300 ? '…' : ''}`
    : '';
  return `${req.method} ${url} [${headers}]${body}`;
}

/**
 * What the run stored must not break anyone's reads (issue 22: one company's lone surrogate in
 * `refs` made every other company's `q` search answer 500): every company's searched lists and
 * counts still answer.
 */
async function readsAfterTheRun(t: FuzzTarget, index: number): Promise<FuzzFailure[]> {
  const failures: FuzzFailure[] = [];
  for (const token of t.tokens) {
    for (const url of [
      '/freights/enlist/8.json?q=zzz',
      '/freights/counts.json?q=zzz',
      '/freights/enlist/10.json?q=PO',
      '/freights/enlist/7.json',
    ]) {
      const res = await fetch(`${t.base}${url}`, { headers: { authorization: `TokenPass ${token}` } });
      const text = await res.text();
      if (res.status !== 200)
        failures.push({
          index,
          reason: `a read after the run answered ${res.status}`,
          request: `GET ${url}`,
          status: res.status,
          ms: 0,
          answer: text.slice(0, 300),
        });
    }
  }
  return failures;
}

/**
 * The address rule held all run long (issue 22: IPv6 forms that carry a refused IPv4 address):
 * no company's webhook list shows an address the run sent as refused, however it was sent (JSON,
 * form, page), and registering every form of every refused range once, through the API, is
 * refused.
 */
async function addressRuleAfterTheRun(t: FuzzTarget, seed: number, index: number): Promise<FuzzFailure[]> {
  const failures: FuzzFailure[] = [];
  const fail = (reason: string, request: string, status: number, answer: string) =>
    failures.push({ index, reason, request, status, ms: 0, answer: answer.slice(0, 300) });
  for (const token of t.tokens) {
    const res = await fetch(`${t.base}/webhooks/index.json`, { headers: { authorization: `TokenPass ${token}` } });
    const text = await res.text();
    if (res.status === 404) return failures; // a target without webhooks
    const hooks = (JSON.parse(text) as { data?: { webhooks?: Array<{ url: string }> } }).data?.webhooks ?? [];
    for (const hook of hooks.filter((h) => h.url.includes(REFUSED_PATH)))
      fail('a webhook at an address the rule refuses was registered during the run', 'GET /webhooks/index.json', res.status, hook.url);
  }
  const rng = rngFor(seed, index);
  const urls = EMBEDDINGS.flatMap((embed) => REFUSED_V4.map((range) => `http://[${embed(range(rng), rng)}]${REFUSED_PATH}`));
  for (const url of urls) {
    const res = await fetch(`${t.base}/webhooks/add.json`, {
      method: 'POST',
      headers: { authorization: `TokenPass ${t.tokens[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: ['*'] }),
    });
    const text = await res.text();
    const body = JSON.parse(text) as { status?: string; message?: string };
    if (body.status !== 'error' || !/^url: /.test(body.message ?? ''))
      fail(
        'registration took (or did not refuse by its address) an IPv6 form of a refused IPv4 range',
        `POST /webhooks/add.json ${url}`,
        res.status,
        text,
      );
  }
  return failures;
}

/** What is wrong with /healthz now; `slow` when it only took too long. */
async function healthProblem(base: string, limitMs: number): Promise<{ problem: string; slow: boolean } | null> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(limitMs * 3) });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200 || !body.includes('"ok"'))
      return { problem: `/healthz answered ${res.status}: ${body.slice(0, 200)}`, slow: false };
    if (ms > limitMs) return { problem: `/healthz answered after ${Math.round(ms)} ms`, slow: true };
    return null;
  } catch (err) {
    return { problem: `/healthz did not answer within ${limitMs * 3} ms: ${(err as Error).message}`, slow: false };
  }
}

/**
 * What the requests of a seed depend on besides the seed: the route table, the parameter names
 * harvested from src/ and the ids. A replay sends the same requests only with the same fingerprint.
 */
export function fingerprint(t: FuzzTarget): string {
  const text = JSON.stringify([
    t.endpoints.map((e) => [e.spec.method, e.spec.path]),
    parameterNames(),
    t.ids,
    t.words.length,
    t.tokens.length,
  ]);
  return createHash('sha256').update(text).digest('hex').slice(0, 10);
}

/** Runs `count` requests from `from` with `concurrency` in flight; answers every failure found. */
export async function runFuzz(t: FuzzTarget, o: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const from = o.from ?? 0;
  const limitMs = o.limitMs ?? 2000;
  const healthEvery = o.healthEvery ?? 250;
  const names = parameterNames();
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency ?? 4 });
  const report: FuzzReport = {
    seed: o.seed,
    from,
    count: o.count,
    sent: 0,
    raw: 0,
    byStatus: {},
    byRoute: {},
    slowInCrowd: 0,
    slowestMs: 0,
    failures: [],
    ms: 0,
  };
  let next = from;
  const end = from + o.count;
  let sinceHealth = 0;
  const slow: Array<{ req: FuzzRequest; failure: FuzzFailure }> = [];

  const worker = async () => {
    while (next < end) {
      const index = next++;
      const req = makeRequest(o.seed, index, t, names, o);
      const answer =
        req.kind === 'raw' ? await sendRaw(t.base, req, limitMs * 3) : await sendHttp(t.base, req, agent, (req.limitMs ?? limitMs) * 3);
      report.sent++;
      if (req.kind === 'raw') report.raw++;
      const key = answer.status === null ? 'none' : String(answer.status);
      report.byStatus[key] = (report.byStatus[key] ?? 0) + 1;
      if (req.route) report.byRoute[req.route] = (report.byRoute[req.route] ?? 0) + 1;
      report.slowestMs = Math.max(report.slowestMs, answer.ms);
      const problem = problemOf(req, answer, req.limitMs ?? limitMs);
      const failure = {
        index,
        reason: problem ?? '',
        request: describeRequest(req),
        status: answer.status,
        ms: Math.round(answer.ms),
        answer: answer.text.slice(0, 300),
      };
      // Slow in the crowd: judged again alone below (a starved machine is no server fault).
      if (problem?.startsWith('answered after')) slow.push({ req, failure });
      else if (problem) report.failures.push(failure);
      if (++sinceHealth >= healthEvery) {
        sinceHealth = 0;
        // Unhealthy is a failure at once; slow among the others is judged by the check at the end.
        const h = await healthProblem(t.base, limitMs);
        if (h && !h.slow)
          report.failures.push({
            index,
            reason: h.problem,
            request: `GET /healthz after request ${index}`,
            status: null,
            ms: 0,
            answer: '',
          });
        else if (h) report.slowInCrowd++;
      }
      o.onProgress?.(report.sent, report.failures.length);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency ?? 4 }, worker));
  // A request slow among others is sent again alone: slow alone too, it is a failure (it takes
  // that long by itself, or blocks the server); fast alone, it only waited for a busy machine.
  for (const { req, failure } of slow) {
    const again =
      req.kind === 'raw' ? await sendRaw(t.base, req, limitMs * 3) : await sendHttp(t.base, req, agent, (req.limitMs ?? limitMs) * 3);
    if (again.ms > (req.limitMs ?? limitMs))
      report.failures.push({ ...failure, reason: `${failure.reason}; alone again: ${Math.round(again.ms)} ms` });
    else report.slowInCrowd++;
  }
  const h = await healthProblem(t.base, limitMs);
  if (h) report.failures.push({ index: end, reason: h.problem, request: 'GET /healthz at the end', status: null, ms: 0, answer: '' });
  report.failures.push(...(await readsAfterTheRun(t, end)));
  report.failures.push(...(await addressRuleAfterTheRun(t, o.seed, end)));
  agent.destroy();
  report.fingerprint = fingerprint(t);
  report.ms = Math.round(performance.now() - started);
  report.slowestMs = Math.round(report.slowestMs);
  return report;
}

export function summary(r: FuzzReport): string {
  const statuses = Object.entries(r.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}:${n}`)
    .join(' ');
  const lines = [
    `fuzz seed=${r.seed} from=${r.from} count=${r.count} target=${r.fingerprint}: ${r.sent} requests (${r.raw} raw) in ${(r.ms / 1000).toFixed(1)} s, slowest ${r.slowestMs} ms${r.slowInCrowd ? ` (${r.slowInCrowd} over the limit among others, in time alone)` : ''}, statuses ${statuses}`,
    `${r.failures.length} failure(s)${r.failures.length ? '' : ' — all answers below 500, in time, in the envelope; /healthz healthy'}`,
  ];
  for (const f of r.failures.slice(0, 30)) {
    lines.push(
      `  #${f.index} ${f.reason}\n    request: ${f.request}\n    answer: ${f.status} ${f.ms} ms ${JSON.stringify(f.answer.slice(0, 200))}\n    replay: npm run fuzz -- --seed ${r.seed} --from ${f.index} --count 1 (exact while the target is ${r.fingerprint})`,
    );
  }
  if (r.failures.length > 30) lines.push(`  … and ${r.failures.length - 30} more`);
  return lines.join('\n');
}
