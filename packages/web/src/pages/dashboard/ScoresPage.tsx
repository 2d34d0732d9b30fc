import type { LeaderboardWithStats as Board } from '@howl/contract';
import { ChevronDown, ChevronRight, Plus, Settings2 } from 'lucide-react';
import { useState } from 'react';
import { useWipeLeaderboard } from '../../api/leaderboards/mutations.js';
import { useLeaderboards } from '../../api/leaderboards/queries.js';
import { LeaderboardEditor } from '../../components/leaderboards/LeaderboardConfig.js';
import { Modal } from '../../components/Modal.js';
import { Button, Notice, Spinner } from '../../components/ui.js';
import { WithGame } from '../../layouts/DashboardLayout.js';
import { ScoreTable } from './ScoreTable.js';
import { engineText, entriesText, orderText, periodLabel, resetText, SAVE_MODE_LABELS } from './score-format.js';

export function ScoresPage() {
  return (
    <WithGame signedOutMessage="Please sign in to see your scores.">
      {(game) => <Boards gameId={game.game_id} />}
    </WithGame>
  );
}

function Boards({ gameId }: { gameId: string }) {
  const boards = useLeaderboards(gameId);
  const [adding, setAdding] = useState(false);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1>Scores</h1>
        {!adding && (
          <Button variant="secondary" onClick={() => setAdding(true)}>
            <Plus aria-hidden className="size-4" /> Add leaderboard
          </Button>
        )}
      </div>
      {adding && (
        <LeaderboardEditor gameId={gameId} onClose={() => setAdding(false)} onDeleted={() => setAdding(false)} />
      )}
      {boards.isPending ? (
        <Spinner label="Loading leaderboards…" />
      ) : boards.error ? (
        <Notice tone="error">{boards.error.message}</Notice>
      ) : boards.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white px-4 py-6 text-center text-sm text-slate-500">
          No leaderboards yet. Add one to configure it.
        </p>
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

/** A collapsible leaderboard: its settings in the header; its scores load when opened; Configure edits it. */
function BoardRow({ gameId, board }: { gameId: string; board: Board }) {
  const [open, setOpen] = useState(false);
  const [configuring, setConfiguring] = useState(false);
  const [offset, setOffset] = useState(0);
  // A board whose reset period changes is looked at in its current period again: the one looked at
  // may be gone (a board that stops resetting has no other) or a different span.
  const [periodsOf, setPeriodsOf] = useState(board.time_based);
  if (periodsOf !== board.time_based) {
    setPeriodsOf(board.time_based);
    setOffset(0);
  }
  const [wiping, setWiping] = useState(false);
  const wipe = useWipeLeaderboard(gameId, board.name);
  const Chevron = open ? ChevronDown : ChevronRight;
  const cells: [string, string][] = [
    ['Display name', board.display_name],
    ['Save scores', SAVE_MODE_LABELS[board.insert_option]],
    ['Godot version', engineText(board.engine)],
    ['Resets', resetText(board.time_based)],
    ['Timezone', board.timezone ?? '-'],
    ['Order', orderText(board.sort)],
    ['Entries', entriesText(board)],
  ];
  return (
    <section className="@container overflow-hidden rounded-xl bg-white ring-1 ring-slate-200">
      <div className="flex flex-col @2xl:flex-row @2xl:items-start">
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          className="flex min-w-0 flex-1 items-start gap-3 p-4 text-left hover:bg-slate-50"
        >
          <Chevron aria-hidden className="mt-1 size-4 shrink-0 text-slate-500" />
          <dl className="grid flex-1 grid-cols-2 gap-x-6 gap-y-2 @xl:grid-cols-4 @5xl:grid-cols-7">
            {cells.map(([label, value]) => (
              <div key={label} className="min-w-0">
                <dt className="text-xs tracking-wide text-slate-500 uppercase">{label}</dt>
                <dd className="text-sm font-medium [overflow-wrap:anywhere] text-ink">{value}</dd>
              </div>
            ))}
          </dl>
        </button>
        <div className="flex shrink-0 px-4 pb-4 @2xl:p-4">
          <Button
            variant="secondary"
            aria-label={`Configure ${board.name}`}
            onClick={() => setConfiguring((c) => !c)}
            className="w-full @2xl:w-auto"
          >
            <Settings2 aria-hidden className="size-4" /> Configure
          </Button>
        </div>
      </div>
      {configuring && (
        <div className="border-t border-slate-100 bg-slate-50 p-4">
          <LeaderboardEditor
            gameId={gameId}
            board={board}
            onClose={() => setConfiguring(false)}
            onDeleted={() => setConfiguring(false)}
          />
        </div>
      )}
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
