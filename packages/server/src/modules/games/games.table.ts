import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export interface GameTable {
  /** URL-safe, unique and stable. */
  id: string;
  /** The developer's identity user id. */
  owner_id: string;
  name: string;
  /** Shown again on the site ("View API key"), so kept as issued; compared in constant time. */
  api_key: string;
  player_auth_enabled: Generated<number>;
  reg_type: Generated<'email_un_pwd' | 'un_pwd'>;
  email_conf_enabled: Generated<number>;
  allow_client_deletes: Generated<number>;
  latest_plugin_version: ColumnType<string | null, string | null | undefined, string | null>;
  latest_engine: ColumnType<string | null, string | null | undefined, string | null>;
  /** Lifetime of a player's session; 0 means it never expires. */
  session_duration_seconds: Generated<number>;
  /** Lifetime of a "remember me" saved session, 1 to 365 days. */
  saved_session_days: Generated<number>;
  /** 1: saving under a registered player's name needs that player's session. */
  require_player_session: Generated<number>;
  created_at: number;
}
export type GameRow = Selectable<GameTable>;
export type NewGame = Insertable<GameTable>;
