import type { Selectable } from 'kysely';

/** What a developer account adds to its identity: the spec's "new user record". */
export interface DeveloperTable {
  user_id: string;
  first_name: string;
  last_name: string;
  company: string | null;
}
export type DeveloperRow = Selectable<DeveloperTable>;
