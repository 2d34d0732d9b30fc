import { Database } from 'lucide-react';
import { useCurrentGame } from '../api/session/queries.js';
import { SetupGate } from '../components/GameSetup.js';
import { PlayerDataDocs } from '../components/players/PlayerDataDocs.js';
import { CurrentGameCard, SetupTitle } from '../components/players/SetupHeader.js';
import { SetupPitch } from '../components/players/SetupPitch.js';

const POINTS = [
  ['Player data', 'Progress, settings and inventories: one JSON document per player, up to 40 KB.'],
  ['Character data', 'Separate data for each character of a player, listed for your character picker.'],
  ['Game state', 'Game-wide data such as the current season, kept under a reserved name.'],
  ['Safe on two devices', 'Merge only the keys you change, or write only if nothing changed since you read.'],
] as const;

/** /playerdata: the pitch when signed out, game creation without a game, else the guide. */
export function PlayerData() {
  return (
    <div>
      <SetupTitle
        icon={<Database aria-hidden className="size-4" />}
        kicker="Player data"
        title="Save player and character data"
        intro="Persist your players' progress and each of their characters' data on Howl, and read it back on any device, with a few calls of the Howl plugin for Godot 3.x or 4.x."
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
      <CurrentGameCard text="Your game is set up. Follow the steps below to persist player data, character data and the game state." />
      <PlayerDataDocs key={game.game_id} />
    </>
  );
}
