import { useState } from 'react';
import { useDeleteLeaderboard } from '../../api/leaderboards/mutations.js';
import { Modal } from '../Modal.js';
import { Button, Notice } from '../ui.js';

/** "Delete leaderboard" and its confirmation: the board and all its scores go, and game clients can no longer save to it. */
export function DeleteLeaderboard({
  gameId,
  name,
  onDeleted,
}: {
  gameId: string;
  name: string;
  onDeleted: () => void;
}) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteLeaderboard(gameId);
  return (
    <>
      <Button type="button" variant="secondary" onClick={() => setOpen(true)}>
        Delete leaderboard
      </Button>
      <Modal
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) remove.reset();
        }}
        title={`Delete ${name}?`}
      >
        <p className="mb-4 text-slate-700">
          The leaderboard and every score in it, in every period, are deleted. Game clients that still save to{' '}
          <code className="font-mono">{name}</code> get LeaderboardNotFound. There is no way back.
        </p>
        {remove.error && <Notice tone="error">{remove.error.message}</Notice>}
        <div className="mt-4 flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            type="button"
            variant="danger"
            busy={remove.isPending}
            onClick={() =>
              remove.mutate(name, {
                onSuccess: () => {
                  setOpen(false);
                  onDeleted();
                },
              })
            }
          >
            Delete leaderboard
          </Button>
        </div>
      </Modal>
    </>
  );
}
