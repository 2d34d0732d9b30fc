import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pluginDownloadsResponse, pluginEngines, type PluginDownload } from '@howl/contract';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_VERSIONS } from '../packages/web/src/components/content/constants.js';
import { addonFolder, packAddon, packPlugins, ROOT } from './pack-plugins.js';

const temp: string[] = [];
afterAll(() => temp.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'howl-pack-'));
  temp.push(dir);
  return dir;
}

function write(root: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** Every file under a folder, relative with `/`, walked here on its own rather than with the packer's walk. */
function walk(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(root, join(dir, e.name)) : [relative(root, join(dir, e.name)).split('\\').join('/')],
  );
}

const files = (zip: Record<string, Uint8Array>) => Object.keys(zip).filter((name) => !name.endsWith('/'));

describe('packing an addon folder', () => {
  const fixture = () => {
    const root = tempDir();
    for (const [engine, version] of [
      ['godot3', '1.2.3'],
      ['godot4', '4.5.6'],
    ] as const) {
      write(addonFolder(engine, root), {
        'plugin.cfg': `[plugin]\n\nname="Howl"\ndescription="Leaderboards"\nauthor="Howl"\nversion="${version}"\nscript="plugin.gd"\n`,
        'plugin.gd': '@tool\nextends EditorPlugin\n',
        'Howl.gd': 'extends Node\n',
        'Howl.gd.uid': 'uid://b1\n',
        'scenes/player_auth/Login.tscn': '[gd_scene format=3]\n',
        '.DS_Store': 'junk',
        '.godot/editor/cache': 'junk',
        '.import/icon.png-1.stex': 'junk',
        'scenes/.DS_Store': 'junk',
      });
    }
    return root;
  };

  it('holds addons/howl/ with every file of the folder, sorted, and no editor leftovers', () => {
    const root = fixture();
    const zip = unzipSync(packAddon(addonFolder('godot4', root)));
    expect(Object.keys(zip)).toEqual([
      'addons/',
      'addons/howl/',
      'addons/howl/Howl.gd',
      'addons/howl/Howl.gd.uid',
      'addons/howl/plugin.cfg',
      'addons/howl/plugin.gd',
      'addons/howl/scenes/',
      'addons/howl/scenes/player_auth/',
      'addons/howl/scenes/player_auth/Login.tscn',
    ]);
    expect(new TextDecoder().decode(zip['addons/howl/Howl.gd'])).toBe('extends Node\n');
  });

  it('makes the same bytes again, whatever the files’ dates and the time zone', () => {
    const root = fixture();
    const folder = addonFolder('godot3', root);
    const first = packAddon(folder);
    utimesSync(join(folder, 'Howl.gd'), new Date('2031-05-06T07:08:09Z'), new Date('2031-05-06T07:08:09Z'));
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      expect(Buffer.from(packAddon(folder)).equals(Buffer.from(first))).toBe(true);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('names each zip after its engine and its plugin.cfg version, and lists them in downloads.json', () => {
    const root = fixture();
    const out = join(tempDir(), 'download');
    const manifest = packPlugins(out, root);
    expect(readdirSync(out).sort()).toEqual(['downloads.json', 'howl-godot3-1.2.3.zip', 'howl-godot4-4.5.6.zip']);
    const written = pluginDownloadsResponse.parse(JSON.parse(readFileSync(join(out, 'downloads.json'), 'utf8')));
    expect(written).toEqual(manifest);
    for (const d of written.downloads) {
      const zip = readFileSync(join(out, d.file));
      expect(d.bytes).toBe(zip.byteLength);
      expect(d.sha256).toBe(createHash('sha256').update(zip).digest('hex'));
    }
  });

  it('refuses a folder without plugin.cfg or without a version', () => {
    const root = tempDir();
    write(addonFolder('godot3', root), { 'Howl.gd': '' });
    expect(() => packPlugins(join(root, 'out'), root)).toThrow(/plugin\.cfg/);
    write(addonFolder('godot3', root), { 'plugin.cfg': '[plugin]\nname="Howl"\n' });
    expect(() => packPlugins(join(root, 'out'), root)).toThrow(/no usable version/);
  });
});

describe('the zips of the real plugins', () => {
  const out = join(tempDir(), 'download');
  let downloads: PluginDownload[] = [];
  beforeAll(() => {
    downloads = packPlugins(out).downloads;
  });

  it('are named after each engine and the version the site shows', () => {
    expect(downloads.map((d) => d.file)).toEqual([
      `howl-godot3-${PLUGIN_VERSIONS.godot3}.zip`,
      `howl-godot4-${PLUGIN_VERSIONS.godot4}.zip`,
    ]);
  });

  it.each(pluginEngines)('the %s zip unzips to exactly the plugin folder, byte for byte', (engine) => {
    const d = downloads.find((x) => x.engine === engine)!;
    const folder = addonFolder(engine, ROOT);
    const expected = walk(folder)
      .filter((path) => !/(^|\/)(\.godot|\.import)\/|(^|\/)(\.DS_Store|Thumbs\.db)$/.test(path))
      .sort();
    const zip = unzipSync(readFileSync(join(out, d.file)));
    expect(files(zip).sort()).toEqual(expected.map((path) => `addons/howl/${path}`));
    expect(expected).toEqual(expect.arrayContaining(['plugin.cfg', 'plugin.gd', 'Howl.gd']));
    for (const path of expected) {
      const unzipped = Buffer.from(zip[`addons/howl/${path}`]!);
      expect(unzipped.equals(readFileSync(join(folder, path))), path).toBe(true);
    }
  });
});
