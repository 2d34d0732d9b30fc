import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { DeveloperRow } from './developers.table.js';

export async function insertDeveloper(db: Kysely<DB>, row: DeveloperRow): Promise<void> {
  await db.insertInto('developers').values(row).execute();
}

export function findDeveloper(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('developers as d')
    .innerJoin('identity_users as u', 'u.id', 'd.user_id')
    .select(['u.username as email', 'd.first_name', 'd.last_name', 'd.company'])
    .where('d.user_id', '=', userId)
    .executeTakeFirst();
}
