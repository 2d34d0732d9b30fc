import { Link } from 'react-router';
import { EngineSample } from '../components/CodeBlock.js';
import { DocPage, Section, Wide } from '../components/content/DocPage.js';

const SECTIONS = [
  { id: 'why', title: 'Why Android needs a permission' },
  { id: 'godot-3', title: 'Godot 3.x' },
  { id: 'godot-4', title: 'Godot 4.x' },
  { id: 'cleartext', title: 'Plain http:// to your own server' },
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

      <Section id="cleartext" title="Plain http:// to your own server">
        <p>
          Testing against a Howl server you run yourself, with a <code>base_url</code> such as{' '}
          <code>http://192.168.1.20:8080</code>? Android 9 and newer also refuse plain <code>http://</code> unless the
          app allows cleartext traffic, and the calls fail with a <code>NetworkError</code>. Use an{' '}
          <code>https://</code> address where you can; for local tests:
        </p>
        <ol>
          <li>
            Run <strong>Project → Install Android Build Template…</strong> and, in the Android preset, turn on the
            Gradle build (<strong>Use Custom Build</strong> in Godot 3.x, <strong>Use Gradle Build</strong> in Godot
            4.x).
          </li>
          <li>
            In <code>android/build/AndroidManifest.xml</code>, add <code>android:usesCleartextTraffic="true"</code> to
            the <code>&lt;application&gt;</code> element.
          </li>
          <li>Export the game again. Leave cleartext off in the build you publish, which talks to https://.</li>
        </ol>
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
          iOS apps need no extra permission to make HTTPS requests, so an iOS export works without changes when{' '}
          <code>base_url</code> is an <code>https://</code> address. iOS refuses plain <code>http://</code>.
        </p>
      </Section>
    </DocPage>
  );
}
