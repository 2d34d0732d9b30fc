import { okResponse, playerEnabledResponse, type PlayersPage } from '@howl/contract';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { request, requestFile } from '../client.js';
import { playerKeys } from './keys.js';

export type Player = PlayersPage['players'][number];
export type PlayerAction = 'password' | 'disable' | 'enable' | 'delete';

/**
 * One row action on a player. On success the loaded pages change at once (no reload of the list):
 * a deleted player leaves them, a disabled or enabled one shows its new state.
 *
 * @example run.mutate({ action: 'password', password: 'Fresh-Pass9' })
 */
export function usePlayerAction(gameId: string, player: Player) {
  const client = useQueryClient();
  const path = `/api/games/${gameId}/players/${encodeURIComponent(player.player_name)}`;
  return useMutation({
    mutationFn: async (run: { action: PlayerAction; password?: string }) => {
      if (run.action === 'password') {
        await request(okResponse, 'PUT', `${path}/password`, { password: run.password });
        return player;
      }
      if (run.action === 'delete') {
        await request(okResponse, 'DELETE', path);
        return undefined;
      }
      const { enabled } = await request(playerEnabledResponse, 'POST', `${path}/${run.action}`);
      return { ...player, enabled };
    },
    onSuccess: (changed) =>
      client.setQueryData<InfiniteData<PlayersPage>>(playerKeys.list(gameId), (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                players: changed
                  ? page.players.map((p) => (p.player_name === player.player_name ? changed : p))
                  : page.players.filter((p) => p.player_name !== player.player_name),
              })),
            }
          : data,
      ),
  });
}

/** Fetches every player's data as one file (playerdata.json), for a download link. */
export function useExportPlayerData(gameId: string) {
  return useMutation({ mutationFn: () => requestFile(`/api/games/${gameId}/player-data/export`) });
}
