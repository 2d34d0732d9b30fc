import { Gamepad2, LogOut, PawPrint, Trophy, Users } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useSignOut } from '../api/session/mutations.js';
import { useCurrentGame, useSession } from '../api/session/queries.js';
import { Footer } from './PublicLayout.js';
import { GameSwitcher } from './GameSwitcher.js';
import { ButtonLink, Card, SignOutFailed, Spinner } from '../components/ui.js';

const ENTRIES = [
  { to: '/dashboard/game', label: 'Game', icon: Gamepad2, also: '/dashboard' },
  { to: '/dashboard/players', label: 'Players', icon: Users },
  { to: '/dashboard/scores', label: 'Scores', icon: Trophy },
];

/** Fixed header, a sidebar (Game, Players, Scores; the current one highlighted) and the footer. */
export function DashboardLayout() {
  const { data: session } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="fixed inset-x-0 top-0 z-30 bg-ink shadow">
        <div className="flex items-center justify-between gap-3 px-4 py-3">
          <Link to="/features" className="flex items-center gap-2 text-lg font-bold text-white">
            <span aria-hidden className="grid size-8 place-items-center rounded-lg bg-brand-600">
              <PawPrint className="size-5" />
            </span>
            <span className="hidden sm:inline">Howl dashboard</span>
          </Link>
          <div className="flex items-center gap-2">
            <GameSwitcher />
            {session && (
              <button
                type="button"
                onClick={() => signOut.mutate(undefined, { onSuccess: () => void navigate('/auth') })}
                className="inline-flex items-center gap-1 rounded-lg px-2 py-1.5 text-sm font-medium text-slate-200 hover:bg-white/10"
              >
                <LogOut aria-hidden className="size-4" />
                <span className="hidden sm:inline">Sign out</span>
              </button>
            )}
          </div>
        </div>
      </header>
      <div className="mt-14 flex flex-1 flex-col md:flex-row">
        <nav
          aria-label="Dashboard"
          className="flex gap-1 border-b border-slate-200 bg-white p-2 md:w-52 md:flex-col md:border-r md:border-b-0 md:p-4"
        >
          {ENTRIES.map(({ to, label, icon: Icon, also }) => {
            const current = pathname.startsWith(to) || pathname.replace(/\/$/, '') === also;
            return (
              <Link
                key={to}
                to={to}
                aria-current={current ? 'page' : undefined}
                className={`flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium ${current ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100'}`}
              >
                <Icon aria-hidden className="size-4" />
                {label}
              </Link>
            );
          })}
        </nav>
        <main className="min-w-0 flex-1 px-4 py-8 md:px-8">
          <SignOutFailed error={signOut.error} />
          <Outlet />
        </main>
      </div>
      <Footer />
    </div>
  );
}

/** The dashboard's pages need a signed-in developer and a current game; this says what is missing. */
export function WithGame({
  signedOutMessage,
  children,
}: {
  signedOutMessage: string;
  children: (game: { game_id: string; name: string }) => ReactNode;
}) {
  const { data: session, isPending } = useSession();
  const game = useCurrentGame();
  if (isPending) return <Spinner />;
  if (!session) {
    return (
      <Card className="max-w-lg">
        <p className="mb-4 text-slate-700">{signedOutMessage}</p>
        <ButtonLink to="/auth">Sign in</ButtonLink>
      </Card>
    );
  }
  if (!game) {
    return (
      <Card className="max-w-lg text-center">
        <p className="mb-4 text-slate-600">No game selected yet. Create a game to see it here.</p>
        <ButtonLink to="/createNewGame">+ New Game</ButtonLink>
      </Card>
    );
  }
  // Keyed by the game: a switch starts the page afresh, so no draft, download or notice of the
  // game before stays on screen to act on this one.
  return <Fragment key={game.game_id}>{children(game)}</Fragment>;
}
