import { checkVAT, countries as VAT_COUNTRIES } from 'jsvat';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/schema.ts';
import type { Warning } from '../kernel/outcome.ts';
import type { Params } from '../kernel/params.ts';
import { readInt, readString } from '../kernel/params.ts';

/**
 * A company's profile (docs/reference.md#trust): the fields a company edits itself, how each is read and
 * checked, and the operator's verification. The accounts module owns `companies`; the trust
 * module's endpoints call these. A VAT id is checked by jsvat (format and check digits of the EU
 * countries, and a few more).
 */

/** The fields a company may change of its own profile, in answer order. */
export const PROFILE_FIELDS = [
  'country',
  'city',
  'postcode',
  'vat_id',
  'phone',
  'website',
  'description',
  'fleet_size',
  'founded',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
/** Fields of the profile that are not the company's to change: ignored with a warning. */
export const NOT_EDITABLE = ['id', 'name', 'verified', 'verified_at', 'member_since', 'completed', 'ratings'] as const;

export type ProfileValues = Partial<Record<ProfileField, string | number | null>>;

export const PROFILE_LIMITS = {
  city: 100,
  postcode: 20,
  vat_id: 20,
  phone: 40,
  website: 200,
  description: 2000,
  fleetSize: 100_000,
  foundedFrom: 1800,
} as const;

/** The stored row of a company's profile. */
export interface CompanyProfileRow {
  id: number;
  name: string;
  created: Date;
  country: string | null;
  city: string | null;
  postcode: string | null;
  vat_id: string | null;
  phone: string | null;
  website: string | null;
  description: string | null;
  fleet_size: number | null;
  founded: number | null;
  verified_at: Date | null;
}

/** A VAT id as written for the check: upper case, without spaces, dots and dashes. */
export function normaliseVatId(text: string): string {
  return text.toUpperCase().replace(/[\s.\-/]/g, '');
}

/**
 * Whether a VAT id is valid for its country's format and check digits (jsvat). An id without
 * its country prefix takes the profile's country (Greece's prefix is EL).
 */
export function checkVatId(text: string, country: string | null): { valid: boolean; value: string } {
  let value = normaliseVatId(text);
  if (/^\d/.test(value) && country) value = `${country === 'GR' ? 'EL' : country}${value}`;
  if (value.length < 4 || value.length > PROFILE_LIMITS.vat_id) return { valid: false, value };
  const result = checkVAT(value, VAT_COUNTRIES);
  return { valid: result.isValid, value };
}

const blank = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '');
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Reads the profile fields sent (only those sent; an empty one clears it). Each problem is named
 * with its field; nothing is changed when there is one. Fields that are not the company's to
 * change (`name`, `verified`, the counts) are ignored with a warning, as docs/reference.md#the-api ignores fields.
 */
export function readProfileInput(
  params: Params,
  currentCountry: string | null,
  thisYear: number,
): { values: ProfileValues; problems: Warning[]; warnings: Warning[] } {
  const values: ProfileValues = {};
  const problems: Warning[] = [];
  const warnings: Warning[] = [];
  for (const key of NOT_EDITABLE)
    if (params[key] !== undefined) warnings.push({ field: key, reason: 'not changed by the company itself; ignored' });
  const text = (key: 'city' | 'postcode' | 'phone' | 'website' | 'description', max: number, multiLine = false) => {
    const raw = params[key];
    if (raw === undefined) return;
    if (blank(raw)) {
      values[key] = null;
      return;
    }
    const s = readString(raw);
    if (s === undefined) return problems.push({ field: key, reason: 'not a text' });
    const v = multiLine ? s.replace(/\r\n/g, '\n').trim() : oneLine(s);
    if (v.length > max) return problems.push({ field: key, reason: `at most ${max} characters` });
    values[key] = v;
  };
  // Country first: a VAT id without prefix takes it.
  if (params.country !== undefined) {
    if (blank(params.country)) values.country = null;
    else {
      const c = readString(params.country)?.trim().toUpperCase();
      if (!c || !/^[A-Z]{2}$/.test(c)) problems.push({ field: 'country', reason: 'a two-letter country code (ISO 3166-1), e.g. DE' });
      else values.country = c;
    }
  }
  text('city', PROFILE_LIMITS.city);
  text('postcode', PROFILE_LIMITS.postcode);
  text('phone', PROFILE_LIMITS.phone);
  if (typeof values.phone === 'string' && !/^\+?[0-9 ()/.-]{3,}$/.test(values.phone))
    problems.push({ field: 'phone', reason: 'digits, spaces and + ( ) / . - only' });
  text('website', PROFILE_LIMITS.website);
  if (typeof values.website === 'string') {
    const site = /^https?:\/\//i.test(values.website) ? values.website : `https://${values.website}`;
    let url: URL | undefined;
    try {
      url = new URL(site);
    } catch {
      url = undefined;
    }
    if (!url?.hostname.includes('.') || /\s/.test(values.website)) problems.push({ field: 'website', reason: 'not a web address' });
    else values.website = site;
  }
  text('description', PROFILE_LIMITS.description, true);
  if (params.vat_id !== undefined) {
    if (blank(params.vat_id)) values.vat_id = null;
    else {
      const raw = readString(params.vat_id);
      const country = (values.country as string | null | undefined) ?? currentCountry;
      const checked = raw === undefined || raw.length > 40 ? undefined : checkVatId(raw, country);
      if (!checked?.valid) problems.push({ field: 'vat_id', reason: 'not a valid VAT id for its country (format and check digits)' });
      else values.vat_id = checked.value;
    }
  }
  const int = (key: 'fleet_size' | 'founded', min: number, max: number) => {
    const raw = params[key];
    if (raw === undefined) return;
    if (blank(raw)) {
      values[key] = null;
      return;
    }
    const n = readInt(raw);
    if (n === undefined || n < min || n > max) problems.push({ field: key, reason: `a whole number from ${min} to ${max}` });
    else values[key] = n;
  };
  int('fleet_size', 0, PROFILE_LIMITS.fleetSize);
  int('founded', PROFILE_LIMITS.foundedFrom, thisYear);
  return { values, problems, warnings };
}

const PROFILE_COLUMNS = ['id', 'name', 'created', ...PROFILE_FIELDS, 'verified_at'] as const;

/** A company's profile row, or undefined. */
export async function companyProfile(db: Db, id: number): Promise<CompanyProfileRow | undefined> {
  return db.selectFrom('companies').select(PROFILE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Several companies' profile rows, by id, in one statement (a missing company is absent). */
export async function companyProfiles(db: Db, ids: readonly number[]): Promise<Map<number, CompanyProfileRow>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom('companies').select(PROFILE_COLUMNS).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Writes the company's own profile fields (only those given); answers the row. */
export async function updateProfile(db: Db, id: number, values: ProfileValues): Promise<CompanyProfileRow | undefined> {
  if (!Object.keys(values).length) return companyProfile(db, id);
  return db
    .updateTable('companies')
    .set(values as never)
    .where('id', '=', id)
    .returning(PROFILE_COLUMNS)
    .executeTakeFirst();
}

/**
 * SQL: the profile row of company `id` as JSON (timestamps as epoch milliseconds), for a
 * statement that reads the profile with what other modules count about the company.
 */
export function companyProfileJsonSql(id: RawBuilder<unknown> | number) {
  return sql<Record<string, unknown> | null>`(select json_build_object('id', c.id, 'name', c.name,
      'created', (extract(epoch from c.created) * 1000)::float8, 'country', c.country, 'city', c.city, 'postcode', c.postcode,
      'vat_id', c.vat_id, 'phone', c.phone, 'website', c.website, 'description', c.description, 'fleet_size', c.fleet_size,
      'founded', c.founded, 'verified_at', (extract(epoch from c.verified_at) * 1000)::float8)
    from companies c where c.id = ${id})`;
}

/** A profile row from its JSON (companyProfileJsonSql). */
export function profileRowFromJson(o: Record<string, unknown>): CompanyProfileRow {
  return {
    ...(o as unknown as CompanyProfileRow),
    created: new Date(o.created as number),
    verified_at: o.verified_at === null ? null : new Date(o.verified_at as number),
  };
}

/**
 * The operator verifies a company (or revokes it): answers the company's id, name and
 * verification time (null after a revocation), or undefined for an unknown id. Verifying a
 * verified company keeps its first time.
 */
export async function setVerified(
  db: Db,
  id: number,
  verified: boolean,
  now: Date,
): Promise<{ id: number; name: string; verified_at: Date | null } | undefined> {
  return db
    .updateTable('companies')
    .set({ verified_at: verified ? sql<Date>`coalesce(verified_at, ${now}::timestamptz)` : null } as never)
    .where('id', '=', id)
    .returning(['id', 'name', 'verified_at'])
    .executeTakeFirst();
}
