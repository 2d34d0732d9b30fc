/**
 * `tsx scripts/pack-plugins.ts [--out DIR]`
 *
 * Packs each `plugins/<engine>/addons/howl/` into `howl-<engine>-<version>.zip` holding `addons/howl/…`,
 * ready to unzip into a Godot project, plus `downloads.json` listing them (the /download page reads it
 * for the sizes). The version is the plugin.cfg's. `npm run build` writes them into the built site's
 * `download/` folder, which the server serves at /download/. The zips are deterministic: entries sorted,
 * one fixed timestamp, one compression level, editor leftovers left out.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { zipSync, type Zippable } from 'fflate';
import {
  pluginEngines,
  pluginZipName,
  type PluginDownload,
  type PluginDownloads,
  type PluginEngine,
} from '@howl/contract';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_OUT = join(ROOT, 'packages/web/dist/download');

/** What the Godot editor leaves in a folder, never part of the addon (Godot 4's *.uid files are). */
const EDITOR_LEFTOVERS = new Set(['.godot', '.import', '.DS_Store', 'Thumbs.db']);

/** Made from local-time fields when packing, so the zip's DOS timestamps are the same in every time zone. */
const fixedMtime = () => new Date(2000, 0, 1, 0, 0, 0);
const DOS_DIRECTORY = 0x10;

export const addonFolder = (engine: PluginEngine, root = ROOT) => join(root, 'plugins', engine, 'addons', 'howl');

/** The `[plugin]` keys of a plugin.cfg, unquoted. */
export function readPluginCfg(folder: string): Record<string, string> {
  const text = readFileSync(join(folder, 'plugin.cfg'), 'utf8');
  const keys: Record<string, string> = {};
  let section = '';
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) section = header[1]!;
    const pair = /^\s*(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(line);
    if (pair && section === 'plugin') keys[pair[1]!] = pair[2]!.replace(/\\(.)/g, '$1');
  }
  return keys;
}

export function pluginVersion(folder: string): string {
  const version = readPluginCfg(folder).version;
  if (!version || !/^[0-9A-Za-z.+-]+$/.test(version)) {
    throw new Error(`${join(folder, 'plugin.cfg')} has no usable version ("${version ?? ''}")`);
  }
  return version;
}

/** The addon's files, as sorted paths relative to its folder with `/`; editor leftovers and links left out. */
export function addonFiles(folder: string, prefix = ''): string[] {
  const files: string[] = [];
  const entries = readdirSync(join(folder, prefix), { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const entry of entries) {
    if (EDITOR_LEFTOVERS.has(entry.name)) continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...addonFiles(folder, path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

interface Tree {
  [name: string]: Tree | Uint8Array;
}

/** fflate's input: a directory is `[children, attributes]`, stored (level 0) and marked as a directory. */
function zippable(tree: Tree): Zippable {
  const out: Zippable = {};
  for (const [name, node] of Object.entries(tree)) {
    out[name] = node instanceof Uint8Array ? node : [zippable(node), { level: 0, attrs: DOS_DIRECTORY }];
  }
  return out;
}

/** The zip of one addon folder: `addons/howl/<file>` for each file, with directory entries. */
export function packAddon(folder: string): Uint8Array {
  const files = addonFiles(folder);
  if (!files.includes('plugin.cfg')) throw new Error(`${folder} has no plugin.cfg`);
  const howl: Tree = {};
  for (const file of files) {
    const parts = file.split('/');
    let dir = howl;
    for (const part of parts.slice(0, -1)) dir = (dir[part] ??= {}) as Tree;
    dir[parts.at(-1)!] = new Uint8Array(readFileSync(join(folder, file)));
  }
  // Entries keep insertion order, which is sorted.
  return zipSync(zippable({ addons: { howl } }), { level: 9, mtime: fixedMtime() });
}

/** Packs every engine's addon into `outDir` (emptied first) and writes `downloads.json` beside the zips. */
export function packPlugins(outDir = DEFAULT_OUT, root = ROOT): PluginDownloads {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const downloads: PluginDownload[] = pluginEngines.map((engine) => {
    const folder = addonFolder(engine, root);
    const version = pluginVersion(folder);
    const zip = packAddon(folder);
    const file = pluginZipName(engine, version);
    writeFileSync(join(outDir, file), zip);
    return { engine, version, file, bytes: zip.byteLength, sha256: createHash('sha256').update(zip).digest('hex') };
  });
  const manifest = { downloads };
  writeFileSync(join(outDir, 'downloads.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const i = process.argv.indexOf('--out');
  const outDir = i > 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]!) : DEFAULT_OUT;
  const { downloads } = packPlugins(outDir);
  for (const d of downloads) console.log(`packed ${d.file} (${d.bytes} bytes) into ${outDir}`);
}
