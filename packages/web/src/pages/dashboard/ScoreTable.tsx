import type { LeaderboardWithStats as Board, ScoreEntry as Score } from '@howl/contract';
import { useState, type ReactNode } from 'react';
import { useDeleteScore } from '../../api/scores/mutations.js';
import { useScores } from '../../api/scores/queries.js';
import { Modal } from '../../components/Modal.js';
import { Button, LoadFailed, Notice, Spinner } from '../../components/ui.js';
import { metadataRows } from './score-format.js';

const HEADINGS = ['Position', 'Player name', 'Score', 'Saved on', 'Metadata', 'Actions'] as const;
type Heading = (typeof HEADINGS)[number];

// Wide enough (by the panel's own width): a table. Narrower: one card per score, two values a line,
// each under its heading (the cell's data-label), the actions always on screen.
const CELL =
  'flex min-w-0 flex-col @2xl:table-cell @2xl:px-3 @2xl:py-2 before:text-xs before:font-semibold before:tracking-wide before:text-slate-500 before:uppercase before:content-[attr(data-label)] @2xl:before:content-none';

function Cell({ label, className = '', children }: { label: Heading; className?: string; children: ReactNode }) {
  return (
    <td data-label={label} className={`${CELL} ${className}`}>
      {children}
    </td>
  );
}

/** One period of a board: its scores best first, with their positions, metadata and a delete action. */
export function ScoreTable({ gameId, board, offset }: { gameId: string; board: Board; offset: number }) {
  const scores = useScores(gameId, board.name, offset);
  const [metadataOf, setMetadataOf] = useState<Score>();
  const [deleting, setDeleting] = useState<Score>();
  const remove = useDeleteScore(gameId, board.name);
  if (scores.isPending) return <Spinner label="Loading scores…" />;
  const rows = scores.data?.pages.flatMap((p) => p.scores) ?? [];
  if (rows.length === 0 && scores.error) {
    return <LoadFailed error={scores.error} onRetry={() => void scores.refetch()} />;
  }
  if (rows.length === 0) return <p className="py-4 text-center text-slate-500">No scores for this leaderboard</p>;
  return (
    <>
      <div className="@container">
        <table className="block w-full text-left text-sm @2xl:table">
          <thead className="hidden text-xs tracking-wide text-slate-500 uppercase @2xl:table-header-group">
            <tr>
              {HEADINGS.map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="block divide-y divide-slate-100 @2xl:table-row-group">
            {rows.map((s) => (
              <tr key={s.score_id} className="grid grid-cols-2 gap-x-4 gap-y-2 py-3 @2xl:table-row @2xl:py-0">
                <Cell label="Position" className="font-mono @2xl:w-0">
                  {s.position}
                </Cell>
                <Cell label="Player name" className="min-w-0 font-medium [overflow-wrap:anywhere] text-ink">
                  {s.player_name}
                </Cell>
                <Cell label="Score" className="font-mono [overflow-wrap:anywhere]">
                  {s.score}
                </Cell>
                <Cell label="Saved on" className="@2xl:whitespace-nowrap">
                  {new Date(s.timestamp).toUTCString()}
                </Cell>
                <Cell label="Metadata" className="@2xl:whitespace-nowrap">
                  {s.metadata ? (
                    <button
                      type="button"
                      onClick={() => setMetadataOf(s)}
                      className="self-start text-xs font-semibold text-brand-600 underline underline-offset-2"
                      aria-label={`Metadata of the score of ${s.player_name}`}
                    >
                      View
                    </button>
                  ) : (
                    // Nothing to open: plain text, not a link-looking button.
                    <span className="text-slate-500">None</span>
                  )}
                </Cell>
                <Cell label="Actions" className="@2xl:whitespace-nowrap">
                  <button
                    type="button"
                    onClick={() => setDeleting(s)}
                    className="-mx-2 -my-1 self-start rounded-md px-2 py-1 text-xs font-semibold text-red-700 hover:bg-red-50"
                  >
                    Delete
                  </button>
                </Cell>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* A next page that failed: the scores already loaded stay on screen. */}
      {scores.error && (
        <LoadFailed
          error={scores.error}
          onRetry={() => void (scores.isFetchNextPageError ? scores.fetchNextPage() : scores.refetch())}
        />
      )}
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
