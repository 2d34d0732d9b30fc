import { Package } from 'lucide-react';
import { Link } from 'react-router';
import { useCurrentGame, useSession } from '../api/session/queries.js';
import { EngineSample } from '../components/CodeBlock.js';
import { PLUGIN_VERSIONS } from '../components/content/constants.js';
import { DocPage, Section, Wide } from '../components/content/DocPage.js';
import { Notice } from '../components/ui.js';

const SECTIONS = [
  { id: 'versions', title: 'Plugin versions' },
  { id: 'install', title: 'Install the plugin' },
  { id: 'configure', title: 'Configure your game' },
  { id: 'check', title: 'Check the setup' },
  { id: 'next', title: 'Next steps' },
];

const RELEASES = [
  {
    engine: 'Godot 3.x',
    version: PLUGIN_VERSIONS.godot3,
    note: 'For projects on Godot 3.x, using yield and string-named signals.',
  },
  {
    engine: 'Godot 4.x',
    version: PLUGIN_VERSIONS.godot4,
    note: 'For projects on Godot 4, using await and typed signals.',
  },
];

/** Plugin download and install instructions (spec §2.10). */
export function Download() {
  return (
    <DocPage
      eyebrow="Download"
      title="The Howl plugin for Godot"
      lead={
        <p>One addon folder gives your game leaderboards, player accounts and player data. Pick your engine version:</p>
      }
      sections={SECTIONS}
    >
      <Section id="versions" title="Plugin versions">
        <ul className="not-prose !list-none !pl-0 grid gap-4 sm:grid-cols-2">
          {RELEASES.map((r) => (
            <li key={r.engine} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
              <div className="flex items-center gap-3">
                <span aria-hidden className="grid size-10 place-items-center rounded-lg bg-brand-50 text-brand-600">
                  <Package className="size-5" />
                </span>
                <div>
                  <p className="font-semibold text-ink">{r.engine}</p>
                  <p className="text-sm text-slate-500">Howl plugin version {r.version}</p>
                </div>
              </div>
              <p className="mt-3 text-sm text-slate-600">{r.note}</p>
              <p className="mt-3 text-sm font-medium text-slate-500">Download package: not available yet</p>
            </li>
          ))}
        </ul>
        <Notice tone="info">
          The download packages arrive with the plugin release and are not available yet. The steps below are the ones
          you will follow once they are out.
        </Notice>
      </Section>

      <Section id="install" title="Install the plugin">
        <ol>
          <li>
            Unzip the package for your engine version and copy its <code>howl</code> folder into your project's{' '}
            <code>res://addons/</code> folder, so that you have <code>res://addons/howl/</code>.
          </li>
          <li>
            In Godot, open <strong>Project → Project Settings → Plugins</strong> and enable <strong>Howl</strong>.
          </li>
          <li>
            Open the <strong>Autoload</strong> tab of the project settings. Check that an autoload named{' '}
            <code>Howl</code> points at <code>res://addons/howl/howl.gd</code>; if it is missing, add it with that path
            and that name. Every script of your game then reaches the plugin as <code>Howl</code>.
          </li>
        </ol>
      </Section>

      <Section id="configure" title="Configure your game">
        <p>
          Call <code>Howl.configure</code> once, before the first call, with your game's API key and game id. You find
          both on the dashboard once you have created a game. Set the log level to <code>0</code> (errors only),{' '}
          <code>1</code> (info) or <code>2</code> (debug, every request and answer). On Godot 3.x, also set your game's
          version.
        </p>
        <Wide>
          <EngineSample name="configure" />
        </Wide>
        <KeyHint />
      </Section>

      <Section id="check" title="Check the setup">
        <p>
          Run this once from any scene. If the key or the game id is wrong, the answer carries an{' '}
          <code>InvalidApiKey</code> error; see <Link to="/troubleshooting">troubleshooting</Link>.
        </p>
        <Wide>
          <EngineSample name="ping" />
        </Wide>
      </Section>

      <Section id="next" title="Next steps">
        <ul>
          <li>
            Set up leaderboards, player accounts and player data: see the <Link to="/features">features</Link>.
          </li>
          <li>
            Learn how to wait for answers, use signals or send calls without waiting in{' '}
            <Link to="/callingHowl">Calling Howl</Link>.
          </li>
          <li>
            Writing your game in C#? Read <Link to="/cSharp">Howl from C#</Link>.
          </li>
          <li>
            Exporting to Android? Read <Link to="/mobileExport">mobile export</Link>.
          </li>
        </ul>
      </Section>
    </DocPage>
  );
}

/** Where the developer finds the key and id: the dashboard when a game exists, else sign in or create one. */
function KeyHint() {
  const { data: session } = useSession();
  const game = useCurrentGame();
  if (game) {
    return (
      <p>
        The API key and game id of <strong>{game.name}</strong> are on the <Link to="/dashboard/game">dashboard</Link>.
      </p>
    );
  }
  if (session) {
    return (
      <p>
        No game yet? <Link to="/createNewGame">Create one</Link> to get its API key and game id.
      </p>
    );
  }
  return (
    <p>
      <Link to="/auth">Sign in or sign up</Link> and create a game to get its API key and game id.
    </p>
  );
}
