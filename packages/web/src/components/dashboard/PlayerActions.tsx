import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client.js';
import { playersKey } from '../../api/dashboard.js';
import type { Player, PlayersPage } from '../../api/dashboard-types.js';
import { Modal } from '../Modal.js';
import { Button, Field, Notice } from '../ui.js';

export type PlayerAction = 'password' | 'disable' | 'enable' | 'delete';

const TITLES: Record<PlayerAction, string> = {
  password: 'Change password',
  disable: 'Disable player',
  enable: 'Enable player',
  delete: 'Delete player',
};

/**
 * One row action in a modal: the server's error text stays inside it; on success it closes and the
 * row changes at once (no reload of the list).
 */
export function PlayerActionModal({
  gameId,
  player,
  action,
  onClose,
}: {
  gameId: string;
  player: Player;
  action: PlayerAction;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [password, setPassword] = useState('');
  const [formError, setFormError] = useState<string>();
  const path = `/api/games/${gameId}/players/${encodeURIComponent(player.player_name)}`;
  const run = useMutation({
    mutationFn: async () => {
      if (action === 'password') await api('PUT', `${path}/password`, { password });
      else if (action === 'delete') await api('DELETE', path);
      else await api('POST', `${path}/${action}`);
    },
    onSuccess: () => {
      client.setQueryData<InfiniteData<PlayersPage>>(playersKey(gameId), (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                players:
                  action === 'delete'
                    ? page.players.filter((p) => p.player_name !== player.player_name)
                    : page.players.map((p) =>
                        p.player_name === player.player_name && action !== 'password'
                          ? { ...p, enabled: action === 'enable' }
                          : p,
                      ),
              })),
            }
          : data,
      );
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    if (action === 'password' && password === '') {
      setFormError('Please enter a new password for this player.');
      return;
    }
    run.mutate();
  };
  const question = {
    password: undefined,
    disable: `Disable ${player.player_name}? Their sessions end at once and they cannot log in until enabled again.`,
    enable: `Enable ${player.player_name}? They can log in again.`,
    delete: `Delete ${player.player_name}? The account and its player data are removed; the player's scores stay.`,
  }[action];
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={TITLES[action]}>
      <form onSubmit={submit} className="space-y-4">
        {action === 'password' ? (
          <Field
            label={`New password for ${player.player_name}`}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={formError}
            hint="At least 8 characters with upper case, lower case, a number and a symbol. The player's sessions end."
          />
        ) : (
          <p className="text-slate-700">{question}</p>
        )}
        {run.error && <Notice tone="error">{run.error.message}</Notice>}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant={action === 'delete' || action === 'disable' ? 'danger' : 'primary'}
            busy={run.isPending}
          >
            {TITLES[action]}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
