import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CodeBlock, EngineSample } from '../components/CodeBlock.js';
import { DocPage, Wide } from '../components/content/DocPage.js';

const ERROR_SHAPE = `{
  "error": {
    "code": "InvalidApiKey",
    "message": "This API key does not belong to this game id. Check both on your Howl dashboard."
  }
}`;

type Question = { id: string; q: string; a: ReactNode };

const QUESTIONS: Question[] = [
  {
    id: 'invalid-api-key',
    q: 'Every call fails with 403 InvalidApiKey',
    a: (
      <>
        <p>
          The plugin sends your API key and game id with every call; if either is missing or wrong, Howl answers{' '}
          <code>403 InvalidApiKey</code>.
        </p>
        <ul>
          <li>
            Copy both again from the dashboard into your <code>Howl.configure</code> call, without spaces or quotes
            around them.
          </li>
          <li>Make sure the key and the id belong to the same game: each game has its own pair.</li>
          <li>If you rotated the key on the dashboard, the old key stopped working at once; ship the new one.</li>
        </ul>
        <p>
          <code>Howl.ping()</code> checks the configuration: see <Link to="/download#check">Check the setup</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'limit-exceeded',
    q: 'Calls answer 429 LimitExceeded',
    a: (
      <>
        <p>
          Howl limits how many calls a game key and a single network can make per minute, and how often players can try
          to log in or ask for codes. Past a limit, calls answer <code>429 LimitExceeded</code> until the window resets;
          the answer's <code>Retry-After</code> header says how many seconds to wait.
        </p>
        <p>
          Most often the game calls Howl every frame or in a loop. Save a score once at the end of a round, fetch the
          leaderboard when the player opens it, and keep the answer instead of asking again.
        </p>
      </>
    ),
  },
  {
    id: 'http-request',
    q: 'The HTTPRequest node reports an error',
    a: (
      <>
        <p>
          The plugin talks to Howl through Godot's <code>HTTPRequest</code> node. When the request itself fails (no
          answer at all), the error code is <code>NetworkError</code> and the log shows the node's result:
        </p>
        <ul>
          <li>
            <strong>Can't connect / can't resolve</strong>: the device has no internet access, or a firewall blocks it.
            On Android, check the <Link to="/mobileExport">internet permission</Link>.
          </li>
          <li>
            <strong>TLS handshake error</strong>: the device's clock is wrong, or the project's TLS certificates were
            changed. Keep the default certificate bundle of your Godot version.
          </li>
          <li>
            <strong>Timeout</strong>: the network is slow. Retry later instead of at once.
          </li>
        </ul>
        <p>
          Set <code>log_level</code> to <code>2</code> to see every request and answer in the output panel.
        </p>
      </>
    ),
  },
  {
    id: 'cors',
    q: 'My web (HTML5) export cannot reach Howl',
    a: (
      <>
        <p>
          Browsers only let a page call another site when that site allows it (CORS). The Howl game API allows calls
          from any origin, so a web export works from any host. If the browser console still shows a CORS error, the
          real cause is usually another one: the request went to a wrong address, or the answer was an error page from a
          proxy in between. A page served over <code>https</code> must also call Howl over <code>https</code>.
        </p>
        <p>
          To test a web export locally, serve it from a local web server rather than opening the HTML file directly.
        </p>
      </>
    ),
  },
  {
    id: 'android',
    q: 'It works in the editor but not on Android',
    a: (
      <p>
        Android apps need the <code>INTERNET</code> permission to make any network call, and Godot does not add it by
        default. Turn it on in the Android export preset: see <Link to="/mobileExport">mobile export</Link>.
      </p>
    ),
  },
  {
    id: 'leaderboard-not-found',
    q: 'Saving a score answers 404 LeaderboardNotFound',
    a: (
      <p>
        The leaderboard name in your call does not exist in this game. Every game starts with a leaderboard named{' '}
        <code>main</code>; create any other one on the <Link to="/leaderboard">leaderboard page</Link> first, with
        exactly the name your game uses.
      </p>
    ),
  },
  {
    id: 'score-not-kept',
    q: 'A score was saved but does not show on the leaderboard',
    a: (
      <p>
        That is how the leaderboard's settings work: on a board that keeps the highest score, a lower score does not
        replace the player's best one (the answer says <code>kept: false</code>); and a board keeps only its maximum
        number of entries, so a score below the last place is not kept. Check the save mode and size on the{' '}
        <Link to="/leaderboard">leaderboard page</Link>.
      </p>
    ),
  },
  {
    id: 'player-auth-disabled',
    q: 'Player calls answer 403 PlayerAuthDisabled',
    a: (
      <p>
        Player accounts are off for a new game. Turn them on and choose how players register on the{' '}
        <Link to="/playerauth">player accounts page</Link>.
      </p>
    ),
  },
  {
    id: 'player-data-too-large',
    q: 'Saving player data answers 413 PlayerDataTooLarge',
    a: (
      <p>
        A player's document may be at most 40 KB of JSON. Keep only what you need to restore the game, and store big or
        binary things (screenshots, replays) elsewhere. Engine types such as <code>Vector2</code> or <code>Color</code>{' '}
        are not JSON: convert them to numbers or strings first. See the <Link to="/playerdata">player data page</Link>.
      </p>
    ),
  },
  {
    id: 'nothing-happens',
    q: 'A call seems to do nothing',
    a: (
      <p>
        Calls are asynchronous: the answer arrives later. Wait for it with <code>yield</code> (Godot 3) or{' '}
        <code>await</code> (Godot 4), or connect to the plugin's signals; both are explained in{' '}
        <Link to="/callingHowl">Calling Howl</Link>. Also check that the <code>Howl</code> autoload is listed in the
        project settings.
      </p>
    ),
  },
];

/** Frequent problems and their fixes. */
export function Troubleshooting() {
  return (
    <DocPage
      eyebrow="Guides"
      title="Troubleshooting"
      lead={<p>Answers to the problems developers meet most often when they connect a game to Howl.</p>}
      sections={QUESTIONS.map(({ id, q }) => ({ id, title: q }))}
    >
      <p>
        When a call fails, its answer is a Dictionary with an <code>error</code> holding a <code>code</code> and a{' '}
        <code>message</code>, the same as the error body Howl sends:
      </p>
      <CodeBlock code={ERROR_SHAPE} language="json" title="Error answer" />
      <p>Check the code to react to the errors your game can handle:</p>
      <Wide>
        <EngineSample name="troubleshooting_errors" />
      </Wide>
      {QUESTIONS.map(({ id, q, a }) => (
        <section key={id} aria-labelledby={id}>
          <h2 id={id}>{q}</h2>
          <div className="mt-4 space-y-4">{a}</div>
        </section>
      ))}
      <h2 id="still-stuck">Still stuck?</h2>
      <p>
        Tell us what you tried and what the log shows on the <Link to="/contact">contact page</Link>.
      </p>
    </DocPage>
  );
}
