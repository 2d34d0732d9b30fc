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
  created_at: number;
}
export type GameRow = Selectable<GameTable>;
export type NewGame = Insertable<GameTable>;
