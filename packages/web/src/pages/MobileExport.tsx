import { Link } from 'react-router';
import { EngineSample } from '../components/CodeBlock.js';
import { DocPage, Section, Wide } from '../components/content/DocPage.js';

const SECTIONS = [
  { id: 'why', title: 'Why Android needs a permission' },
  { id: 'godot-3', title: 'Godot 3.x' },
  { id: 'godot-4', title: 'Godot 4.x' },
  { id: 'check', title: 'Check it on a device' },
  { id: 'ios', title: 'And iOS?' },
];

/** Guide: the INTERNET permission for Android exports. */
export function MobileExport() {
  return (
    <DocPage
      eyebrow="Guides"
      title="Mobile export"
      lead={<p>Your game reaches Howl in the editor but not on an Android phone? It is almost always one checkbox.</p>}
      sections={SECTIONS}
    >
      <Section id="why" title="Why Android needs a permission">
        <p>
          Android lets an app use the network only if the app declares the <code>INTERNET</code> permission. Godot's
          Android export preset does not declare it by default, so an exported game cannot make any HTTP request: every
          Howl call fails with a <code>NetworkError</code>, while the same game works in the editor and on desktop.
        </p>
      </Section>

      <Section id="godot-3" title="Godot 3.x">
        <ol>
          <li>
            Open <strong>Project → Export…</strong> and select your <strong>Android</strong> preset.
          </li>
          <li>
            In the <strong>Options</strong> tab, scroll to <strong>Permissions</strong>.
          </li>
          <li>
            Tick <strong>Internet</strong>.
          </li>
          <li>Export the game again and install the new build on the device.</li>
        </ol>
      </Section>

      <Section id="godot-4" title="Godot 4.x">
        <ol>
          <li>
            Open <strong>Project → Export…</strong> and select your <strong>Android</strong> preset.
          </li>
          <li>
            In the <strong>Options</strong> tab, open the <strong>Permissions</strong> section.
          </li>
          <li>
            Tick <strong>Internet</strong>.
          </li>
          <li>Export the game again and install the new build on the device.</li>
        </ol>
        <p>
          The setting is saved in <code>export_presets.cfg</code>, so commit that file to keep it for every build.
        </p>
      </Section>

      <Section id="check" title="Check it on a device">
        <p>Run the setup check from the first scene of your game and watch the device log:</p>
        <Wide>
          <EngineSample name="ping" />
        </Wide>
        <p>
          If it still fails, set <code>log_level</code> to <code>2</code> and read{' '}
          <Link to="/troubleshooting">troubleshooting</Link>.
        </p>
      </Section>

      <Section id="ios" title="And iOS?">
        <p>
          iOS apps need no extra permission to make HTTPS requests, and Howl is reached over HTTPS, so an iOS export
          works without changes.
        </p>
      </Section>
    </DocPage>
  );
}
