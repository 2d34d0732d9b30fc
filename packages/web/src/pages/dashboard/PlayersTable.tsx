import type { Player, PlayerAction } from '../../api/players/mutations.js';
import { truncate } from '../../lib/text.js';
import { createdOn, dataSummary, statusText } from './player-format.js';

const COLUMNS = ['Player name', 'Email address', 'Status', 'Created on', 'Player data', 'Actions'] as const;

// Below xl each row is a card: the head is hidden and each cell names its column (data-label), beside
// its value, or above it on phones.
const CELL =
  'px-2.5 py-1 xl:py-3 max-xl:flex max-xl:items-baseline max-xl:gap-x-3 max-sm:flex-col max-sm:gap-y-0.5 max-xl:before:w-28 max-xl:before:shrink-0 max-xl:before:text-xs max-xl:before:font-semibold max-xl:before:tracking-wide max-xl:before:text-slate-500 max-xl:before:uppercase max-xl:before:content-[attr(data-label)]';

/**
 * The players as a table on wide screens and a card per player below 1280 px, so every column and
 * the actions stay visible at any width.
 */
export function PlayersTable({
  rows,
  emailConfirmation,
  onShowData,
  onAction,
}: {
  rows: Player[];
  emailConfirmation: boolean;
  onShowData: (player: Player) => void;
  onAction: (player: Player, action: PlayerAction) => void;
}) {
  return (
    <div className="rounded-xl bg-white ring-1 ring-slate-200">
      <table className="w-full text-left text-sm max-xl:block">
        <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase max-xl:hidden">
          <tr>
            {COLUMNS.map((h) => (
              <th
                key={h}
                scope="col"
                className="px-2.5 py-3 font-semibold whitespace-nowrap first:rounded-tl-xl last:rounded-tr-xl"
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 max-xl:block">
          {rows.map((p) => (
            <tr
              key={p.player_name}
              className="align-top max-xl:block max-xl:py-3 max-sm:grid max-sm:grid-cols-2 max-sm:gap-y-2"
            >
              <td
                data-label={COLUMNS[0]}
                className={`${CELL} font-medium whitespace-nowrap text-ink max-sm:col-span-2`}
                title={p.player_name}
              >
                {truncate(p.player_name, 22)}
              </td>
              <td
                data-label={COLUMNS[1]}
                className={`${CELL} whitespace-nowrap max-sm:col-span-2`}
                title={p.email ?? undefined}
              >
                {p.email ? truncate(p.email, 26) : '-'}
              </td>
              <td data-label={COLUMNS[2]} className={CELL}>
                {statusText(p, emailConfirmation)}
              </td>
              <td data-label={COLUMNS[3]} className={CELL}>
                {createdOn(p.created_at)}
              </td>
              <td data-label={COLUMNS[4]} className={`${CELL} whitespace-nowrap`}>
                <button
                  type="button"
                  onClick={() => onShowData(p)}
                  className="font-mono text-xs text-brand-600 underline underline-offset-2 hover:text-brand-700"
                  aria-label={`Player data of ${p.player_name}`}
                >
                  {dataSummary(p.player_data)}
                </button>
              </td>
              <td data-label={COLUMNS[5]} className={`${CELL} max-sm:col-span-2`}>
                <RowActions player={p} onAction={(action) => onAction(p, action)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The spec's actions for accounts (players with a creation time); a name with data but no account
 * can only have its data deleted.
 */
function RowActions({ player, onAction }: { player: Player; onAction: (action: PlayerAction) => void }) {
  const link = 'rounded-md px-2 py-1 text-xs font-semibold whitespace-nowrap hover:bg-slate-100';
  if (player.created_at === null) {
    return (
      <button type="button" className={`${link} text-red-700`} onClick={() => onAction('delete')}>
        Delete data
      </button>
    );
  }
  return (
    <div className="flex flex-wrap gap-1">
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
