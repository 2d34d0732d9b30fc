import { UserRound } from 'lucide-react';
import { useCurrentGame } from '../api/session/queries.js';
import { SetupGate } from '../components/GameSetup.js';
import { PlayerAuthDocs } from '../components/players/PlayerAuthDocs.js';
import { CurrentGameCard, SetupTitle } from '../components/players/SetupHeader.js';
import { SetupPitch } from '../components/players/SetupPitch.js';

const POINTS = [
  ['Registration and login', 'Email, name and password, or just a name and password. No server of your own.'],
  ['Email confirmation', 'New players confirm their address with a one-time code, in an email you can customise.'],
  ['Password reset', 'A code by email and a new password, from inside your game.'],
  ['Saved sessions', 'Remember a player on their device for up to a year, and log out everywhere at once.'],
] as const;

/** /playerauth: the pitch when signed out, game creation without a game, else the settings and guide. */
export function PlayerAuth() {
  return (
    <div>
      <SetupTitle
        icon={<UserRound aria-hidden className="size-4" />}
        kicker="Player accounts"
        title="Player authentication for your Godot game"
        intro="Let your players register, confirm their email, log in and stay logged in, with a few calls of the Howl plugin for Godot 3.x or 4.x."
      />
      <SetupGate signedOut={<SetupPitch points={POINTS} />}>
        <WithGame />
      </SetupGate>
    </div>
  );
}

function WithGame() {
  const game = useCurrentGame()!;
  return (
    <>
      <CurrentGameCard text="Follow the steps below to turn on player accounts for this game and use them from the Howl plugin." />
      <PlayerAuthDocs key={game.game_id} gameId={game.game_id} />
    </>
  );
}
