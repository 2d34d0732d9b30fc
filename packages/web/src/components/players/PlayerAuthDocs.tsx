import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EngineSample } from '../CodeBlock.js';
import { InstallSteps } from '../content/InstallSteps.js';
import { DocLayout, DocSection, HttpCall } from './DocParts.js';
import { PlayerAuthSettings } from './PlayerAuthSettings.js';

/** The steps of the player accounts guide, in order; the ids are the page's anchors. */
const PLAYER_AUTH_SECTIONS = [
  { id: 'install', title: 'Install the plugin' },
  { id: 'configure', title: 'Configure the plugin' },
  { id: 'authOptions', title: 'Authentication options' },
  { id: 'authSettings', title: 'Player authentication settings' },
  { id: 'registration', title: 'Register a player' },
  { id: 'emailConfirmation', title: 'Confirm the email address' },
  { id: 'login', title: 'Log a player in' },
  { id: 'resetPassword', title: 'Reset a password' },
  { id: 'savedSessions', title: 'Saved sessions' },
  { id: 'logout', title: 'Log a player out' },
  { id: 'dashboard', title: 'The players dashboard' },
  { id: 'scenes', title: 'Built-in scenes' },
  { id: 'troubleshooting', title: 'Troubleshooting' },
  { id: 'contact', title: 'Contact' },
] as const;

const Step = ({ id, children }: { id: (typeof PLAYER_AUTH_SECTIONS)[number]['id']; children: ReactNode }) => (
  <DocSection sections={PLAYER_AUTH_SECTIONS} id={id}>
    {children}
  </DocSection>
);

const PLAYER = `"player": {
    "player_name": "a_player",
    "email": "player@example.com",
    "state": "CONFIRMED"
  }`;

/**
 * The player accounts guide once a developer has a game: install and configure the Howl plugin,
 * the settings panel, then every player call with samples for Godot 3.x and 4.x and its HTTP call.
 */
export function PlayerAuthDocs({ gameId }: { gameId: string }) {
  return (
    <DocLayout sections={PLAYER_AUTH_SECTIONS}>
      <Step id="install">
        <InstallSteps />
      </Step>

      <Step id="configure">
        <p>
          Configure the plugin once, before the first call, with your API key and game ID (the View API key button above
          shows both). <code>log_level</code> is 0 (errors only), 1 (info) or 2 (debug). <code>game_version</code> is
          for Godot 3 only.
        </p>
        <EngineSample name="configure" />
        <p>
          Each call of the plugin runs in the background: wait for it with <code>await</code> in Godot 4 and{' '}
          <code>yield(…, "completed")</code> in Godot 3 (see <Link to="/callingHowl">calling Howl</Link>). Its result is
          a Dictionary with the server's answer and <code>error</code>, which is <code>null</code> or holds a{' '}
          <code>code</code> and a <code>message</code>.
        </p>
      </Step>

      <Step id="authOptions">
        <p>Player accounts are set up per game, in the panel below:</p>
        <ul>
          <li>
            <strong>Player authentication</strong> is off for a new game. Until you enable it, every player call answers{' '}
            <code>403 PlayerAuthDisabled</code>.
          </li>
          <li>
            <strong>Registration type</strong>: <em>Email / username / password</em> (the default) keeps an email
            address per player, for confirmation and password reset codes; <em>Username / password</em> keeps none, and
            accounts are confirmed at once.
          </li>
          <li>
            <strong>Email confirmation</strong> (email registration only): a new player confirms their address with a
            6-digit code mailed to them before they can log in.
          </li>
          <li>
            <strong>Session duration</strong>: how long a login lasts, in seconds (3600 by default; 0 means it never
            expires). <strong>Saved session days</strong>: how long “remember me” keeps a player logged in on a device
            (30 by default, 1 to 365).
          </li>
          <li>
            <strong>Require player session</strong>: when on, a score or player data saved under a registered player's
            name needs that player's session; names nobody registered stay open.
          </li>
        </ul>
        <p>
          The plugin keeps the player's session for you: after a login, its calls send it along, and{' '}
          <code>Howl.Players.is_logged_in()</code> tells you whether a player is logged in.
        </p>
      </Step>

      <Step id="authSettings">
        <div className="not-prose rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
          <PlayerAuthSettings gameId={gameId} />
        </div>
      </Step>

      <Step id="registration">
        <p>
          Register a player with a name, a password and its confirmation, and an email address with the email
          registration type (pass <code>""</code> otherwise). Passwords need at least 8 characters with upper case,
          lower case, a number and a symbol. Registration fails on a name already taken, an invalid email address or
          passwords that don't match.
        </p>
        <EngineSample name="register_player" />
        <HttpCall
          method="POST"
          path="/v1/players"
          body={'{"player_name": "a_player", "email": "player@example.com", "password": "…", "confirm_password": "…"}'}
          answer={`{
  "player": {
    "player_name": "a_player",
    "email": "player@example.com",
    "state": "UNCONFIRMED"
  },
  "confirmation_required": true
}`}
        />
      </Step>

      <Step id="emailConfirmation">
        <p>
          With email confirmation on, a new player is <code>UNCONFIRMED</code> until they enter the 6-digit code mailed
          to them (valid 24 hours; the fifth wrong try ends it). Logging in before that answers{' '}
          <code>UserNotConfirmed</code>. A player who lost the mail can ask for a fresh code.
        </p>
        <EngineSample name="confirm_email" />
        <HttpCall
          method="POST"
          path="/v1/players/confirm"
          body='{"player_name": "a_player", "code": "123456"}'
          answer={`{
  ${PLAYER}
}`}
        />
        <HttpCall
          method="POST"
          path="/v1/players/resend-code"
          body='{"player_name": "a_player"}'
          answer={`{ "ok": true }`}
        />
      </Step>

      <Step id="login">
        <p>
          Log a player in with their name and password. The plugin keeps the session and sends it with the calls that
          need it. A wrong name or password both answer <code>NotAuthorized</code>; a disabled player answers{' '}
          <code>PlayerDisabled</code>.
        </p>
        <EngineSample name="login_player" />
        <HttpCall
          method="POST"
          path="/v1/players/login"
          body='{"player_name": "a_player", "password": "…", "remember_me": false}'
          answer={`{
  "access_token": "yNBDlDfn6McYRKXyt2mKWdjkh1rm1YCmCf4bfg6p868",
  "expires_at": "2026-11-23T03:41:40.633Z",
  ${PLAYER}
}`}
        />
        <p>Who is logged in, as the server sees it:</p>
        <EngineSample name="current_player" />
        <HttpCall
          method="GET"
          path="/v1/players/me"
          bearer
          answer={`{
  "player_name": "a_player",
  "email": "player@example.com",
  "state": "CONFIRMED"
}`}
        />
      </Step>

      <Step id="resetPassword">
        <p>
          A forgotten password is reset in two steps (email registration only): ask for a code, which is mailed to the
          player and is valid 15 minutes, then set a new password with it. From the request on, the old password no
          longer works (the player is <code>RESET_REQUIRED</code>) and every session of the player ends, on every
          device; the player logs in again with the new password.
        </p>
        <EngineSample name="reset_password" />
        <HttpCall
          method="POST"
          path="/v1/players/password-reset"
          body='{"player_name": "a_player"}'
          answer={`{ "ok": true }`}
        />
        <HttpCall
          method="POST"
          path="/v1/players/password-reset/confirm"
          body='{"player_name": "a_player", "code": "123456", "password": "…", "confirm_password": "…"}'
          answer={`{ "ok": true }`}
        />
      </Step>

      <Step id="savedSessions">
        <p>
          Log in with <code>remember_me</code> to keep the player logged in between launches. The plugin stores the
          saved session on the device (in <code>user://</code>); call <code>resume_session()</code> when the game starts
          to trade it for a fresh session, and again when that session runs out during play. It lasts the number of
          saved session days set above.
        </p>
        <EngineSample name="saved_sessions" />
        <HttpCall
          method="POST"
          path="/v1/players/sessions/resume"
          body='{"saved_session": "uWtL4P-F8wCjHNpdtej7lnQhMYUweCla1WE8w6ecpuk"}'
          answer={`{
  "access_token": "f12zwuzB92uz5-LQZD7kH9WL-HWa2nfIlGE9I58jRQA",
  "expires_at": "2026-11-23T03:41:40.893Z",
  ${PLAYER}
}`}
        />
        <p>
          With <code>remember_me</code>, the login answer also holds{' '}
          <code>{'"saved_session": { "token": "…", "expires_at": "…" }'}</code>.
        </p>
      </Step>

      <Step id="logout">
        <p>
          Logging out ends the session and the saved session it came from, and clears the saved session on the device.
          Pass <code>true</code> to log the player out on every device.
        </p>
        <EngineSample name="logout_player" />
        <HttpCall method="POST" path="/v1/players/logout" bearer body='{"all": false}' answer={`{ "ok": true }`} />
      </Step>

      <Step id="dashboard">
        <p>
          The <Link to="/dashboard/players">Players dashboard</Link> lists your game's players with their email address,
          status and player data. From there you can disable or enable a player, set a new password, or delete a player.
          Disabling or deleting a player also ends their sessions.
        </p>
      </Step>

      <Step id="scenes">
        <p>
          The plugin comes with ready-made scenes for registration, email confirmation, login and password reset,
          designed for 1920 by 1080. Change to one of them, or instance it in a scene of yours and restyle it.
        </p>
        <EngineSample name="auth_scenes" />
      </Step>

      <Step id="troubleshooting">
        <p>
          Set <code>log_level</code> to 2 to see every call in the output. A call answering{' '}
          <code>PlayerAuthDisabled</code> means player authentication is off in the panel above. More answers are in the{' '}
          <Link to="/troubleshooting">troubleshooting guide</Link>.
        </p>
      </Step>

      <Step id="contact">
        <p>
          Stuck, or missing a feature? <Link to="/contact">Write to us</Link>: we read every message.
        </p>
      </Step>
    </DocLayout>
  );
}
