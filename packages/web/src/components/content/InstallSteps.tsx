import { Link } from 'react-router';

/**
 * The plugin's install steps, the one text every page shows (/download and the leaderboard, player
 * accounts and player data guides), so the pages cannot disagree. docs/plugin.md says the same.
 * On /download itself, the first step points at the packages above instead of linking to the page.
 */
export function InstallSteps({ onDownloadPage = false }: { onDownloadPage?: boolean }) {
  return (
    <ol>
      <li>
        {onDownloadPage ? (
          <>
            Download the zip for your engine (<a href="#versions">above</a>)
          </>
        ) : (
          <>
            <Link to="/download">Download the zip</Link> for your engine (Godot 3.x or 4.x)
          </>
        )}{' '}
        and unzip it into your project's folder, so that <code>res://addons/howl/plugin.cfg</code> exists.
      </li>
      <li>
        In Godot, open <strong>Project → Project Settings → Plugins</strong> and enable <strong>Howl</strong>. This adds
        the autoload <code>Howl</code> (<code>res://addons/howl/Howl.gd</code>), so every script of your game reaches
        the plugin as <code>Howl</code>.
      </li>
      <li>
        Call <code>Howl.configure</code> once, before the first call (for example in your first scene's{' '}
        <code>_ready</code>), with your game's API key and game id.
      </li>
    </ol>
  );
}
