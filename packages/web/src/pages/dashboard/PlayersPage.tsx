import { Download } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { usePlayerAuthSettings } from '../../api/player-auth/queries.js';
import { useExportPlayerData, type Player, type PlayerAction } from '../../api/players/mutations.js';
import { usePlayers } from '../../api/players/queries.js';
import { Modal } from '../../components/Modal.js';
import { Button, LoadFailed, Notice, Spinner } from '../../components/ui.js';
import { WithGame } from '../../layouts/DashboardLayout.js';
import { PlayerActionModal } from './PlayerActions.js';
import { PlayersTable } from './PlayersTable.js';

export function PlayersPage() {
  return (
    <WithGame signedOutMessage="Please sign in before changing a user's password.">
      {(game) => <Players gameId={game.game_id} />}
    </WithGame>
  );
}

function Players({ gameId }: { gameId: string }) {
  const players = usePlayers(gameId);
  const settings = usePlayerAuthSettings(gameId);
  const [dataOf, setDataOf] = useState<Player>();
  const [acting, setActing] = useState<{ player: Player; action: PlayerAction }>();
  const rows = players.data?.pages.flatMap((p) => p.players) ?? [];
  const emailConfirmation = settings.data
    ? settings.data.reg_type === 'email_un_pwd' && settings.data.email_confirmation
    : false;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1>Players:</h1>
        <ExportButton gameId={gameId} />
      </div>
      {players.isPending ? (
        <Spinner label="Loading players…" />
      ) : rows.length === 0 && players.error ? (
        <LoadFailed error={players.error} onRetry={() => void players.refetch()} />
      ) : rows.length === 0 ? (
        <NoPlayers authEnabled={settings.data?.enabled} />
      ) : (
        <PlayersTable
          rows={rows}
          emailConfirmation={emailConfirmation}
          onShowData={setDataOf}
          onAction={(player, action) => setActing({ player, action })}
        />
      )}
      {/* A next page that failed: the players already loaded stay on screen. */}
      {rows.length > 0 && players.error && (
        <LoadFailed
          error={players.error}
          onRetry={() => void (players.isFetchNextPageError ? players.fetchNextPage() : players.refetch())}
        />
      )}
      {players.hasNextPage && (
        <Button variant="secondary" busy={players.isFetchingNextPage} onClick={() => void players.fetchNextPage()}>
          Load more players
        </Button>
      )}
      {dataOf && (
        <Modal open onOpenChange={(open) => !open && setDataOf(undefined)} title={`Player data: ${dataOf.player_name}`}>
          {dataOf.player_data === null ? (
            <p className="text-slate-600">No player data for this player</p>
          ) : (
            <pre className="max-h-96 overflow-auto rounded-lg bg-slate-900 p-4 font-mono text-xs text-slate-100">
              {JSON.stringify(dataOf.player_data, null, 2)}
            </pre>
          )}
        </Modal>
      )}
      {acting && (
        <PlayerActionModal
          gameId={gameId}
          player={acting.player}
          action={acting.action}
          onClose={() => setActing(undefined)}
        />
      )}
    </div>
  );
}

/** The spec's empty text, with why the list may be empty and where the setting is. */
function NoPlayers({ authEnabled }: { authEnabled: boolean | undefined }) {
  return (
    <div className="rounded-xl bg-white p-8 text-center ring-1 ring-slate-200">
      <p className="text-slate-500">No players yet!</p>
      <p className="mx-auto mt-3 max-w-xl text-sm text-slate-600">
        {authEnabled === false
          ? 'Player authentication is off for this game, so no player can register. Names that save player data are listed here too.'
          : 'No player has registered and no name has saved player data yet.'}
      </p>
      <Link
        to="/playerauth#authSettings"
        className="mt-3 inline-block text-sm font-semibold text-brand-600 underline underline-offset-2 hover:text-brand-700"
      >
        Player authentication settings
      </Link>
    </div>
  );
}

/** Fetches every player's data, then offers it as playerdata.json. */
function ExportButton({ gameId }: { gameId: string }) {
  const [file, setFile] = useState<string>();
  const exported = useExportPlayerData(gameId);
  const fetchAll = () => exported.mutate(undefined, { onSuccess: (blob) => setFile(URL.createObjectURL(blob)) });
  return (
    <div className="flex items-center gap-2">
      {file ? (
        <a
          href={file}
          download="playerdata.json"
          className="inline-flex items-center gap-2 rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          <Download aria-hidden className="size-4" /> Download player data as JSON
        </a>
      ) : (
        <Button variant="secondary" busy={exported.isPending} onClick={fetchAll}>
          Fetch all player data for game (experimental)
        </Button>
      )}
      {exported.error && <Notice tone="error">{exported.error.message}</Notice>}
    </div>
  );
}
