import { Download } from 'lucide-react';
import { useState } from 'react';
import { usePlayerAuthSettings } from '../../api/player-auth/queries.js';
import { useExportPlayerData, type Player, type PlayerAction } from '../../api/players/mutations.js';
import { usePlayers } from '../../api/players/queries.js';
import { truncate } from '../../lib/text.js';
import { Modal } from '../../components/Modal.js';
import { Button, Notice, Spinner } from '../../components/ui.js';
import { WithGame } from '../../layouts/DashboardLayout.js';
import { PlayerActionModal } from './PlayerActions.js';
import { createdOn, dataSummary, statusText } from './player-format.js';

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
      ) : players.error ? (
        <Notice tone="error">{players.error.message}</Notice>
      ) : rows.length === 0 ? (
        <p className="rounded-xl bg-white p-8 text-center text-slate-500 ring-1 ring-slate-200">No players yet!</p>
      ) : (
        <div className="overflow-x-auto rounded-xl bg-white ring-1 ring-slate-200">
          <table className="min-w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase">
              <tr>
                {['Player name', 'Email address', 'Status', 'Created on', 'Player data', 'Actions'].map((h) => (
                  <th key={h} scope="col" className="px-4 py-3 font-semibold whitespace-nowrap">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((p) => (
                <tr key={p.player_name}>
                  <td className="px-4 py-3 font-medium whitespace-nowrap text-ink" title={p.player_name}>
                    {truncate(p.player_name, 22)}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap" title={p.email ?? undefined}>
                    {p.email ? truncate(p.email, 26) : '-'}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{statusText(p, emailConfirmation)}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{createdOn(p.created_at)}</td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <button
                      type="button"
                      onClick={() => setDataOf(p)}
                      className="font-mono text-xs text-brand-600 underline underline-offset-2 hover:text-brand-700"
                      aria-label={`Player data of ${p.player_name}`}
                    >
                      {dataSummary(p.player_data)}
                    </button>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    {p.created_at !== null && (
                      <RowActions player={p} onAction={(action) => setActing({ player: p, action })} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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

function RowActions({ player, onAction }: { player: Player; onAction: (action: PlayerAction) => void }) {
  const link = 'rounded-md px-2 py-1 text-xs font-semibold hover:bg-slate-100';
  return (
    <div className="flex gap-1">
      <button type="button" className={`${link} text-slate-700`} onClick={() => onAction('password')}>
        Change password
      </button>
      {player.enabled ? (
        <button type="button" className={`${link} text-amber-700`} onClick={() => onAction('disable')}>
          Disable
        </button>
      ) : (
        player.state && (
          <button type="button" className={`${link} text-emerald-700`} onClick={() => onAction('enable')}>
            Enable
          </button>
        )
      )}
      <button type="button" className={`${link} text-red-700`} onClick={() => onAction('delete')}>
        Delete
      </button>
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
