import { Trophy } from 'lucide-react';
import { useSession, useCurrentGame } from '../api/session/queries.js';
import { ApiKeyReveal, SetupGate } from '../components/GameSetup.js';
import { LeaderboardDocs } from '../components/leaderboards/LeaderboardDocs.js';
import { ButtonLink, Spinner } from '../components/ui.js';
import { Home } from './Home.js';

/** /features: the home page for a visitor; for a signed-in developer, the leaderboard setup page. */
export function Features() {
  const { data: session, isPending } = useSession();
  if (isPending) return <Spinner />;
  return session ? <LeaderboardPage /> : <Home />;
}

/** /leaderboard: the pitch when signed out, game creation without a game, else the key and the guide. */
export function LeaderboardPage() {
  return (
    <div>
      <header className="mb-8 max-w-3xl">
        <p className="mb-2 inline-flex items-center gap-2 text-sm font-semibold text-brand-600">
          <Trophy aria-hidden className="size-4" /> Leaderboards
        </p>
        <h1>Leaderboards for your Godot game</h1>
      </header>
      <SetupGate signedOut={<SignedOutIntro />}>
        <WithGame />
      </SetupGate>
    </div>
  );
}

function WithGame() {
  const game = useCurrentGame()!;
  return (
    <>
      <div className="mb-10 flex flex-col gap-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 className="mb-1 break-words">{game.name}</h2>
          <p className="text-sm text-slate-600">
            Your game is set up. Follow the steps below to save and show scores, and configure its leaderboards.
          </p>
        </div>
        <div className="flex min-w-0 sm:w-md sm:shrink-0 sm:justify-end [&>dl]:w-full">
          <ApiKeyReveal key={game.game_id} gameId={game.game_id} />
        </div>
      </div>
      <LeaderboardDocs key={game.game_id} gameId={game.game_id} />
    </>
  );
}

const POINTS = [
  ['Several leaderboards per game', 'Up to 100 boards, each with its own name and display name.'],
  ['Save modes', 'Keep every score, only the highest or the latest per player, or add scores up.'],
  ['Resets', 'Hourly, daily, weekly, monthly or yearly boards in your time zone, with past periods kept.'],
  ['Positions and neighbours', "A score's position, a player's best score and the scores around it."],
] as const;

function SignedOutIntro() {
  return (
    <div className="space-y-8">
      <p className="max-w-3xl text-lg text-slate-600">
        Add online high scores to your Godot 3.x or 4.x game in minutes. Save a score with one call of the Howl plugin,
        list the best ones, and let Howl keep every leaderboard ranked, trimmed and reset on time.
      </p>
      <ul className="grid gap-4 sm:grid-cols-2">
        {POINTS.map(([title, text]) => (
          <li key={title} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <h2 className="mb-1 text-base">{title}</h2>
            <p className="text-sm text-slate-600">{text}</p>
          </li>
        ))}
      </ul>
      <ButtonLink to="/auth">Login or create an account</ButtonLink>
    </div>
  );
}
