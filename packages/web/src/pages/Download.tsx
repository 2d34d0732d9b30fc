import { DOWNLOAD_PATH, pluginZipName, type PluginEngine } from '@howl/contract';
import { Download as DownloadIcon, Package } from 'lucide-react';
import { Link } from 'react-router';
import { usePluginDownloads } from '../api/downloads/queries.js';
import { useCurrentGame, useSession } from '../api/session/queries.js';
import { EngineSample } from '../components/CodeBlock.js';
import { PLUGIN_VERSIONS } from '../components/content/constants.js';
import { DocPage, Section, Wide } from '../components/content/DocPage.js';
import { InstallSteps } from '../components/content/InstallSteps.js';

const SECTIONS = [
  { id: 'versions', title: 'Plugin versions' },
  { id: 'install', title: 'Install the plugin' },
  { id: 'configure', title: 'Configure your game' },
  { id: 'check', title: 'Check the setup' },
  { id: 'self-hosting', title: 'Self-hosting and local testing' },
  { id: 'next', title: 'Next steps' },
];

const RELEASES: { id: PluginEngine; engine: string; version: string; note: string }[] = [
  {
    id: 'godot3',
    engine: 'Godot 3.x',
    version: PLUGIN_VERSIONS.godot3,
    note: 'For projects on Godot 3.x, using yield and string-named signals.',
  },
  {
    id: 'godot4',
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
              <ZipLink engine={r.id} version={r.version} label={r.engine} />
            </li>
          ))}
        </ul>
        <p>
          Each zip holds the folder <code>addons/howl/</code>, ready to drop into a project.
        </p>
      </Section>

      <Section id="install" title="Install the plugin">
        <InstallSteps onDownloadPage />
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
          Run this once from any scene, in a node that is ready after the one that calls <code>Howl.configure</code>{' '}
          (Godot readies a node's children before the node itself, and siblings in order). If the key or the game id is
          wrong, the answer carries an <code>InvalidApiKey</code> error; see{' '}
          <Link to="/troubleshooting">troubleshooting</Link>.
        </p>
        <Wide>
          <EngineSample name="ping" />
        </Wide>
      </Section>

      <Section id="self-hosting" title="Self-hosting and local testing">
        <SelfHosting />
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

/** The zip of one engine: a plain link the server answers with the file, and its size once the list has come. */
function ZipLink({ engine, version, label }: { engine: PluginEngine; version: string; label: string }) {
  const file = pluginZipName(engine, version);
  const { data } = usePluginDownloads();
  const bytes = data?.downloads.find((d) => d.file === file)?.bytes;
  return (
    <p className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <a
        href={`${DOWNLOAD_PATH}/${file}`}
        download={file}
        aria-label={`Download the plugin for ${label}, version ${version}`}
        className="inline-flex items-center gap-2 rounded-lg bg-brand-600 px-3 py-2 font-semibold text-white hover:bg-brand-700"
      >
        <DownloadIcon aria-hidden className="size-4" /> {file}
      </a>
      {bytes !== undefined && <span className="text-slate-500">{formatBytes(bytes)}</span>}
    </p>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Pointing a game at another Howl server, plain http:// while testing, and what Android then needs. */
function SelfHosting() {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <>
      <p>
        Howl is open source: you can run it yourself, on your own server or on your computer with <code>npm start</code>
        . The plugin talks to the server named by <code>base_url</code> in <code>Howl.configure</code>. Its default,{' '}
        <code>http://localhost:8080</code>, is the address <code>npm start</code> serves
        {origin ? (
          <>
            ; this site is at <code>{origin}</code>
          </>
        ) : null}
        .
      </p>
      <ul>
        <li>
          Plain <code>http://</code> works for local testing, in the editor and in desktop builds.
        </li>
        <li>
          Godot 3 connects only to the first address a name resolves to, often IPv6 <code>::1</code> for{' '}
          <code>localhost</code>. Howl listens on IPv6 and IPv4 unless <code>HOST</code> names one address; with{' '}
          <code>HOST=0.0.0.0</code>, use <code>http://127.0.0.1:8080</code> as <code>base_url</code> on Godot 3.
        </li>
        <li>
          On a phone, <code>localhost</code> is the phone itself: use your computer's address on the local network, such
          as <code>http://192.168.1.20:8080</code>.
        </li>
        <li>
          An Android export needs the <strong>Internet</strong> permission, and for plain <code>http://</code> it must
          also allow cleartext traffic, which Android 9 and newer refuse by default. See{' '}
          <Link to="/mobileExport">mobile export</Link>.
        </li>
        <li>
          iOS and web exports need <code>https://</code>.
        </li>
      </ul>
    </>
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
