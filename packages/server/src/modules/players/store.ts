import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { PlayerEmailTemplateTable } from './players.table.js';

export function findTemplate(db: Kysely<DB>, gameId: string) {
  return db.selectFrom('player_email_templates').selectAll().where('game_id', '=', gameId).executeTakeFirst();
}

export async function deleteTemplates(db: Kysely<DB>, gameId: string): Promise<void> {
  await db.deleteFrom('player_email_templates').where('game_id', '=', gameId).execute();
}

export async function saveTemplate(db: Kysely<DB>, template: PlayerEmailTemplateTable): Promise<void> {
  const { confirmation_subject, confirmation_body, reset_subject, reset_body, reply_to, updated_at } = template;
  await db
    .insertInto('player_email_templates')
    .values(template)
    .onConflict((oc) =>
      oc
        .column('game_id')
        .doUpdateSet({ confirmation_subject, confirmation_body, reset_subject, reset_body, reply_to, updated_at }),
    )
    .execute();
}

/**
 * One page of the names the players list shows, in name order after `after`: accounts of the pool
 * and names that only have player data (not the reserved game-state name). Each side reads its
 * own index up to the page size, so the page costs the same on the first page and the last.
 */
export async function listNames(
  db: Kysely<DB>,
  q: { poolId: string; gameId: string; limit: number; after: string; reserved: string },
): Promise<string[]> {
  const accounts = db
    .selectFrom('identity_users')
    .select('username as name')
    .where('pool_id', '=', q.poolId)
    .where('username', '>', q.after)
    .orderBy('username')
    .limit(q.limit);
  const withData = db
    .selectFrom('player_data')
    .select('player_name as name')
    .distinct()
    .where('game_id', '=', q.gameId)
    .where('player_name', '>', q.after)
    .where('player_name', '!=', q.reserved)
    .orderBy('player_name')
    .limit(q.limit);
  const rows = await db
    .selectFrom(
      db
        .selectFrom(accounts.as('a'))
        .select('a.name')
        .union(db.selectFrom(withData.as('d')).select('d.name'))
        .as('names'),
    )
    .select('names.name')
    .orderBy('names.name')
    .limit(q.limit)
    .execute();
  return rows.map((r) => r.name);
}

export function usersNamed(db: Kysely<DB>, poolId: string, names: string[]) {
  if (names.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('identity_users')
    .select(['id', 'username', 'email', 'status', 'enabled', 'created_at'])
    .where('pool_id', '=', poolId)
    .where('username', 'in', names)
    .execute();
}
