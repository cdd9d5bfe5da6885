import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';
import { isRecord, type Params } from '../kernel/params.ts';
import type { Warning } from '../kernel/outcome.ts';
import { DEFAULT_MODES } from './kinds.ts';
import { MAIL_KINDS, MAIL_MODES, type MailKind, type MailMode } from './tables.ts';

/** A user's e-mail settings (docs/reference.md#mail): each kind's mode, the defaults where nothing was chosen. */

export type MailSettingsView = Record<MailKind, MailMode>;

export const isMailKind = (value: unknown): value is MailKind =>
  typeof value === 'string' && (MAIL_KINDS as readonly string[]).includes(value);
export const isMailMode = (value: unknown): value is MailMode =>
  typeof value === 'string' && (MAIL_MODES as readonly string[]).includes(value);

/** Every kind's mode for the user (the default where the user chose nothing). */
export async function settingsOf(db: Db, userId: number): Promise<MailSettingsView> {
  const rows = await db.selectFrom('mail_settings').select(['kind', 'mode']).where('user_id', '=', userId).execute();
  const out = { ...DEFAULT_MODES };
  for (const r of rows) if (isMailKind(r.kind) && isMailMode(r.mode)) out[r.kind] = r.mode;
  return out;
}

/** The modes users chose (only what differs from nothing: the caller applies defaults), by user and kind. */
export async function chosenModes(db: Db, userIds: readonly number[]): Promise<Map<string, MailMode>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .selectFrom('mail_settings')
    .select(['user_id', 'kind', 'mode'])
    .where(sql<boolean>`user_id = any(${[...new Set(userIds)]}::int[])`)
    .execute();
  return new Map(rows.map((r) => [modeKey(r.user_id, r.kind), r.mode]));
}

export const modeKey = (userId: number, kind: string) => `${userId}:${kind}`;

/** The mode of `kind` for a user among `chosen` (chosenModes), else its default. */
export const modeOf = (chosen: Map<string, MailMode>, userId: number, kind: MailKind): MailMode =>
  chosen.get(modeKey(userId, kind)) ?? DEFAULT_MODES[kind];

/** Sets the modes given (one statement); the other kinds keep theirs. */
export async function setModes(db: Db, userId: number, modes: Partial<MailSettingsView>, now: Date): Promise<void> {
  const rows = Object.entries(modes).map(([kind, mode]) => ({
    user_id: userId,
    kind: kind as MailKind,
    mode: mode as MailMode,
    modified: now,
  }));
  if (!rows.length) return;
  await db
    .insertInto('mail_settings')
    .values(rows)
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ mode: (eb) => eb.ref('excluded.mode'), modified: now }))
    .execute();
}

/** What a settings request asks: the modes to set, or the first problem (nothing is set then). */
export type SettingsInput =
  | { kind: 'ok'; modes: Partial<MailSettingsView>; warnings: Warning[] }
  | { kind: 'invalid'; key: 'mail.email_invalid' | 'mail.mode_invalid'; vars?: Record<string, string> };

/**
 * Reads `email` (an object from kind to mode; a form sends `email[alerts]=daily`). A kind this
 * exchange does not know is ignored with a warning (as unknown fields are, docs/reference.md#the-api); a mode other
 * than instant, daily or off refuses the request, naming the kind, and nothing changes.
 */
export function readSettingsInput(params: Params): SettingsInput {
  const email = params.email;
  if (email === undefined) return { kind: 'ok', modes: {}, warnings: [] };
  if (!isRecord(email)) return { kind: 'invalid', key: 'mail.email_invalid' };
  const modes: Partial<MailSettingsView> = {};
  const warnings: Warning[] = [];
  // Bounded before any work: at most as many entries as a client could mean, plus a few.
  const entries = Object.entries(email).slice(0, 50);
  for (const [kind, raw] of entries) {
    if (!isMailKind(kind)) {
      warnings.push({ field: `email.${kind.slice(0, 40)}`, reason: 'unknown kind: ignored' });
      continue;
    }
    const mode = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
    if (!isMailMode(mode)) return { kind: 'invalid', key: 'mail.mode_invalid', vars: { kind } };
    modes[kind] = mode;
  }
  return { kind: 'ok', modes, warnings };
}
