import type { ReactNode } from 'react';
import { useCurrentGame } from '../../api/session/queries.js';
import { ApiKeyReveal } from '../GameSetup.js';

/** The page's title block with its intro, shown in every state of the page. */
export function SetupTitle({
  icon,
  kicker,
  title,
  intro,
}: {
  icon: ReactNode;
  kicker: string;
  title: string;
  intro: string;
}) {
  return (
    <header className="mb-8 max-w-3xl">
      <p className="mb-2 inline-flex items-center gap-2 text-sm font-semibold text-brand-600">
        {icon} {kicker}
      </p>
      <h1>{title}</h1>
      <p className="mt-3 text-lg text-slate-600">{intro}</p>
    </header>
  );
}

/** The current game's name with the View API key button, above a setup guide. */
export function CurrentGameCard({ text }: { text: string }) {
  const game = useCurrentGame()!;
  return (
    <div className="mb-10 flex flex-col gap-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <h2 className="mb-1 break-words">{game.name}</h2>
        <p className="text-sm text-slate-600">{text}</p>
      </div>
      <div className="min-w-0 sm:w-md sm:shrink-0">
        <ApiKeyReveal key={game.game_id} gameId={game.game_id} />
      </div>
    </div>
  );
}
