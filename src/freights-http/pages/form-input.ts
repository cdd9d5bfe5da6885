import { readPickedCompanies } from './company-picker.tsx';
import type { Caller, Ctx } from '../../kernel/context.ts';
import { readLocaleDateTime, readLocaleDecimal, readLocaleWeightKg } from '../../kernel/locale.ts';
import type { Warning } from '../../kernel/outcome.ts';
import { isRecord, readString, type Params } from '../../kernel/params.ts';
import { airportCodeOf, isAirportCode, postalCentre, type PostalCentre, resolvePlaceText, searchCountries } from '../../places/index.ts';
import { searchForFreight } from '../../pricing/index.ts';
import type { ExactPlaces } from '../booking.ts';
import { VISIBILITY } from '../../freights/index.ts';

/**
 * The HTML freight forms' normalising (decided, docs/choices.md "Web interface"): what a
 * person types in their language is turned into the API's field values *before* the same
 * handler runs, so the JSON API keeps its own lenient rules untouched. What cannot be read is
 * left out of the call (an edit keeps the stored value) and reported next to its field, in the
 * user's language, with the typed text kept in the form.
 */

/** Field name (as in the form) -> message; and field name -> text as typed. */
export interface FormState {
  problems: Record<string, string>;
  typed: Record<string, string>;
  /** the handler's warnings, for the page */
  warnings?: Warning[];
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A country name in either language, or its code: the two-letter code, or undefined. */
export function countryCode(text: string): string | undefined {
  const t = text.trim();
  if (/^[A-Za-z]{2}$/.test(t)) return t.toUpperCase();
  const [best] = searchCountries(t, 2);
  if (!best) return undefined;
  // Only an exact name (or code) is taken: "Deu" must not silently become a country.
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return [...best.names.eng, ...best.names.deu].some((n) => fold(n) === fold(t)) ? best.code : undefined;
}

/**
 * The centre of a place given as a postal code and a country, as the form sends it (`city:DE-60311`,
 * or `60311` with the side's country: a country field wins, as in the API), from the packaged
 * postal data; undefined for an airport, a code the data does not know, or no country.
 */
export function centreOfPostalPlace(place: unknown, country: unknown): PostalCentre | undefined {
  const text = readString(place)?.trim();
  if (!text || airportCodeOf(text) !== null) return undefined;
  const m = /^city:\s*(?:([A-Za-z]{2})\s*-\s*)?(.+)$/i.exec(text);
  const cc = readString(country)?.trim() || m?.[1];
  return cc ? postalCentre(cc, m ? m[2]! : text) : undefined;
}

/**
 * Fills a side's coordinates, and its address when empty with the town, from the packaged postal
 * data when the person typed a postal code and a country but no coordinates (docs/choices.md,
 * Postal code centres): the form, being the caller, resolves what the API does not (docs/reference.md#the-api:
 * `city:` values are not resolved), so radius searches find the freight and lists name its town.
 * Coordinates typed or filled by a city suggestion win, and so does an address.
 */
function fillFromPostalCode(p: Params, side: 'from' | 'to'): void {
  const [lat, lon, addr] = [`${side}_latitude`, `${side}_longitude`, `${side}_addr`];
  if (!(side in p) || !blank(p[lat]) || !blank(p[lon])) return;
  const centre = centreOfPostalPlace(p[side], p[`${side}_country`]);
  if (!centre) return;
  p[lat] = String(centre.latitude);
  p[lon] = String(centre.longitude);
  if (blank(p[addr]) && centre.city) p[addr] = centre.city;
}

/**
 * A side's place typed as a town's name ("München", "PL Warszawa", "Warschau / Warszawa (PL)" as
 * a picked suggestion leaves it; docs/choices.md, Typed places): a town without a postal code,
 * given by its country and coordinates (and its name as the address when none is typed), which
 * is what the API stores for it. A name that names several towns, or none, is said beside the
 * field with the choices; when the form already carries the coordinates of a picked suggestion
 * they are kept.
 */
async function readTownName(p: Params, side: 'from' | 'to', text: string, lang: string, t: Ctx['t'], problems: Record<string, string>) {
  const [country, lat, lon, addr] = [`${side}_country`, `${side}_latitude`, `${side}_longitude`, `${side}_addr`];
  const found = await resolvePlaceText(text, lang);
  if ('place' in found) {
    p[side] = '';
    p[country] = found.place.country;
    p[lat] = String(found.place.latitude);
    p[lon] = String(found.place.longitude);
    if (blank(p[addr])) p[addr] = found.place.local;
    return;
  }
  if (!blank(p[country]) && !blank(p[lat]) && !blank(p[lon])) {
    p[side] = '';
    return;
  }
  problems[side] =
    'choices' in found
      ? t('fv.form.error.place_which', { place: text, choices: found.choices.map((c) => c.label).join('; ') })
      : t('fv.form.error.place');
  delete p[side];
}

const TIME_FIELDS = ['etd', 'etd_end', 'eta', 'eta_end'] as const;
const PIECE_NUMBERS = ['depth', 'width', 'height'] as const;

/**
 * Normalises a freight form (create, edit, booking request) in place of `ctx.params` and
 * answers the problems and what was typed, for the page (the endpoint's input, route.tsx `read`). On edit the form's refs keys are merged into the stored
 * refs by the handler (mergeRefs), since refs replaces as a whole and the form shows only some.
 */
export async function normaliseFreightForm(ctx: Ctx<Caller>, mode: 'add' | 'edit'): Promise<FormState> {
  const t = ctx.t;
  const lang = ctx.language;
  const p: Params = { ...ctx.params };
  const problems: Record<string, string> = {};
  const typed: Record<string, string> = {};
  const keep = (name: string, value: unknown) => {
    if (typeof value === 'string') typed[name] = value;
  };

  if ('weight' in p) {
    keep('weight', p.weight);
    if (!blank(p.weight)) {
      const kg = readLocaleWeightKg(p.weight, lang);
      if (kg === undefined) {
        problems.weight = t('form.error.weight', { example: lang === 'deu' ? '12,5 t' : '12.5 t' });
        delete p.weight;
      } else p.weight = kg;
    }
  }
  // docs/reference.md#one-step: the Book Now and walk-away prices as people write them (912,50 in German), > 0.
  for (const name of ['book_now', 'auto_award'] as const) {
    if (!(name in p)) continue;
    keep(name, p[name]);
    if (blank(p[name])) continue;
    const n = readLocaleDecimal(p[name], lang);
    if (n === undefined || !(Number(n) > 0) || !/^\d+(\.\d{1,2})?$/.test(n)) {
      problems[name] = t('quotes.form.amount', { example: lang === 'deu' ? '912,50' : '912.50' });
      delete p[name];
    } else p[name] = n;
  }
  // The load's numbers as people write them (7,5 Lademeter; −18 °C); what cannot be read is said beside the field.
  for (const name of ['loading_meters', 'temperature_min', 'temperature_max'] as const) {
    if (!(name in p)) continue;
    keep(name, p[name]);
    if (blank(p[name])) continue;
    const n = readLocaleDecimal(String(readString(p[name]) ?? '').replace(/^\s*[−–]/, '-'), lang);
    if (n === undefined) {
      problems[name] = t('form.error.number', { example: lang === 'deu' ? '7,5' : '7.5' });
      delete p[name];
    } else p[name] = n;
  }
  for (const name of ['body', 'adr_class', 'pallet_exchange'] as const) if (name in p) keep(name, p[name]);
  for (const name of TIME_FIELDS) {
    if (!(name in p)) continue;
    keep(name, p[name]);
    if (blank(p[name])) continue;
    const time = readLocaleDateTime(p[name]);
    if (time === undefined) {
      // The fields are date pickers: a person picks, never types the API's format.
      problems[name] = t('fv.form.error.datetime_pick');
      delete p[name];
    } else p[name] = time;
  }
  // An end before its start is kept (the API takes it) but said next to the end.
  for (const [start, end] of [
    ['etd', 'etd_end'],
    ['eta', 'eta_end'],
  ] as const) {
    const a = readString(p[start]);
    const b = readString(p[end]);
    if (a && b && a.length > 10 && b.length > 10 && b < a && !problems[end]) problems[end] = t('form.error.end_before_start');
  }
  for (const side of ['from', 'to'] as const) {
    const key = `${side}_country`;
    if (key in p) {
      keep(key, p[key]);
      if (!blank(p[key])) {
        const code = countryCode(String(readString(p[key]) ?? ''));
        if (!code) {
          problems[key] = t('form.error.country', { example: lang === 'deu' ? 'Deutschland, DE' : 'Germany, DE' });
          delete p[key];
        } else p[key] = code;
      }
    }
    if (side in p) {
      keep(side, p[side]);
      const text = readString(p[side])?.trim() ?? '';
      // "DE-60311" (as the suggestions and the rate search write it) is country and postal code;
      // "DE-80331 München" (a picked postal suggestion's words) too, its town the address when none is given.
      const cc = /^([A-Za-z]{2})[-\s]+(\d[\dA-Za-z -]*?)(?:\s+(\p{L}[\p{L}\p{M} .'()/-]*))?$/u.exec(text);
      if (cc && countryCode(cc[1]!)) {
        p[side] = `city:${cc[1]!.toUpperCase()}-${cc[2]!.trim()}`;
        if (blank(p[key]) && !problems[key]) delete p[key];
        if (cc[3] && blank(p[`${side}_addr`])) p[`${side}_addr`] = cc[3].trim();
      } else if (/^\p{L}/u.test(text) && !isAirportCode(text) && !/^(airport|city):/i.test(text)) {
        await readTownName(p, side, text, lang, t, problems);
      }
    }
    for (const coord of ['latitude', 'longitude']) {
      const k = `${side}_${coord}`;
      if (k in p && !blank(p[k])) {
        const v = readLocaleDecimal(p[k], 'eng');
        if (v === undefined) delete p[k];
        else p[k] = v;
      }
    }
    if (!problems[side] && !problems[key]) fillFromPostalCode(p, side);
  }
  if (Array.isArray(p.pieces) || isRecord(p.pieces)) {
    const lines = (Array.isArray(p.pieces) ? p.pieces : Object.values(p.pieces)).filter(isRecord);
    const out: Record<string, unknown>[] = [];
    lines.forEach((line, i) => {
      // A line left empty (the form always offers one more) is no piece line.
      if (Object.values(line).every(blank)) return;
      const piece: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(line)) {
        const name = `pieces[${i}][${k}]`;
        keep(name, v);
        if (blank(v)) continue;
        if (k === 'pieces') {
          const n = readLocaleDecimal(v, lang);
          if (n === undefined || !/^\d+$/.test(n)) problems[name] = t('form.error.integer');
          else piece[k] = n;
        } else if (k === 'weight') {
          const kg = readLocaleWeightKg(v, lang);
          if (kg === undefined) problems[name] = t('form.error.weight', { example: lang === 'deu' ? '420,5' : '420.5' });
          else piece[k] = kg;
        } else if ((PIECE_NUMBERS as readonly string[]).includes(k)) {
          const n = readLocaleDecimal(v, lang);
          if (n === undefined) problems[name] = t('form.error.number', { example: lang === 'deu' ? '120' : '120' });
          else piece[k] = n;
        } else piece[k] = v;
      }
      out.push(piece);
    });
    p.pieces = out;
  }
  if ('share' in p) {
    // The form's checkboxes beside an empty value (form-page.tsx): what was ticked, kept for the form.
    const ticked = (Array.isArray(p.share) ? p.share : [p.share]).filter((v) => typeof v === 'string' && v.trim() !== '');
    typed.share = ticked.join(',');
  }
  if (isRecord(p.refs)) {
    const refs: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(p.refs)) {
      keep(`refs[${k}]`, v);
      if (k === 'target_rate' && !blank(v)) {
        const n = readLocaleDecimal(v, lang);
        if (n === undefined) {
          problems['refs[target_rate]'] = t('form.error.number', { example: lang === 'deu' ? '1.745,50' : '1,745.50' });
          continue;
        }
        refs[k] = n;
      } else refs[k] = typeof v === 'string' ? v.trim() : v;
    }
    // A new freight has no refs but these; an edit merges them into the stored ones (mergeRefs).
    p.refs = mode === 'add' ? mergeRefs({}, refs) : refs;
  }
  const state: FormState = { problems, typed };
  ctx.params = p;
  return state;
}

/** The stored refs with the form's keys applied: a blank value removes its key; other keys (entity, obj_id, …) stay. */
export function mergeRefs(stored: unknown, form: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = isRecord(stored) ? { ...stored } : {};
  for (const [k, v] of Object.entries(form)) {
    if (blank(v)) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** The publish form: company names in the whitelist become ids; unknown names refuse the publish (the page says which). */
export async function normalisePublishForm(ctx: Ctx<Caller>): Promise<string | null> {
  if (readString(ctx.params.whitelist_names) === undefined) return null;
  const unknown = await readPickedCompanies(ctx);
  delete ctx.params.whitelist_names;
  if (unknown) return ctx.t('form.error.companies', { names: unknown.join(', ') });
  const ids = ctx.params.whitelist as number[];
  // Naming companies is choosing them: the tender goes to them alone (unless kept in-house).
  if (ids.length && String(ctx.params.visibility) !== String(VISIBILITY.ownCompany)) ctx.params.visibility = String(VISIBILITY.whitelist);
  return null;
}

/**
 * The API's warnings of a page's call (the freight form, the load search of the lists and of
 * saved searches), as messages next to the form's fields, in the user's language (the JSON
 * answer keeps the English reasons).
 */
export function problemsFromWarnings(warnings: Warning[] | undefined, t: Ctx['t']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const w of warnings ?? []) {
    const r = w.reason;
    let message: string;
    const search = loadSearchProblem(r, t);
    if (search !== undefined) message = search;
    else if (r === 'a date without time is dropped') message = t('form.error.time_missing');
    else if (r.startsWith('not a time')) message = t('fv.form.error.datetime_pick');
    else if (r.startsWith('unknown IATA code')) message = t('fv.form.error.iata', { code: /unknown IATA code (\w+)/.exec(r)?.[1] ?? '' });
    else if (r === 'not a number in range') message = t('fv.form.error.range');
    else if (r.startsWith('longer than')) message = t('fv.form.error.too_long', { max: r.replace(/\D+/g, '') });
    else if (r === 'not a location') message = t('fv.form.error.place');
    else if (r === 'unknown field' || r === 'set by the server')
      continue; // form plumbing, never the user's doing
    else message = t('fv.form.error.other', { reason: r });
    out[w.field] = out[w.field] ? `${out[w.field]} ${message}` : message;
  }
  return out;
}

/**
 * A warning of the load search (market/search.ts: the lists' search parameters, a saved search's
 * `params`) in the user's words; undefined for any other reason. The reasons are the API's
 * English texts, which stay as they are in JSON answers.
 */
function loadSearchProblem(r: string, t: Ctx['t']): string | undefined {
  const rules: Array<[RegExp, (m: string[]) => string]> = [
    [/^"(.*)" is not DE, DE-60 or airport:FRA: ignored$/s, (m) => t('fv.search.warn.place', { value: m[1]! })],
    [/^(\S+) is no country code: ignored$/, (m) => t('fv.search.warn.country', { code: m[1]! })],
    [/^(\S+) cannot begin a postal code of (\S+): ignored$/, (m) => t('fv.search.warn.postal', { prefix: m[1]!, country: m[2]! })],
    [/^more than (\d+) places$/, (m) => t('fv.search.warn.places', { max: m[1]! })],
    [/^(?:coordinates out of range|not lat,lon or airport:XXX): ignored$/, () => t('fv.search.warn.near')],
    [/^unknown airport (\S+): ignored$/, (m) => t('fv.search.warn.airport', { code: m[1]! })],
    [/^not a radius from (\d+) to (\d+) km: (\d+) km used$/, (m) => t('fv.search.warn.radius', { min: m[1]!, max: m[2]!, km: m[3]! })],
    [/^has no effect without \w+_near$/, () => t('fv.search.warn.radius_alone')],
    [/^not a date YYYY-MM-DD$/, () => t('fv.search.warn.date')],
    [/^after \w+_to: both ignored$/, () => t('fv.search.warn.days')],
    [/^not a weight in kg \(up to 3 decimals\)$/, () => t('fv.search.warn.weight')],
    [/^above weight_max: both ignored$/, () => t('fv.search.warn.weights')],
    [/^not road or air$/, () => t('fv.search.warn.media')],
    [/^more than (\d+) words: the first \d+ used$/, (m) => t('fv.search.warn.words', { max: m[1]! })],
    [/^not a search parameter$/, () => t('fv.search.warn.unknown')],
  ];
  for (const [re, say] of rules) {
    const m = re.exec(r);
    if (m) return say(m);
  }
  return undefined;
}

/**
 * The rate search's Book button (HTML): `pricing_search_id` names the search the rate came from.
 * Its pieces and weight go into the request (unless the form sent its own), and its exact
 * places refine the rate's zones (booking.ts). A missing or foreign search adds nothing.
 */
export async function normaliseBookingForm(ctx: Ctx<Caller>): Promise<ExactPlaces | undefined> {
  const raw = ctx.params.pricing_search_id;
  delete ctx.params.pricing_search_id;
  const id = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
  const search = id ? await searchForFreight(ctx.db, ctx.caller.companyId, id) : null;
  if (!search) return undefined;
  if (!('pieces' in ctx.params) && search.pieces.length) ctx.params.pieces = search.pieces;
  if (search.weight !== null) ctx.params.weight = search.weight;
  const refs = isRecord(ctx.params.refs) ? ctx.params.refs : {};
  ctx.params.refs = { ...refs, pricing_search_id: id };
  return { from: search.origin, to: search.destination };
}
