import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EngineSample } from '../CodeBlock.js';
import { InstallSteps } from '../content/InstallSteps.js';
import { DocLayout, DocSection, HttpCall } from './DocParts.js';

/** The steps of the player data guide, in order; the ids are the page's anchors. */
const PLAYER_DATA_SECTIONS = [
  { id: 'install', title: 'Install and configure the plugin' },
  { id: 'savePlayerData', title: 'Save player data' },
  { id: 'getPlayerData', title: 'Retrieve player data' },
  { id: 'deletePlayerData', title: 'Delete player data' },
  { id: 'characterData', title: 'Character data' },
  { id: 'gameState', title: 'Game state' },
  { id: 'versions', title: 'Versions: two devices at once' },
  { id: 'limits', title: 'What you can store' },
  { id: 'dashboard', title: 'The players dashboard' },
  { id: 'help', title: 'Troubleshooting and contact' },
] as const;

const Step = ({ id, children }: { id: (typeof PLAYER_DATA_SECTIONS)[number]['id']; children: ReactNode }) => (
  <DocSection sections={PLAYER_DATA_SECTIONS} id={id}>
    {children}
  </DocSection>
);

/**
 * The player data guide once a developer has a game: save, read and delete a player's data, a
 * character's data and the game state, with samples for Godot 3.x and 4.x and the HTTP calls.
 */
export function PlayerDataDocs() {
  return (
    <DocLayout sections={PLAYER_DATA_SECTIONS}>
      <Step id="install">
        <InstallSteps />
        <p>
          <code>log_level</code> is 0 (errors only), 1 (info) or 2 (debug).
        </p>
        <EngineSample name="configure" />
        <p>
          Player data needs no player account: any player name your game uses works, as on leaderboards. With{' '}
          <Link to="/playerauth">player accounts</Link> and “require player session” on, saving or deleting under a
          registered name needs that player to be logged in; reading stays open.
        </p>
      </Step>

      <Step id="savePlayerData">
        <p>
          Save a Dictionary for a player. By default it replaces what was stored; pass <code>false</code> for{' '}
          <code>overwrite</code> to merge its top-level keys into the stored data instead (the keys you send win, the
          others stay). Merges are atomic, so two devices merging different keys at the same time both keep theirs.
        </p>
        <EngineSample name="save_player_data" />
        <HttpCall
          method="PUT"
          path="/v1/player-data/a_player"
          body='{"player_data": {"gold": 25}, "overwrite": false}'
          answer={`{
  "player_name": "a_player",
  "player_data": { "level": 3, "gold": 25, "unlocked": ["forest", "cave"] },
  "version": 2,
  "updated_at": "2026-11-23T02:41:40.939Z"
}`}
        />
      </Step>

      <Step id="getPlayerData">
        <p>
          Read a player's data. A player with nothing stored is not an error: the answer has an empty Dictionary,
          version 0 and no date.
        </p>
        <EngineSample name="get_player_data" />
        <HttpCall
          method="GET"
          path="/v1/player-data/a_player"
          answer={`{
  "player_name": "a_player",
  "player_data": { "level": 3, "gold": 25, "unlocked": ["forest", "cave"] },
  "version": 2,
  "updated_at": "2026-11-23T02:41:40.939Z"
}`}
        />
      </Step>

      <Step id="deletePlayerData">
        <p>
          Delete some top-level keys, or all of a player's data (its version goes back to 0). A player's own data and
          each character's are separate: deleting one leaves the others.
        </p>
        <EngineSample name="delete_player_data" />
        <HttpCall
          method="DELETE"
          path="/v1/player-data/a_player"
          body='{"keys": ["gold"]}'
          answer={`{
  "player_name": "a_player",
  "player_data": { "level": 3, "unlocked": ["forest", "cave"] },
  "version": 3,
  "updated_at": "2026-11-23T02:41:41.052Z"
}`}
        />
      </Step>

      <Step id="characterData">
        <p>
          A player can keep separate data per character, up to 100 characters. The calls are the same, with the
          character's name; list a player's characters to build a character picker.
        </p>
        <EngineSample name="character_data" />
        <HttpCall
          method="PUT"
          path="/v1/player-data/a_player/characters/Mage"
          body='{"player_data": {"hp": 5, "class": "mage"}}'
          answer={`{
  "player_name": "a_player",
  "character": "Mage",
  "player_data": { "hp": 5, "class": "mage" },
  "version": 1,
  "updated_at": "2026-11-23T02:41:40.978Z"
}`}
        />
        <HttpCall
          method="GET"
          path="/v1/player-data/a_player/characters"
          answer={`{ "player_name": "a_player", "characters": ["Mage"] }`}
        />
      </Step>

      <Step id="gameState">
        <p>
          Game-wide state (a season number, a world event, a message of the day) is kept as the data of the reserved
          player name <code>__game__</code>. No player can register that name and it never shows up as a player; the
          players dashboard's download has it as <code>game_state</code>.
        </p>
        <EngineSample name="game_state" />
        <HttpCall
          method="PUT"
          path="/v1/player-data/__game__"
          body='{"player_data": {"season": 2}, "overwrite": false}'
          answer={`{
  "player_name": "__game__",
  "player_data": { "season": 2 },
  "version": 1,
  "updated_at": "2026-11-23T02:41:41.080Z"
}`}
        />
      </Step>

      <Step id="versions">
        <p>
          Every change adds one to the data's <code>version</code>. When one player may play on two devices at once,
          make a write conditional: pass the version you read as <code>if_version</code>. If the stored version differs,
          nothing is written and the call answers <code>409 VersionConflict</code> with the <code>current_version</code>
          : read again, apply your change, and save again. <code>if_version</code> 0 means “only if nothing is stored
          yet”. Deleting all of the data starts its version again at 0, so a device that read an older version could
          match it again later: to start a player over while another device may still save, save <code>{'{}'}</code>{' '}
          instead, which moves the version on.
        </p>
        <EngineSample name="data_versions" />
        <HttpCall
          method="PUT"
          path="/v1/player-data/a_player"
          body='{"player_data": {"level": 3, "gold": 30}, "if_version": 1}'
          answer={`{
  "error": {
    "code": "VersionConflict",
    "message": "The stored player data is at version 2; read it again and retry your change.",
    "current_version": 2
  }
}`}
        />
      </Step>

      <Step id="limits">
        <ul>
          <li>
            Player data is JSON: strings, numbers, booleans, null, arrays and nested Dictionaries. Engine objects such
            as a <code>Vector2</code> or a <code>Color</code> are not: store their numbers or a string instead.
          </li>
          <li>
            Each player's (or character's) data may be at most <strong>40 KB</strong> (40,960 bytes as compact JSON,
            after a merge). A bigger write answers <code>413 PlayerDataTooLarge</code> and stores nothing.
          </li>
          <li>
            Player and character names are 1 to 100 characters, without control or invisible formatting characters and
            without mixing Latin, Greek and Cyrillic letters; full-width and decomposed spellings count as the same name
            (NFKC).
          </li>
        </ul>
        <EngineSample name="data_limits" />
      </Step>

      <Step id="dashboard">
        <p>
          The <Link to="/dashboard/players">Players dashboard</Link> shows each player's data. It can also fetch the
          data of every player of your game and download it as <code>playerdata.json</code>, with the game state.
          Deleting a player account there deletes the player's data and characters too.
        </p>
      </Step>

      <Step id="help">
        <p>
          Set <code>log_level</code> to 2 to see every call in the output, and read the{' '}
          <Link to="/troubleshooting">troubleshooting guide</Link>. Still stuck? <Link to="/contact">Contact us</Link>.
        </p>
      </Step>
    </DocLayout>
  );
}
