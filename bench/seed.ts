import type { Kysely } from 'kysely';
import { vacuumAnalyze } from '../packages/server/src/db/dialect-sql.js';
import type { DB } from '../packages/server/src/db/schema.js';

export const MODES = ['keep', 'highest', 'latest', 'accumulator'] as const;
/** What the measured server runs with: a free port, quiet logs, production mode, limits out of the way. */
export const SERVER_ENV = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  GAME_API_REQUESTS_PER_KEY_PER_MINUTE: '100000000',
  GAME_API_REQUESTS_PER_IP_PER_MINUTE: '100000000',
};
export const API_KEY = `howl_${'b'.repeat(43)}`;
/** Players with a stored document: `pd0` … `pd9999`. */
export const DATA_PLAYERS = 10_000;
export const DOC_BYTES = 1024;

/** A save game of exactly `DOC_BYTES` bytes of compact JSON: nested objects, a list, and padding. */
export function playerDoc(n: number): Record<string, unknown> {
  const doc = {
    level: n % 100,
    xp: n * 37,
    position: { x: (n % 1000) / 10, y: 3.5, zone: `zone-${n % 12}` },
    settings: { music: 0.8, sfx: true, language: 'en' },
    inventory: Array.from({ length: 12 }, (_, i) => ({ item: `item-${(n + i) % 300}`, count: i + 1 })),
    note: '',
  };
  doc.note = 'x'.repeat(DOC_BYTES - Buffer.byteLength(JSON.stringify(doc)));
  return doc;
}

/** The id of the `n`th seeded score (every size seeds 0 to entries - 1 on the `keep` board). */
export const seededScoreId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/**
 * A developer, a game and one unlimited board per save mode; `keep` gets `entries` scores, 1,000 rows per
 * insert; `DATA_PLAYERS` players get a `DOC_BYTES` document each.
 */
export async function seed(db: Kysely<DB>, gameId: string, entries: number): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('identity_users')
    .values({
      id: `dev-${gameId}`,
      pool_id: 'developers',
      username: `${gameId}@bench.local`,
      email: null,
      password_hash: 'x',
      status: 'CONFIRMED',
      enabled: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('games')
    .values({ id: gameId, owner_id: `dev-${gameId}`, name: 'bench', api_key: API_KEY, created_at: now })
    .execute();
  for (const mode of MODES) {
    await db
      .insertInto('leaderboards')
      .values({
        id: `${gameId}-${mode}`,
        game_id: gameId,
        name: mode,
        display_name: mode,
        insert_option: mode,
        time_based: 'na',
        timezone: null,
        max_entries: null,
        sort: 'desc',
        created_at: now,
      })
      .execute();
  }
  for (let i = 0; i < entries; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, entries - i) }, (_, j) => {
      const n = i + j;
      const id = seededScoreId(n);
      return {
        id,
        leaderboard_id: `${gameId}-keep`,
        period_start: 0,
        player_name: `player${n % 50_000}`,
        player_key: id,
        score: (n * 7919) % 1_000_003,
        timestamp: now - n,
        metadata: null,
        engine: 4,
      };
    });
    await db.insertInto('scores').values(rows).execute();
  }
  for (let i = 0; i < DATA_PLAYERS; i += 500) {
    const rows = Array.from({ length: Math.min(500, DATA_PLAYERS - i) }, (_, j) => ({
      game_id: gameId,
      player_name: `pd${i + j}`,
      character_name: '',
      data: JSON.stringify(playerDoc(i + j)),
      version: 1,
      updated_at: now,
    }));
    await db.insertInto('player_data').values(rows).execute();
  }
  // As a large import does, and as a running PostgreSQL's autovacuum would have done by now.
  await vacuumAnalyze(db, 'scores');
  await vacuumAnalyze(db, 'player_data');
}
