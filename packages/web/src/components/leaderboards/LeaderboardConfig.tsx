import {
  insertOptions,
  leaderboardName,
  maxEntriesOptions,
  resetPeriods,
  type InsertOption,
  type Leaderboard,
  type ResetPeriod,
  type SortOrder,
} from '@howl/contract';
import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode, type SelectHTMLAttributes } from 'react';
import { useSaveLeaderboard } from '../../api/leaderboards/mutations.js';
import { useLeaderboards } from '../../api/leaderboards/queries.js';
import { browserTimeZone, timeZones } from '../../lib/timezones.js';
import { Button, Field, Notice, Spinner } from '../ui.js';
import { Modal } from '../Modal.js';
import { DeleteLeaderboard } from './DeleteLeaderboard.js';
import { removedBy, type SizeAndMode } from './removals.js';

type MaxEntries = (typeof maxEntriesOptions)[number];

const SAVE_MODES: Record<InsertOption, string> = {
  keep: 'keep (All)',
  highest: 'highest',
  latest: 'latest',
  accumulator: 'accumulator',
};
const RESETS: Record<ResetPeriod, string> = {
  na: 'none',
  hourly: 'hourly',
  daily: 'daily',
  weekly: 'weekly',
  monthly: 'monthly',
  yearly: 'yearly',
};
const SORT_ORDERS: Record<SortOrder, string> = {
  desc: 'Higher is better',
  asc: 'Lower is better (times)',
};

export { browserTimeZone };

/** One row of the form: a saved board, or a new one (isNew) whose name can still be edited. */
export interface ConfigRow {
  key: string;
  isNew: boolean;
  name: string;
  display_name: string;
  insert_option: InsertOption;
  time_based: ResetPeriod;
  timezone: string | null;
  max_entries: MaxEntries | null;
  sort: SortOrder;
  /**
   * A saved board's settings as stored: a change of periods leaves its scores in the periods they
   * were saved in; a change of save mode or size can delete entries (removals.ts).
   */
  stored?: { time_based: ResetPeriod; timezone: string | null } & SizeAndMode;
}

/** Shown while a saved board's reset period or time zone is being changed (docs/leaderboards.md). */
const PERIODS_CHANGE_NOTE =
  'Scores saved so far stay in the periods they were saved in: with a new reset period or time zone, the current period may start empty (it does when the new periods start at other times).';

let nextKey = 0;
const newRow = (): ConfigRow => ({
  key: `new-${++nextKey}`,
  isNew: true,
  name: '',
  display_name: '',
  insert_option: 'keep',
  time_based: 'na',
  timezone: null,
  max_entries: 10,
  sort: 'desc',
});
const savedRow = (board: Leaderboard, key = board.name): ConfigRow => ({
  key,
  isNew: false,
  name: board.name,
  display_name: board.display_name,
  insert_option: board.insert_option,
  time_based: board.time_based,
  timezone: board.timezone,
  // The server only stores the allowed sizes.
  max_entries: board.max_entries as MaxEntries | null,
  sort: board.sort,
  stored: {
    time_based: board.time_based,
    timezone: board.timezone,
    insert_option: board.insert_option,
    max_entries: board.max_entries,
  },
});

/**
 * The leaderboard configuration form of the current game: one row per board, new rows added with
 * 'Add leaderboard'. A new row has an editable name and Submit; once saved, its name is fixed and
 * the button reads Update.
 */
export function LeaderboardConfig({ gameId }: { gameId: string }) {
  const boards = useLeaderboards(gameId);
  // The rows are the form's own state, seeded once from the server: a refetch must not drop a
  // row being typed into.
  const [rows, setRows] = useState<ConfigRow[]>();
  const shown = rows ?? boards.data?.map((b) => savedRow(b));

  const change = (key: string, next: ConfigRow) =>
    setRows((current) => (current ?? shown ?? []).map((r) => (r.key === key ? next : r)));
  const add = () => setRows((current) => [...(current ?? shown ?? []), newRow()]);
  const drop = (key: string) => setRows((current) => (current ?? shown ?? []).filter((r) => r.key !== key));

  if (boards.isPending) return <Spinner label="Loading your leaderboards…" />;
  if (boards.error) {
    return <Notice tone="error">We could not load your leaderboards - {boards.error.message}</Notice>;
  }
  return (
    <div className="space-y-4">
      {shown!.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white px-4 py-6 text-center text-sm text-slate-500">
          No leaderboards yet. Add one to configure it.
        </p>
      ) : (
        <ul className="list-none space-y-4 pl-0">
          {shown!.map((row) => (
            <li key={row.key}>
              <LeaderboardRow
                gameId={gameId}
                row={row}
                onChange={(next) => change(row.key, next)}
                onDeleted={() => drop(row.key)}
              >
                {row.isNew && (
                  <Button type="button" variant="ghost" onClick={() => drop(row.key)}>
                    Cancel
                  </Button>
                )}
              </LeaderboardRow>
            </li>
          ))}
        </ul>
      )}
      <Button type="button" variant="secondary" onClick={add}>
        <Plus aria-hidden className="size-4" /> Add leaderboard
      </Button>
    </div>
  );
}

/**
 * One board's form on its own, for the dashboard: a saved board (`board`) or a new one. `onClose`
 * adds a Close button; `onDeleted` runs once the board is deleted.
 */
export function LeaderboardEditor({
  gameId,
  board,
  onClose,
  onDeleted,
}: {
  gameId: string;
  board?: Leaderboard;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const [row, setRow] = useState(() => (board ? savedRow(board) : newRow()));
  return (
    <LeaderboardRow gameId={gameId} row={row} onChange={setRow} onDeleted={onDeleted}>
      <Button type="button" variant="ghost" onClick={onClose}>
        Close
      </Button>
    </LeaderboardRow>
  );
}

function LeaderboardRow({
  gameId,
  row,
  onChange,
  onDeleted,
  children,
}: {
  gameId: string;
  row: ConfigRow;
  onChange: (next: ConfigRow) => void;
  onDeleted: () => void;
  /** More actions beside Submit/Update. */
  children?: ReactNode;
}) {
  const save = useSaveLeaderboard(gameId);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string }>();
  const set = <K extends keyof ConfigRow>(field: K, value: ConfigRow[K]) => onChange({ ...row, [field]: value });

  const removes = row.stored ? removedBy(row.stored, row) : [];
  const [confirming, setConfirming] = useState(false);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // A change that deletes entries is confirmed first, as a delete is.
    if (removes.length > 0) setConfirming(true);
    else send();
  };

  const send = () => {
    setConfirming(false);
    setMessage(undefined);
    const fail = (text: string) =>
      setMessage({ tone: 'error', text: `There was an error saving your leaderboard config - ${text}` });
    const name = row.name.trim();
    if (row.isNew) {
      const checked = leaderboardName.safeParse(name);
      if (!checked.success) return fail(checked.error.issues[0]!.message);
    }
    const settings = {
      display_name: row.display_name.trim(),
      insert_option: row.insert_option,
      time_based: row.time_based,
      timezone: row.time_based === 'na' ? null : (row.timezone ?? browserTimeZone()),
      max_entries: row.max_entries,
      sort: row.sort,
    };
    save.mutate(row.isNew ? { isNew: true, body: { name, ...settings } } : { isNew: false, name, body: settings }, {
      onSuccess: (board) => {
        onChange(savedRow(board, row.key));
        setMessage({ tone: 'success', text: `Configuration saved for leaderboard: ${board.name}` });
      },
      onError: (err) => fail(err.message),
    });
  };

  const resets = row.time_based !== 'na';
  const timezone = row.timezone ?? browserTimeZone();
  const movesPeriods =
    row.stored !== undefined &&
    (row.time_based !== row.stored.time_based || (resets && timezone !== row.stored.timezone));
  return (
    <form
      onSubmit={submit}
      aria-label={row.isNew ? 'New leaderboard' : `Leaderboard ${row.name}`}
      className="@container rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      {/* Sized by the form's own width: it sits in the guide's column and in the dashboard. */}
      <div className="grid gap-4 @lg:grid-cols-2 @3xl:grid-cols-3 @5xl:grid-cols-4">
        {row.isNew ? (
          <Field
            label="Name"
            required
            maxLength={64}
            value={row.name}
            onChange={(e) => set('name', e.target.value)}
            placeholder="e.g. weekly_best"
            title="Letters, digits, _ and -"
          />
        ) : (
          <Field label="Name" value={row.name} readOnly className="[&_input]:bg-slate-100 [&_input]:text-slate-600" />
        )}
        <Field
          label="Display name"
          maxLength={100}
          value={row.display_name}
          onChange={(e) => set('display_name', e.target.value)}
          placeholder={row.name || 'Same as the name'}
        />
        <Select
          label="Save mode"
          value={row.insert_option}
          onChange={(e) => set('insert_option', e.target.value as InsertOption)}
        >
          {insertOptions.map((o) => (
            <option key={o} value={o}>
              {SAVE_MODES[o]}
            </option>
          ))}
        </Select>
        <Select
          label="Reset period"
          value={row.time_based}
          onChange={(e) => {
            const time_based = e.target.value as ResetPeriod;
            onChange({ ...row, time_based, timezone: time_based === 'na' ? row.timezone : timezone });
          }}
        >
          {resetPeriods.map((p) => (
            <option key={p} value={p}>
              {RESETS[p]}
            </option>
          ))}
        </Select>
        {resets && (
          // Two columns wide: zone names such as America/Argentina/Buenos_Aires must show whole.
          <div className="sm:col-span-2">
            <Select label="Timezone" value={timezone} onChange={(e) => set('timezone', e.target.value)}>
              {timeZones(timezone).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </Select>
          </div>
        )}
        <Select label="Sort order" value={row.sort} onChange={(e) => set('sort', e.target.value as SortOrder)}>
          {(['desc', 'asc'] as const).map((o) => (
            <option key={o} value={o}>
              {SORT_ORDERS[o]}
            </option>
          ))}
        </Select>
        <Select
          label="Max entries"
          value={row.max_entries === null ? 'unlimited' : String(row.max_entries)}
          onChange={(e) =>
            set('max_entries', e.target.value === 'unlimited' ? null : (Number(e.target.value) as MaxEntries))
          }
        >
          {maxEntriesOptions.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
          {/* Not among the spec's sizes, but the server accepts it: the board keeps every entry. */}
          <option value="unlimited">Unlimited</option>
        </Select>
      </div>
      {movesPeriods && (
        <div className="mt-4">
          <Notice tone="info">{PERIODS_CHANGE_NOTE}</Notice>
        </div>
      )}
      {removes.length > 0 && (
        <div className="mt-4">
          <Notice tone="info">{removes.join(' ')} Deleted entries cannot be brought back.</Notice>
        </div>
      )}
      <Modal open={confirming} onOpenChange={setConfirming} title={`Update ${row.name}?`}>
        <ul className="mb-4 list-disc space-y-1 pl-5 text-slate-700">
          {removes.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
        <p className="mb-4 text-slate-700">Deleted entries cannot be brought back.</p>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button type="button" variant="danger" onClick={send}>
            Update and delete entries
          </Button>
        </div>
      </Modal>
      <div className="mt-4 flex flex-col gap-3 @xl:flex-row @xl:items-center">
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button type="submit" busy={save.isPending}>
            {row.isNew ? 'Submit' : 'Update'}
          </Button>
          {!row.isNew && <DeleteLeaderboard gameId={gameId} name={row.name} onDeleted={onDeleted} />}
          {children}
        </div>
        {message && (
          <div className="min-w-0 flex-1">
            <Notice tone={message.tone}>{message.text}</Notice>
          </div>
        )}
      </div>
    </form>
  );
}

/** A labelled select in the style of `Field`. */
function Select({
  label,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none"
        {...props}
      >
        {children}
      </select>
    </div>
  );
}
