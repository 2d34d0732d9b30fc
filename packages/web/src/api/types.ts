/** Answer of POST /api/games. */
export interface CreateGameResponseBody {
  game_id: string;
  api_key: string;
}
