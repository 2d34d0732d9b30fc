import { LayoutDashboard } from 'lucide-react';
import { Link } from 'react-router';
import { useSwitchGame } from '../api/session/mutations.js';
import { useSession } from '../api/session/queries.js';
import { truncate } from '../lib/text.js';

/** The developer's games; choosing one makes it current. Names are cut to 12 characters. */
export function GameSwitcher({ onNavigate, className }: { onNavigate?: () => void; className?: string | undefined }) {
  const { data: session } = useSession();
  const switchGame = useSwitchGame();
  if (!session) return null;
  const current = session.current_game_id ?? '';
  return (
    <div className={`flex items-center gap-2 ${className ?? ''}`}>
      <label htmlFor="game-switcher" className="sr-only">
        Current game
      </label>
      <select
        id="game-switcher"
        value={current}
        disabled={session.games.length === 0 || switchGame.isPending}
        onChange={(e) => switchGame.mutate(e.target.value)}
        className="max-w-44 rounded-lg border border-slate-600 bg-slate-800 px-2 py-1.5 text-sm text-white"
      >
        {session.games.length === 0 && <option value="">-- No games yet --</option>}
        {session.games.map((g) => (
          <option key={g.game_id} value={g.game_id} title={g.name}>
            {truncate(g.name, 12)}
          </option>
        ))}
      </select>
      {current && (
        <Link
          to="/dashboard/game"
          onClick={onNavigate}
          className="inline-flex items-center gap-1 rounded-lg px-2 py-1.5 text-sm font-medium text-slate-200 hover:bg-white/10"
        >
          <LayoutDashboard aria-hidden className="size-4" /> Dashboard
        </Link>
      )}
    </div>
  );
}
