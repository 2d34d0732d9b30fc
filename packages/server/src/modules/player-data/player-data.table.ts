/** One JSON document per player of a game and per character; `character_name` '' is the player's own. */
export interface PlayerDataTable {
  game_id: string;
  player_name: string;
  character_name: string;
  /** Compact JSON text of an object, as stored and as sent back. */
  data: string;
  /** 1 on the first write, +1 on each change; 0 is "no document". */
  version: number;
  updated_at: number;
}
