import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { PlayerEmailTemplateTable } from './players.table.js';

export function findTemplate(db: Kysely<DB>, gameId: string) {
  return db.selectFrom('player_email_templates').selectAll().where('game_id', '=', gameId).executeTakeFirst();
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
