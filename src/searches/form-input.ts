import type { Caller, Ctx } from '../kernel/context.ts';
import { readLocaleDecimal, readLocaleWeightKg } from '../kernel/locale.ts';
import { isRecord, readId, readString } from '../kernel/params.ts';
import { SEARCH_PARAMS } from '../market/index.ts';
import { fold, searchCountries } from '../places/index.ts';
import { searchOf } from './store.ts';

/**
 * The saved search form of the searches page (docs/choices.md, Load search): what a person
 * typed is read in their language *before* the same handler as the API's (POST
 * /searches/edit/{id}) runs, as the freight form and the list page's search bar do. The JSON API
 * keeps its lenient readers.
 */

/** The form's mark, as the search bar's: its fields are as typed, numbers in the user's language. */
export const TYPED = 'typed';

/** Form field name (`name`, `params[weight_min]`) -> message, and -> text as typed. */
export interface SearchFormState {
  problems: Record<string, string>;
  typed: Record<string, string>;
}

const WEIGHTS: readonly string[] = ['weight_min', 'weight_max'];
/** Numbers read in the person's language (radii, loading metres: `7,5` in German). */
const RADII: readonly string[] = ['from_radius', 'to_radius', 'loading_meters_max'];

/** A country typed by its name in either language (`Deutschland`, `Italy`): its code; anything else as it is. */
function placeAsTyped(place: string): string {
  const text = place.trim();
  if (/^[A-Za-z]{2}$/.test(text)) return text.toUpperCase();
  const [best] = searchCountries(text, 2);
  return best && [...best.names.eng, ...best.names.deu].some((n) => fold(n) === fold(text)) ? best.code : text;
}

/**
 * Normalises the form in place of `ctx.params` (HTML posts carrying the mark only; a one-button
 * form such as the alert switch posts the API's plain values): weights (`5.000`, `12,5 t`) and
 * radii by the user's language, country names as codes, empty fields and a radius without a
 * centre left out (the form always sends its radius), the alert checkbox as 0 or 1. A number the
 * form cannot read keeps the saved value and is reported next to its field.
 */
export async function normaliseSearchForm(ctx: Ctx<Caller>): Promise<SearchFormState | undefined> {
  if (ctx.format !== 'html' || ctx.params[TYPED] === undefined) return undefined;
  delete ctx.params[TYPED];
  const t = ctx.t;
  const lang = ctx.language;
  const typed: Record<string, string> = {};
  const problems: Record<string, string> = {};
  for (const key of ['name', 'filter']) {
    const value = readString(ctx.params[key]);
    if (value !== undefined) typed[key] = value;
  }
  // A checkbox sends nothing when it is off.
  const alert = readString(ctx.params.alert) === '1' ? '1' : '0';
  ctx.params.alert = alert;
  typed.alert = alert;
  const form = isRecord(ctx.params.params) ? ctx.params.params : {};
  const id = readId(ctx.path.id);
  const saved = (id ? (await searchOf(ctx.db, ctx.caller.userId, id))?.params : undefined) ?? {};
  const params: Record<string, string> = {};
  for (const name of SEARCH_PARAMS) {
    const raw = readString(form[name]);
    if (raw === undefined) continue;
    const key = `params[${name}]`;
    typed[key] = raw;
    const value = raw.trim();
    if (value === '') continue;
    if (WEIGHTS.includes(name)) {
      const kg = readLocaleWeightKg(value, lang);
      if (kg !== undefined) params[name] = kg;
      else {
        problems[key] = t('searches.error.weight');
        if (saved[name] !== undefined) params[name] = saved[name];
      }
    } else if (RADII.includes(name)) params[name] = readLocaleDecimal(value, lang) ?? value;
    else if (name === 'from' || name === 'to')
      params[name] = value
        .split(',')
        .filter((p) => p.trim())
        .map(placeAsTyped)
        .join(',');
    else params[name] = value;
  }
  for (const side of ['from', 'to']) if (params[`${side}_near`] === undefined) delete params[`${side}_radius`];
  ctx.params.params = params;
  return { problems, typed };
}
