import type { ColumnType, Insertable } from 'kysely';

/** What a developer account adds to its identity: the spec's "new user record". */
export interface DeveloperTable {
  user_id: string;
  first_name: string;
  last_name: string;
  company: string | null;
  /** The game the site works on; null with no games. */
  current_game_id: ColumnType<string | null, string | null | undefined, string | null>;
}
export type NewDeveloper = Insertable<DeveloperTable>;
