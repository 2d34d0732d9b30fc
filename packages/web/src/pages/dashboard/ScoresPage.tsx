import type { LeaderboardWithStats as Board, ScoreEntry as Score } from '@howl/contract';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { useWipeLeaderboard } from '../../api/leaderboards/mutations.js';
import { useLeaderboards } from '../../api/leaderboards/queries.js';
import { useDeleteScore } from '../../api/scores/mutations.js';
import { useScores } from '../../api/scores/queries.js';
import { Modal } from '../../components/Modal.js';
import { Button, Notice, Spinner } from '../../components/ui.js';
import { WithGame } from '../../layouts/DashboardLayout.js';
import { engineText, metadataRows, periodLabel, resetText, SAVE_MODE_LABELS } from './score-format.js';

export function ScoresPage() {
  return (
    <WithGame signedOutMessage="Please sign in to see your scores.">
      {(game) => <Boards gameId={game.game_id} />}
    </WithGame>
  );
}

function Boards({ gameId }: { gameId: string }) {
  const boards = useLeaderboards(gameId);
  return (
    <div className="space-y-6">
      <h1>Scores</h1>
      {boards.isPending ? (
        <Spinner label="Loading leaderboards…" />
      ) : boards.error ? (
        <Notice tone="error">{boards.error.message}</Notice>
      ) : (
        <div className="space-y-3">
          {boards.data.map((b) => (
            <BoardRow key={b.name} gameId={gameId} board={b} />
          ))}
        </div>
      )}
    </div>
  );
}

/** A collapsible leaderboard: its settings in the header; its scores load when opened. */
function BoardRow({ gameId, board }: { gameId: string; board: Board }) {
  const [open, setOpen] = useState(false);
  const [offset, setOffset] = useState(0);
  const [wiping, setWiping] = useState(false);
  const wipe = useWipeLeaderboard(gameId, board.name);
  const Chevron = open ? ChevronDown : ChevronRight;
  const cells: [string, string][] = [
    ['Display name', board.display_name],
    ['Save scores', SAVE_MODE_LABELS[board.insert_option]],
    ['Godot version', engineText(board.engine)],
    ['Resets', resetText(board.time_based)],
    ['Timezone', board.timezone ?? '-'],
  ];
  return (
    <section className="overflow-hidden rounded-xl bg-white ring-1 ring-slate-200">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-start gap-3 p-4 text-left hover:bg-slate-50"
      >
        <Chevron aria-hidden className="mt-1 size-4 shrink-0 text-slate-500" />
        <dl className="grid flex-1 grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-5">
          {cells.map(([label, value]) => (
            <div key={label} className="min-w-0">
              <dt className="text-xs tracking-wide text-slate-500 uppercase">{label}</dt>
              <dd className="truncate text-sm font-medium text-ink">{value}</dd>
            </div>
          ))}
        </dl>
      </button>
      {open && (
        <div className="space-y-4 border-t border-slate-100 p-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            {board.time_based !== 'na' ? (
              <label className="flex items-center gap-2 text-sm text-slate-700">
                Period
                <select
                  value={offset}
                  onChange={(e) => setOffset(Number(e.target.value))}
                  className="rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
                >
                  {[0, -1, -2, -3, -4, -5].map((o) => (
                    <option key={o} value={o}>
                      {periodLabel(o)}
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <span />
            )}
            <Button variant="secondary" onClick={() => setWiping(true)}>
              Wipe leaderboard
            </Button>
          </div>
          <ScoreTable gameId={gameId} board={board} offset={offset} />
        </div>
      )}
      <Modal open={wiping} onOpenChange={setWiping} title={`Wipe ${board.display_name}?`}>
        <p className="mb-4 text-slate-700">
          Every score of this leaderboard, in every period, is deleted. There is no way back.
        </p>
        {wipe.error && <Notice tone="error">{wipe.error.message}</Notice>}
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setWiping(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            busy={wipe.isPending}
            onClick={() => wipe.mutate(undefined, { onSuccess: () => setWiping(false) })}
          >
            Wipe leaderboard
          </Button>
        </div>
      </Modal>
    </section>
  );
}

function ScoreTable({ gameId, board, offset }: { gameId: string; board: Board; offset: number }) {
  const scores = useScores(gameId, board.name, offset);
  const [metadataOf, setMetadataOf] = useState<Score>();
  const [deleting, setDeleting] = useState<Score>();
  const remove = useDeleteScore(gameId, board.name);
  if (scores.isPending) return <Spinner label="Loading scores…" />;
  if (scores.error) return <Notice tone="error">{scores.error.message}</Notice>;
  const rows = scores.data.pages.flatMap((p) => p.scores);
  if (rows.length === 0) return <p className="py-4 text-center text-slate-500">No scores for this leaderboard</p>;
  return (
    <>
      <div className="overflow-x-auto">
        <table className="min-w-full text-left text-sm">
          <thead className="text-xs tracking-wide text-slate-500 uppercase">
            <tr>
              {['Player name', 'Score', 'Saved on', 'Metadata', 'Actions'].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((s) => (
              <tr key={s.score_id}>
                <td className="px-3 py-2 font-medium whitespace-nowrap text-ink">{s.player_name}</td>
                <td className="px-3 py-2 font-mono whitespace-nowrap">{s.score}</td>
                <td className="px-3 py-2 whitespace-nowrap">{new Date(s.timestamp).toUTCString()}</td>
                <td className="px-3 py-2 whitespace-nowrap">
                  <button
                    type="button"
                    onClick={() => setMetadataOf(s)}
                    className="text-xs font-semibold text-brand-600 underline underline-offset-2"
                    aria-label={`Metadata of the score of ${s.player_name}`}
                  >
                    {s.metadata ? 'View' : '-'}
                  </button>
                </td>
                <td className="px-3 py-2 whitespace-nowrap">
                  <button
                    type="button"
                    onClick={() => setDeleting(s)}
                    className="rounded-md px-2 py-1 text-xs font-semibold text-red-700 hover:bg-red-50"
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {scores.hasNextPage && (
        <Button variant="secondary" busy={scores.isFetchingNextPage} onClick={() => void scores.fetchNextPage()}>
          Load more scores
        </Button>
      )}
      {metadataOf && (
        <Modal open onOpenChange={(o) => !o && setMetadataOf(undefined)} title="Score metadata">
          {metadataRows(metadataOf.metadata).length === 0 ? (
            <p className="text-slate-600">No metadata for this score</p>
          ) : (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              {metadataRows(metadataOf.metadata).map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="font-medium text-slate-600">{k}</dt>
                  <dd className="font-mono">{v}</dd>
                </div>
              ))}
            </dl>
          )}
        </Modal>
      )}
      {deleting && (
        <Modal open onOpenChange={(o) => !o && setDeleting(undefined)} title="Delete this score?">
          <dl className="mb-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-500">Score id</dt>
            <dd className="font-mono break-all">{deleting.score_id}</dd>
            <dt className="text-slate-500">Player name</dt>
            <dd>{deleting.player_name}</dd>
            <dt className="text-slate-500">Score</dt>
            <dd className="font-mono">{deleting.score}</dd>
          </dl>
          {remove.error && <Notice tone="error">{remove.error.message}</Notice>}
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setDeleting(undefined)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              busy={remove.isPending}
              onClick={() => remove.mutate(deleting, { onSuccess: () => setDeleting(undefined) })}
            >
              Delete
            </Button>
          </div>
        </Modal>
      )}
    </>
  );
}
