import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  created: CreatedAt;
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

/** One login attempt: a failure, or one still being checked (decisions.md §9 throttling). */
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
}
