import { useState, type FormEvent } from 'react';
import { usePlayerAction, type Player, type PlayerAction } from '../../api/players/mutations.js';
import { Modal } from '../../components/Modal.js';
import { Button, Field, Notice } from '../../components/ui.js';

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
  const [password, setPassword] = useState('');
  const [formError, setFormError] = useState<string>();
  const run = usePlayerAction(gameId, player);
  // A name with data but no account: deleting it deletes only its data (docs/player-data.md).
  const dataOnly = player.id === null;
  const title = dataOnly && action === 'delete' ? 'Delete player data' : TITLES[action];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    // Spec §5 fixes this client-side rule (not empty); the contract leaves the policy to the server.
    if (action === 'password' && password === '') {
      setFormError('Please enter a new password for this player.');
      return;
    }
    run.mutate({ action, password }, { onSuccess: onClose });
  };
  const question = {
    password: undefined,
    disable: `Disable ${player.player_name}? Their sessions end at once and they cannot log in until enabled again.`,
    enable: `Enable ${player.player_name}? They can log in again.`,
    delete: dataOnly
      ? `Delete the player data of ${player.player_name}? The name has no account; its data and its characters' data are removed, its scores stay.`
      : `Delete ${player.player_name}? The account and its player data are removed; the player's scores stay.`,
  }[action];
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={title}>
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
            {title}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
