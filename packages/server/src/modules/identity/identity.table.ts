import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Account states, as the hosted identity service the spec assumes names them. */
export type AccountStatus = 'UNCONFIRMED' | 'CONFIRMED' | 'RESET_REQUIRED' | 'FORCE_CHANGE_PASSWORD';

/** One account in one pool: the developers' pool, or one game's players. */
export interface IdentityUserTable {
  id: string;
  pool_id: string;
  username: string;
  email: string | null;
  password_hash: string;
  status: AccountStatus;
  /** 1 enabled, 0 disabled. */
  enabled: number;
  created_at: number;
  updated_at: number;
  /** Moves on whenever every session must end (new password, reset request, disable, sign-out everywhere). */
  session_version: Generated<number>;
}
export type IdentityUser = Selectable<IdentityUserTable>;
export type NewIdentityUser = Insertable<IdentityUserTable>;

export type CodePurpose = 'confirm_sign_up' | 'reset_password';

/** At most one live code per account and purpose; a new one replaces the old. */
export interface IdentityCodeTable {
  user_id: string;
  purpose: CodePurpose;
  code_hash: string;
  expires_at: number;
  failed_attempts: number;
  created_at: number;
}

export interface IdentitySessionTable {
  /** SHA-256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: number;
  /** null: the session never expires. */
  expires_at: number | null;
  /** The saved session this one was minted from, if any; ending that ends this. */
  saved_session_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account's session version when the password (or saved session) was checked; works only while it still is. */
  session_version: number;
}

/** A "remember me" token: it never authorises a call itself, it only mints fresh sessions. */
export interface IdentitySavedSessionTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  /** As for sessions: minted under this version of the account, works only while it still is. */
  session_version: number;
}
