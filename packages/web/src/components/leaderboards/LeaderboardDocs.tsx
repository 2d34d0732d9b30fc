import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CodeBlock, EngineSample } from '../CodeBlock.js';
import { InstallSteps } from '../content/InstallSteps.js';
import { LeaderboardConfig } from './LeaderboardConfig.js';

/** The sections of the guide, in order; the ids are the anchors other pages link to. */
const LEADERBOARD_SECTIONS = [
  { id: 'install', title: 'Install the plugin' },
  { id: 'configure', title: 'Configure the plugin' },
  { id: 'saveScore', title: 'Save scores' },
  { id: 'getScores', title: 'List high scores' },
  { id: 'scoresForPlayer', title: 'Scores of a player' },
  { id: 'topScoreForPlayer', title: 'Top score of a player' },
  { id: 'scorePositions', title: 'Score position' },
  { id: 'getScoresAround', title: 'Scores around a score' },
  { id: 'customLeaderboards', title: 'Custom leaderboards' },
  { id: 'scoreMetadata', title: 'Score metadata' },
  { id: 'wipeLeaderboard', title: 'Wipe a leaderboard' },
  { id: 'dashboard', title: 'The dashboard' },
  { id: 'leaderboardScene', title: 'The leaderboard scene' },
] as const;
type SectionId = (typeof LEADERBOARD_SECTIONS)[number]['id'];

function Section({ id, children }: { id: SectionId; children: ReactNode }) {
  const title = LEADERBOARD_SECTIONS.find((s) => s.id === id)!.title;
  return (
    <section
      id={id}
      className="prose-howl max-w-none scroll-mt-24 border-t border-slate-200 pt-8 first:border-0 first:pt-0"
    >
      <h2 className="!mt-0">{title}</h2>
      {children}
    </section>
  );
}

/** The HTTP call a plugin function makes, as curl, with the answer it gets. */
function HttpCall({
  method,
  path,
  body,
  answer,
}: {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: string;
  answer: string;
}) {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const lines = [
    `curl${method === 'GET' ? '' : ` -X ${method}`} "${origin}${path}" \\`,
    '  -H "x-api-key: $HOWL_API_KEY" \\',
    `  -H "x-game-id: $HOWL_GAME_ID"${body ? ' \\' : ''}`,
    ...(body ? ['  -H "content-type: application/json" \\', `  -d '${body}'`] : []),
  ];
  return (
    <details className="group rounded-xl bg-white ring-1 ring-slate-200">
      <summary className="cursor-pointer rounded-xl px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
        The HTTP call: <code className="break-words">{`${method} ${path.split('?')[0]}`}</code>
      </summary>
      <div className="space-y-3 p-4 pt-2">
        <CodeBlock code={lines.join('\n')} language="bash" title="Request" />
        <CodeBlock code={answer} language="json" title="Answer" />
      </div>
    </details>
  );
}

/**
 * The next steps once a developer has a game: install and configure the Howl plugin, then every
 * score call with samples for Godot 3.x and 4.x and the HTTP call behind it, and the configuration
 * form of the game's leaderboards.
 */
export function LeaderboardDocs({ gameId }: { gameId: string }) {
  return (
    <div className="grid gap-10 lg:grid-cols-[13rem_minmax(0,1fr)]">
      <nav aria-label="On this page" className="hidden lg:block">
        <div className="sticky top-24">
          <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">On this page</p>
          <ul className="space-y-1 text-sm">
            {LEADERBOARD_SECTIONS.map((s) => (
              <li key={s.id}>
                <a
                  href={`#${s.id}`}
                  className="block rounded px-2 py-1 text-slate-600 hover:bg-slate-100 hover:text-ink"
                >
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </nav>
      <div className="min-w-0 space-y-10 [&_pre]:[tab-size:4]">
        <Section id="install">
          <InstallSteps />
          <p>
            Exporting to Android? Your game needs the <Link to="/mobileExport">internet permission</Link>. Writing C#?
            See <Link to="/cSharp">the C# guide</Link>.
          </p>
        </Section>

        <Section id="configure">
          <p>
            Configure the plugin once, before the first call, with your API key and game ID (the View API key button
            above shows both). <code>log_level</code> is 0 (errors only), 1 (info) or 2 (debug).
          </p>
          <EngineSample name="configure" />
          <p>
            Every call of the plugin runs in the background. Wait for its result with <code>await</code> in Godot 4 and{' '}
            <code>yield(…, "completed")</code> in Godot 3 (see <Link to="/callingHowl">calling Howl</Link>). The result
            is a Dictionary: the server's answer, and <code>error</code>, which is <code>null</code> or holds a{' '}
            <code>code</code> and a <code>message</code>.
          </p>
          <HttpCall method="GET" path="/v1/ping" answer={`{ "game_id": "YOUR_GAME_ID", "name": "My game" }`} />
        </Section>

        <Section id="saveScore">
          <p>
            Save a score with the player's name (not empty) and a number. It goes to the <code>main</code> leaderboard
            unless you name another one. The result tells you the score's id (36 characters) and its position, or{' '}
            <code>null</code> when it did not make the board.
          </p>
          <EngineSample name="save_score" />
          <HttpCall
            method="POST"
            path="/v1/leaderboards/main/scores"
            body={'{"player_name": "a_player", "score": 1200}'}
            answer={`{
  "score_id": "0b8e4d1c-6f2a-4c7e-9a51-3d2f7c8b9e10",
  "position": 3,
  "kept": true
}`}
          />
        </Section>

        <Section id="getScores">
          <p>
            Get the best scores of a leaderboard, best first: the top 10 by default, up to 1,000, and <code>0</code> for
            all of them. Each entry has <code>score_id</code>, <code>player_name</code>, <code>score</code>,{' '}
            <code>timestamp</code> (epoch milliseconds), <code>metadata</code> and <code>position</code>.
          </p>
          <EngineSample name="get_scores" />
          <HttpCall
            method="GET"
            path="/v1/leaderboards/main/scores?max=10"
            answer={`{
  "scores": [
    {
      "score_id": "0b8e4d1c-6f2a-4c7e-9a51-3d2f7c8b9e10",
      "player_name": "a_player",
      "score": 1200,
      "timestamp": 1763856000000,
      "metadata": null,
      "position": 1,
      "engine": 4
    }
  ],
  "period": null,
  "cursor": null
}`}
          />
        </Section>

        <Section id="scoresForPlayer">
          <p>The scores of one player on a leaderboard, best first, with their positions (10 by default).</p>
          <EngineSample name="scores_by_player" />
          <HttpCall
            method="GET"
            path="/v1/leaderboards/main/players/a_player/scores?max=10"
            answer={`{
  "scores": [
    {
      "score_id": "0b8e4d1c-6f2a-4c7e-9a51-3d2f7c8b9e10",
      "player_name": "a_player",
      "score": 1200,
      "timestamp": 1763856000000,
      "metadata": null,
      "position": 1,
      "engine": 4
    }
  ],
  "period": null,
  "cursor": null
}`}
          />
        </Section>

        <Section id="topScoreForPlayer">
          <p>
            A player's best score on a leaderboard; <code>score</code> is <code>null</code> when the player has none.
          </p>
          <EngineSample name="top_score_by_player" />
          <HttpCall
            method="GET"
            path="/v1/leaderboards/main/players/a_player/top"
            answer={`{
  "score": {
    "score_id": "0b8e4d1c-6f2a-4c7e-9a51-3d2f7c8b9e10",
    "player_name": "a_player",
    "score": 1200,
    "timestamp": 1763856000000,
    "metadata": null,
    "position": 1,
    "engine": 4
  },
  "period": null
}`}
          />
        </Section>

        <Section id="scorePositions">
          <p>
            The position of a saved score (pass its <code>score_id</code>), or the position a value would take now (pass
            a number), for example to tell a player where they would land before they enter their name. Positions start
            at 1.
          </p>
          <EngineSample name="score_position" />
          <HttpCall
            method="GET"
            path="/v1/leaderboards/main/position?score=1500"
            answer={`{ "position": 2, "period": null }`}
          />
        </Section>

        <Section id="getScoresAround">
          <p>
            The scores just above and below a score (by id or value): 3 on each side by default. Handy to show a player
            their neighbours on a long leaderboard.
          </p>
          <EngineSample name="scores_around" />
          <HttpCall
            method="GET"
            path="/v1/leaderboards/main/around?score_id=0b8e4d1c-6f2a-4c7e-9a51-3d2f7c8b9e10&count=3"
            answer={`{
  "position": 3,
  "scores_above": [
    { "score_id": "…", "player_name": "another_player", "score": 1500, "position": 2, … }
  ],
  "scores_below": [
    { "score_id": "…", "player_name": "another_player", "score": 900, "position": 4, … }
  ],
  "period": null
}`}
          />
        </Section>

        <Section id="customLeaderboards">
          <p>
            Every game starts with one leaderboard, <code>main</code>: it keeps every score and the best 10. Add as many
            as you need (up to 100), and choose for each:
          </p>
          <ul>
            <li>
              <strong>Save mode</strong>: <em>keep (All)</em> keeps every score, so a player can hold several places;{' '}
              <em>highest</em> keeps each player's best score only; <em>latest</em> each player's last score;{' '}
              <em>accumulator</em> adds each new score to the player's total.
            </li>
            <li>
              <strong>Reset period</strong>: none, hourly, daily, weekly, monthly or yearly, in the time zone you
              choose. Earlier periods stay available: pass a period offset of 0 for the current period, -1 for the one
              before, and so on.
            </li>
            <li>
              <strong>Sort order</strong>: higher is better, or lower is better (race times: the fastest run ranks
              first, and <em>highest</em> keeps each player's lowest).
            </li>
            <li>
              <strong>Max entries</strong>: how many of the best scores a period keeps (10 to 1000, or unlimited).
              Lowering it, or changing the order, trims the leaderboard at once.
            </li>
          </ul>
          <p>
            A leaderboard's name (letters, digits, <code>_</code> and <code>-</code>) is fixed once it is saved; its
            display name can change. Name the leaderboard in your calls:
          </p>
          <EngineSample name="custom_leaderboards" />
          <HttpCall
            method="GET"
            path="/v1/leaderboards/weekly_best/scores?max=10&period_offset=-1"
            answer={`{
  "scores": [ … ],
  "period": {
    "offset": -1,
    "start": "2026-11-09T00:00:00.000Z",
    "end": "2026-11-16T00:00:00.000Z",
    "next_reset": "2026-11-23T00:00:00.000Z"
  },
  "cursor": null
}`}
          />
          <h3>Your leaderboards</h3>
          <LeaderboardConfig gameId={gameId} />
        </Section>

        <Section id="scoreMetadata">
          <p>
            Attach metadata to a score: a Dictionary of strings, numbers, booleans and nested Dictionaries (no engine
            types such as Vector2), at most 4,096 bytes as JSON. When you pass metadata, name the leaderboard too:{' '}
            <code>"main"</code> for the default one. The metadata comes back with every entry.
          </p>
          <EngineSample name="score_metadata" />
          <HttpCall
            method="POST"
            path="/v1/leaderboards/main/scores"
            body={'{"player_name": "a_player", "score": 1200, "metadata": {"level": 3, "character": "wolf"}}'}
            answer={`{ "score_id": "…", "position": 3, "kept": true }`}
          />
        </Section>

        <Section id="wipeLeaderboard">
          <p>
            Delete every score of a leaderboard, in every period. There is no undo. Handy while testing; a released game
            rarely needs it. Game clients may call it only once your game allows client deletes (on the dashboard's Game
            page, untick "Refuse deletes and wipes from game clients"), which is off for new games because the API key
            ships with every build (until then the call answers <code>403 ClientWritesDisabled</code>). The dashboard
            can always wipe a leaderboard.
          </p>
          <EngineSample name="wipe_leaderboard" />
          <HttpCall method="DELETE" path="/v1/leaderboards/main/scores" answer={`{ "ok": true }`} />
        </Section>

        <Section id="dashboard">
          <p>
            The <Link to="/dashboard/scores">Scores dashboard</Link> lists your game's leaderboards with their settings.
            Open one to see its scores, page by page, with their positions, read each score's metadata and delete
            scores. Add a leaderboard there, or configure or delete one, with the same form as above.
          </p>
        </Section>

        <Section id="leaderboardScene">
          <p>
            The plugin comes with a ready-made leaderboard scene that lists the best scores, designed for 1920 by 1080.
            Open it, or add it to a scene of yours and choose its leaderboard.
          </p>
          <EngineSample name="leaderboard_scene" />
          <p>
            Something not working? See <Link to="/troubleshooting">troubleshooting</Link> or{' '}
            <Link to="/contact">contact us</Link>.
          </p>
        </Section>
      </div>
    </div>
  );
}
