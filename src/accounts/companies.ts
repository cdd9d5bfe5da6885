import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/schema.ts';
import { companyRef, type CompanyRef } from './mark.tsx';

/**
 * What other modules read about companies and users (the accounts module owns their tables):
 * names for ids, whether an id is a company, names to ids, contact persons, and SQL pieces for
 * statements of other modules that show a company's name.
 */

const MAX_IDS = 500;

const ids = (list: Array<number | null | undefined>) =>
  [...new Set(list.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id)))].slice(0, MAX_IDS);

/** Company names by id (at most 500 ids), one query. */
export async function namesOfCompanies(db: Db, list: Array<number | null | undefined>): Promise<Map<number, string>> {
  const wanted = ids(list);
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom('companies').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Companies as answers show them beside a resource (name and the verified mark) by id (at most 500 ids), one query. */
export async function companyRefs(db: Db, list: Array<number | null | undefined>): Promise<Map<number, CompanyRef>> {
  const wanted = ids(list);
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom('companies').select(['id', 'name', 'verified_at']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, companyRef(r.id, r.name, r.verified_at !== null)]));
}

/** Whether the id is a company's (for input that names one). */
export async function isCompany(db: Db, id: number): Promise<boolean> {
  return Boolean(await db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst());
}

/** Those of `ids` that are companies' (a list of ids someone sent: a whitelist). */
export async function existingCompanies(db: Db, ids: readonly number[]): Promise<Set<number>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return new Set();
  const rows = await db.selectFrom('companies').select('id').where('id', 'in', wanted).execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The ids of a sent list that name no company (`sent` against what was kept), as the warning that
 * says they were dropped (undefined: none were): unknown input is ignored with a warning everywhere.
 */
export function droppedIdsWarning(field: string, sent: unknown, kept: readonly number[]): { field: string; reason: string } | undefined {
  if (!Array.isArray(sent)) return undefined;
  const dropped = [...new Set((sent as unknown[]).filter((id): id is number => typeof id === 'number' && !kept.includes(id)))];
  if (!dropped.length) return undefined;
  const shown = dropped.slice(0, 10).join(', ') + (dropped.length > 10 ? ` and ${dropped.length - 10} more` : '');
  return { field, reason: `no company has the id ${shown}: dropped` };
}

/** The company's name, or undefined. */
export async function companyName(db: Db, companyId: number): Promise<string | undefined> {
  const row = await db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirst();
  return row?.name;
}

/**
 * SQL: the name of the company whose id is `id` (an SQL expression of the outer statement, e.g.
 * sql`freights.company_id`): a primary-key lookup per row, for statements that show names.
 */
export function companyNameSql(id: RawBuilder<unknown>) {
  return sql<string>`(select companies.name from companies where companies.id = ${id})`;
}

/**
 * Companies other than `company` to pick from: those for which `first` holds (an SQL condition
 * on `c.id`, the company's id) first, then by name; at most `limit`.
 */
export async function companiesToPick(
  db: Db,
  company: number,
  first: (id: RawBuilder<number>) => RawBuilder<unknown>,
  limit: number,
): Promise<Array<{ id: number; name: string }>> {
  const rows = await sql<{ id: number; name: string; partner: boolean }>`
    select c.id, c.name, ${first(sql<number>`c.id`)} as partner
    from companies c
    where c.id <> ${company}
    order by partner desc, c.name, c.id
    limit ${limit}`.execute(db);
  return rows.rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

/**
 * Company names typed in a form (comma or line separated; an id works too) to ids. Names match
 * case-insensitively and exactly; names that match no company, or several, come back unknown.
 */
export async function companiesByName(db: Db, text: string): Promise<{ ids: number[]; unknown: string[] }> {
  const parts = text
    .split(/[,;\n]/)
    .map((p) => p.trim())
    .filter(Boolean)
    .slice(0, 200);
  const found: number[] = [];
  const unknown: string[] = [];
  const names = parts.filter((p) => !/^\d{1,9}$/.test(p));
  const numeric = parts.filter((p) => /^\d{1,9}$/.test(p)).map(Number);
  const byName = names.length
    ? await db
        .selectFrom('companies')
        .select(['id', 'name'])
        .where(
          sql<string>`lower(name)`,
          'in',
          names.map((n) => n.toLowerCase()),
        )
        .execute()
    : [];
  const byId = numeric.length ? await db.selectFrom('companies').select('id').where('id', 'in', numeric).execute() : [];
  for (const part of parts) {
    if (/^\d{1,9}$/.test(part)) {
      if (byId.some((r) => r.id === Number(part))) found.push(Number(part));
      else unknown.push(part);
      continue;
    }
    const matches = byName.filter((r) => r.name.toLowerCase() === part.toLowerCase());
    if (matches.length === 1) found.push(matches[0]!.id);
    else unknown.push(part);
  }
  return { ids: [...new Set(found)], unknown };
}

/**
 * A place's city for display: an airport's city, else the city nearest to the coordinates (the
 * city data answers within a short wait; while it loads, no name). Null when unknown.
 */
export interface Contact {
  realname: string;
  email: string;
  company: string;
  /** the company's phone (its profile): a user keeps none of its own */
  phone: string | null;
}

/** A user as the other side's contact person: name, e-mail, company and the company's phone. */
export async function contactOf(db: Db, userId: number | null | undefined): Promise<Contact | null> {
  if (typeof userId !== 'number') return null;
  return (await contactsOf(db, [userId])).get(userId) ?? null;
}

/** Several users as contacts (`contactOf`), by id, in one statement (a missing user is absent). */
export async function contactsOf(db: Db, userIds: ReadonlyArray<number | null | undefined>): Promise<Map<number, Contact>> {
  const wanted = [...new Set(userIds.filter((id): id is number => typeof id === 'number'))];
  if (!wanted.length) return new Map();
  const rows = await db
    .selectFrom('users')
    .innerJoin('companies', 'companies.id', 'users.company_id')
    .select(['users.id', 'users.realname', 'users.email', 'companies.name as company', 'companies.phone'])
    .where('users.id', 'in', wanted)
    .execute();
  return new Map(rows.map(({ id, ...contact }) => [id, contact]));
}

/** Every company's id but `except`, in order (a push to every company: a tender that invites none, docs/reference.md#tenders). */
export async function allCompanyIds(db: Db, except: number): Promise<number[]> {
  return (await db.selectFrom('companies').select('id').where('id', '<>', except).orderBy('id').execute()).map((r) => r.id);
}
