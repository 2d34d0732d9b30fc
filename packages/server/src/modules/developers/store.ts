import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { NewDeveloper } from './developers.table.js';

/** Writes a developer's names and company, replacing those of a pending sign-up that is redone. */
export async function saveDeveloper(db: Kysely<DB>, row: NewDeveloper): Promise<void> {
  await db
    .insertInto('developers')
    .values(row)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ first_name: row.first_name, last_name: row.last_name, company: row.company }),
    )
    .execute();
}

export function findDeveloper(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('developers as d')
    .innerJoin('identity_users as u', 'u.id', 'd.user_id')
    .select(['u.username as email', 'd.first_name', 'd.last_name', 'd.company'])
    .where('d.user_id', '=', userId)
    .executeTakeFirst();
}
