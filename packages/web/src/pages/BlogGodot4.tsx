import { Link } from 'react-router';
import { EngineSample } from '../components/CodeBlock.js';
import { PLUGIN_VERSIONS } from '../components/content/constants.js';
import { DocPage, Section, Wide } from '../components/content/DocPage.js';

const SECTIONS = [
  { id: 'two-plugins', title: 'Two plugins, one backend' },
  { id: 'what-changed', title: 'What changed for Godot 4' },
  { id: 'upgrading', title: 'Upgrading a game' },
];

/** Blog post: Howl and Godot 4. */
export function BlogGodot4() {
  return (
    <DocPage
      eyebrow="Blog"
      title="Howl and Godot 4"
      lead={
        <p>
          Godot 4 changed how GDScript waits, connects and sends requests. Here is what that means for the Howl plugin.
        </p>
      }
      sections={SECTIONS}
    >
      <Section id="two-plugins" title="Two plugins, one backend">
        <p>
          There are two builds of the Howl plugin: version {PLUGIN_VERSIONS.godot3} for Godot 3.x and version{' '}
          {PLUGIN_VERSIONS.godot4} for Godot 4. Both talk to the same Howl backend, with the same API key and game id.
          Games on either engine can share a leaderboard, and the dashboard shows which engine each score came from.
        </p>
      </Section>

      <Section id="what-changed" title="What changed for Godot 4">
        <ul>
          <li>
            <strong>
              <code>await</code> instead of <code>yield</code>.
            </strong>{' '}
            Godot 4 replaced <code>yield(…, "completed")</code> with <code>await</code>, and so does the plugin: every
            call can be awaited and gives back the answer directly.
          </li>
          <li>
            <strong>Typed signals.</strong> Signals are now properties you connect to with a <code>Callable</code>,
            which the editor checks for typos.
          </li>
          <li>
            <strong>Simpler configuration.</strong> The Godot 4 plugin needs only the API key, the game id and the log
            level (and, on a server of your own, its address as <code>base_url</code>).
          </li>
          <li>
            <strong>The new HTTP stack.</strong> The plugin uses Godot 4's <code>HTTPRequest</code> and TLS options, so
            requests follow the engine's certificate settings.
          </li>
        </ul>
        <Wide>
          <EngineSample name="blog_signals" />
        </Wide>
      </Section>

      <Section id="upgrading" title="Upgrading a game">
        <ol>
          <li>Convert your project with Godot 4's project converter.</li>
          <li>
            Replace <code>res://addons/howl/</code> with the Godot 4 build from the{' '}
            <Link to="/download">download page</Link>, and fill in its configuration again.
          </li>
          <li>
            Turn <code>yield(…, "completed")</code> into <code>await</code> and string-named connections into signal
            properties, as described in <Link to="/callingHowl">Calling Howl</Link>.
          </li>
        </ol>
        <p>
          Your leaderboards, players and player data stay where they are: nothing changes on the Howl side. Questions?{' '}
          <Link to="/contact">Get in touch</Link>.
        </p>
      </Section>
    </DocPage>
  );
}
