import {
  either,
  GAME_STATE_PLAYER,
  playerName,
  type ImportBody,
  type ImportedPlayerDataEntry,
  type ImportedScoreRow,
  type ImportResult,
  type Metadata,
} from '@howl/contract';
import type { Clock } from '../../lib/clock.js';
import type { GameRow } from '../games/games.table.js';
import type { ImportedAccount } from '../identity/admin.js';
import { usableScoreId, type ImportedScore } from '../leaderboards/import.js';
import type { Leaderboards } from '../leaderboards/service.js';
import type { PlayerData } from '../player-data/service.js';
import type { Players } from '../players/service.js';
import { importErrors as E } from './errors.js';

export interface ImportDeps {
  clock: Clock;
  leaderboards: Pick<Leaderboards, 'missingBoards' | 'importScores'>;
  players: Pick<Players, 'importAccounts'>;
  playerData: Pick<PlayerData, 'importDocs'>;
}

type Doc = Record<string, unknown>;

/** Imports one process writes at once, each developer's one at a time: an import keeps the database busy for seconds. */
export const IMPORTS_AT_ONCE = 2;

/**
 * A game's data brought from another service (SilentWolf's shapes): every row is checked (the
 * contract, then the boards and names here) before anything is written; then the scores board by
 * board, the accounts, and the player data, each through its own module's service.
 */
export function createImport({ clock, leaderboards, players, playerData }: ImportDeps) {
  // The developers whose import this process is writing.
  const writing = new Set<string>();
  return {
    async run(game: GameRow, body: ImportBody): Promise<ImportResult> {
      if (writing.has(game.owner_id)) throw E.ownImportUnderWay();
      if (writing.size >= IMPORTS_AT_ONCE) throw E.busy();
      writing.add(game.owner_id);
      try {
        return await write(game, body);
      } finally {
        writing.delete(game.owner_id);
      }
    },
  };

  async function write(game: GameRow, body: ImportBody): Promise<ImportResult> {
    const now = clock.now();
    const boards = mergeBoards(body.leaderboards ?? []);
    const [missing] = await leaderboards.missingBoards(game.id, [...boards.keys()]);
    if (missing !== undefined) {
      throw E.unknownBoard(
        missing,
        (body.leaderboards ?? []).findIndex((b) => b.name === missing),
      );
    }
    const accounts: ImportedAccount[] = [];
    const docs = new Map<string, Doc>();
    (body.players ?? []).forEach((row, i) => {
      const name = either<string>(row, 'pn', 'player_name')!;
      if (name === GAME_STATE_PLAYER) throw E.reservedName(name, `players.${i}.${'pn' in row ? 'pn' : 'player_name'}`);
      const seconds = either<number | null>(row, 'co', 'created_at');
      accounts.push({
        username: name,
        email: either<string | null>(row, 'em', 'email') || null,
        enabled: either<boolean>(row, 'en', 'enabled') ?? true,
        createdAt: seconds == null ? now : Math.round(seconds * 1000),
      });
      const data = either<Doc | null>(row, 'pd', 'player_data');
      if (data) docs.set(name, data);
    });
    // The player data section comes after the players' own `pd`, and wins over it.
    for (const [name, data] of playerDataEntries(body.player_data)) {
      if (data) docs.set(name, data);
    }

    let imported = 0;
    let skipped = 0;
    for (const [name, rows] of boards) {
      const counts = await leaderboards.importScores(
        game.id,
        name,
        rows.map((r) => toScore(r, now)),
      );
      imported += counts.imported;
      skipped += counts.skipped;
    }
    const made = accounts.length > 0 ? await players.importAccounts(game, accounts) : { created: [], skipped: 0 };
    const written = await playerData.importDocs(
      game.id,
      [...docs].map(([player, data]) => ({ player, data })),
    );
    return {
      scores: { imported, skipped },
      players: {
        imported: made.created.length,
        skipped: made.skipped,
        without_email: made.created.filter((u) => !u.email).length,
      },
      player_data: { imported: written },
    };
  }
}

export type Importer = ReturnType<typeof createImport>;

/** A board named twice in one file gets the scores of both. */
function mergeBoards(boards: NonNullable<ImportBody['leaderboards']>): Map<string, ImportedScoreRow[]> {
  const merged = new Map<string, ImportedScoreRow[]>();
  for (const b of boards) merged.set(b.name, [...(merged.get(b.name) ?? []), ...b.scores]);
  return merged;
}

/** A score row in either key set as the leaderboards import takes it; short keys are the Godot 4 plugin's, long ones Godot 3's. */
function toScore(row: ImportedScoreRow, now: number): ImportedScore {
  const short = ['sid', 'pn', 's', 't', 'md'].some((k) => k in row);
  const metadata = either<Metadata | null>(row, 'md', 'metadata');
  const timestamp = either<number | null>(row, 't', 'timestamp');
  const given = either(row, 'sid', 'score_id');
  const id = usableScoreId(given);
  const player_name = either<string>(row, 'pn', 'player_name')!;
  const score = either<number>(row, 's', 'score')!;
  return {
    id,
    // Without a usable id, what the row holds as sent: the import knows it again by that.
    ...(id === null && {
      row: JSON.stringify([given ?? null, player_name, score, timestamp ?? null, metadata ?? null]),
    }),
    player_name,
    score,
    timestamp: timestamp == null ? now : Math.round(timestamp),
    metadata: metadata ? JSON.stringify(metadata) : null,
    engine: short ? 4 : 3,
  };
}

/** The player data section, whichever shape it came in (the contract checked it), with names as players' are stored. */
function playerDataEntries(section: unknown): Array<[string, Doc | null]> {
  if (section == null) return [];
  const raw: Array<[string, Doc | null | undefined]> = Array.isArray(section)
    ? (section as ImportedPlayerDataEntry[]).map((e) => [
        either<string>(e, 'pn', 'player_name')!,
        either<Doc | null>(e, 'pd', 'player_data'),
      ])
    : Object.entries(section as Record<string, Doc | null>);
  return raw.map(([name, data]) => [playerName.parse(name), data ?? null]);
}
