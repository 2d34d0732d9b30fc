import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDeleteGame } from '../../api/games/mutations.js';
import { CopyButton } from '../../components/CopyButton.js';
import { Modal } from '../../components/Modal.js';
import { Button, Card, Notice } from '../../components/ui.js';
import { WithGame } from '../../layouts/DashboardLayout.js';

/** Game ID, game name, and deleting the game behind a confirmation. */
export function GamePage() {
  return (
    <WithGame signedOutMessage="You must be logged in to delete a game.">
      {(game) => <GameDetails game={game} />}
    </WithGame>
  );
}

function GameDetails({ game }: { game: { game_id: string; name: string } }) {
  const [confirming, setConfirming] = useState(false);
  const navigate = useNavigate();
  const remove = useDeleteGame(game.game_id);
  // The promise, not mutate's callbacks: the page unmounts as the session loses its current game.
  const confirm = () =>
    remove.mutateAsync().then(
      () => {
        setConfirming(false);
        void navigate('/');
      },
      () => {}, // shown from remove.error
    );
  return (
    <div className="max-w-2xl space-y-6">
      <h1>Game</h1>
      <Card>
        <dl className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <dt className="text-sm font-medium text-slate-500">Game ID</dt>
          <dd className="flex items-center gap-2 font-mono text-sm">
            {game.game_id} <CopyButton text={game.game_id} />
          </dd>
          <dt className="text-sm font-medium text-slate-500">Game name</dt>
          <dd className="text-sm break-words">{game.name}</dd>
        </dl>
      </Card>
      <Button variant="danger" onClick={() => setConfirming(true)}>
        Delete this game
      </Button>
      <Modal open={confirming} onOpenChange={setConfirming} title={`Delete ${game.name}?`}>
        <p className="mb-4 text-slate-700">
          All data of this game is lost: its leaderboards and scores, its players and their data, and its API key. There
          is no way back.
        </p>
        {remove.error && <Notice tone="error">{remove.error.message}</Notice>}
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="danger" busy={remove.isPending} onClick={confirm}>
            Delete
          </Button>
        </div>
      </Modal>
    </div>
  );
}
