import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.js';

/** Writes `count` players' documents of about `bytes` each straight into the table (p000000, p000001, …), 500 a statement. */
export async function seedPlayerDocs(db: Kysely<DB>, gameId: string, count: number, bytes: number): Promise<void> {
  const pad = 'p'.repeat(bytes - 20);
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_, j) => ({
      game_id: gameId,
      player_name: `p${String(i + j).padStart(6, '0')}`,
      character_name: '',
      data: JSON.stringify({ i: i + j, pad }),
      version: 1,
      updated_at: 0,
    }));
    await db.insertInto('player_data').values(rows).execute();
  }
}
