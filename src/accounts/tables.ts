import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  created: CreatedAt;
  // The profile (docs/reference.md#trust), edited by the company itself (accounts/profile.ts).
  country: ColumnType<string | null, string | null | undefined, string | null>;
  city: ColumnType<string | null, string | null | undefined, string | null>;
  postcode: ColumnType<string | null, string | null | undefined, string | null>;
  vat_id: ColumnType<string | null, string | null | undefined, string | null>;
  phone: ColumnType<string | null, string | null | undefined, string | null>;
  website: ColumnType<string | null, string | null | undefined, string | null>;
  description: ColumnType<string | null, string | null | undefined, string | null>;
  fleet_size: ColumnType<number | null, number | null | undefined, number | null>;
  founded: ColumnType<number | null, number | null | undefined, number | null>;
  /** Set by the operator (`company verify`), null when not verified. */
  verified_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** A company (blocker) no longer wants to see or hear from another (blocked), docs/reference.md#trust. */
export interface CompanyBlocksTable {
  blocker_id: number;
  blocked_id: number;
  created: Date;
}

export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  email: string;
  username: string | null;
  realname: Generated<string>;
  /** eng or deu: the language of display placeholders and pages */
  language: Generated<string>;
  password_hash: string;
  token_nonce: string;
  created: CreatedAt;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created: CreatedAt;
  expires: Date;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** One login attempt: a failure, or one still being checked (docs/reference.md#safety throttling). */
export interface LoginAttemptsTable {
  id: Generated<number>;
  /** The login name as typed, trimmed and lower-cased (e-mail or username, whether or not a user has it). */
  login: string;
  address: string;
  at: Date;
  /** The user the name belongs to, if any. */
  user_id: number | null;
}

export interface AccountTables {
  companies: CompaniesTable;
  users: UsersTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  login_attempts: LoginAttemptsTable;
  company_blocks: CompanyBlocksTable;
}
