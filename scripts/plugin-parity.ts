/**
 * `npm run plugin-parity` (part of `npm run lint`), or `tsx scripts/plugin-parity.ts --root DIR` for another checkout
 *
 * The static half of keeping the two plugins in lockstep (the engine suites are the other half):
 * - the public API of Howl.gd, scores.gd, players.gd and player_data.gd (every `func` not starting with
 *   `_`, with its parameter names and defaults, every `signal` with its parameter names) is the same on
 *   Godot 3 and Godot 4; types are not compared, since Godot 3 writes them differently or not at all;
 * - each plugin.cfg version equals the site's PLUGIN_VERSIONS and the plugin's `VERSION` constant;
 * - every method, signal and feature object the C# guide names exists in the Godot 4 plugin.
 * Prints what differs, and exits 1 if anything does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginEngine } from '@howl/contract';
import { PLUGIN_VERSIONS } from '../packages/web/src/components/content/constants.js';
import { addonFolder, readPluginCfg, ROOT } from './pack-plugins.js';

/** The scripts whose public API both engines share (docs/plugin.md). */
export const API_FILES = ['Howl.gd', 'scores.gd', 'players.gd', 'player_data.gd'] as const;
/** Howl's feature objects, as C# reaches them (`Get("Scores")`), and the script behind each. */
const FEATURES: Record<string, (typeof API_FILES)[number]> = {
  Scores: 'scores.gd',
  Players: 'players.gd',
  PlayerData: 'player_data.gd',
};

export interface GdParam {
  name: string;
  /** The default as written, without spaces outside strings; null when there is none. */
  default: string | null;
}
export interface GdMember {
  kind: 'func' | 'signal';
  name: string;
  params: GdParam[];
  isStatic: boolean;
  line: number;
}
export interface GdApi {
  funcs: Map<string, GdMember>;
  signals: Map<string, GdMember>;
  /** Top-level `const` values as written. */
  consts: Map<string, string>;
  /** Top-level `var` names. */
  vars: Set<string>;
}

/** Replaces comments with spaces, keeping strings and line breaks, so positions and line numbers stay. */
function stripComments(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '"' || c === "'") {
      const quote = source.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < source.length && !source.startsWith(quote, j)) j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + quote.length);
      i = j + quote.length;
    } else if (c === '#') {
      while (i < source.length && source[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Splits at `sep` outside brackets and strings; also finds where the bracket opened at 0 closes. */
function scan(text: string, sep: string): { parts: string[]; end: number } {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      i = j;
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) return { parts: [...parts, text.slice(start, i)], end: i };
      depth--;
    } else if (c === sep && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return { parts: [...parts, text.slice(start)], end: -1 };
}

/** `text` without whitespace outside strings: `{ "a": 1 }` and `{"a":1}` are the same default. */
function squeeze(text: string): string {
  return text.replace(/("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|\s+/g, (_m, str: string | undefined) => str ?? '');
}

function parseParam(text: string): GdParam | undefined {
  const m = /^\s*(\w+)\s*([\s\S]*)$/.exec(text);
  if (!m || !m[1]) return undefined;
  let rest = m[2]!.trim();
  if (rest.startsWith(':=')) return { name: m[1], default: squeeze(rest.slice(2)) };
  if (rest.startsWith(':')) rest = rest.slice(1);
  const eq = scan(rest, '=').parts;
  return { name: m[1], default: eq.length > 1 ? squeeze(eq.slice(1).join('=')) : null };
}

/** The public API of one GDScript file: top-level funcs and signals (names, parameters, defaults), consts, vars. */
export function parseGdApi(source: string): GdApi {
  const text = stripComments(source.replace(/\r\n?/g, '\n'));
  const api: GdApi = { funcs: new Map(), signals: new Map(), consts: new Map(), vars: new Set() };
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  // Only column-0 declarations: members of inner classes and locals are indented.
  const decl = /^(?:@\w+(?:\([^)]*\))?\s+)*(static\s+)?(func|signal|const|var|onready\s+var)\s+(\w+)/gm;
  for (let m = decl.exec(text); m; m = decl.exec(text)) {
    const [whole, isStatic, kind, name] = m as unknown as [string, string | undefined, string, string];
    const after = text.slice(m.index + whole.length);
    if (kind === 'const') {
      const value = /^\s*(?::\s*\w+\s*)?:?=\s*(.*)/.exec(after);
      if (value) api.consts.set(name, squeeze(value[1]!));
      continue;
    }
    if (kind.endsWith('var')) {
      api.vars.add(name);
      continue;
    }
    const open = /^\s*\(/.exec(after);
    const params = open ? scan(after.slice(open[0].length), ',').parts.map((p) => p.trim()) : [];
    const member: GdMember = {
      kind: kind as 'func' | 'signal',
      name,
      params: params.filter(Boolean).flatMap((p) => parseParam(p) ?? []),
      isStatic: Boolean(isStatic),
      line: lineAt(m.index),
    };
    if (name.startsWith('_')) continue;
    (kind === 'func' ? api.funcs : api.signals).set(name, member);
  }
  return api;
}

/** `func get_scores(max = 10, ldboard_name = "main")`, as a diff shows it. */
export function describeMember(m: GdMember): string {
  const params = m.params.map((p) => (p.default === null ? p.name : `${p.name} = ${p.default}`)).join(', ');
  return `${m.isStatic ? 'static ' : ''}${m.kind} ${m.name}(${params})`;
}

/** Where two engines' APIs of one file differ, one readable entry per member. */
export function compareApis(file: string, sides: [string, GdApi][]): string[] {
  const [[leftName, left], [rightName, right]] = sides as [[string, GdApi], [string, GdApi]];
  const problems: string[] = [];
  for (const kind of ['funcs', 'signals'] as const) {
    const names = [...new Set([...left[kind].keys(), ...right[kind].keys()])].sort();
    for (const name of names) {
      const a = left[kind].get(name);
      const b = right[kind].get(name);
      if (a && b && describeMember(a) === describeMember(b)) continue;
      problems.push(
        [
          `${file}: ${kind === 'funcs' ? 'func' : 'signal'} ${name} differs:`,
          `    ${leftName.padEnd(7)} ${a ? `${describeMember(a)}  (line ${a.line})` : '(missing)'}`,
          `    ${rightName.padEnd(7)} ${b ? `${describeMember(b)}  (line ${b.line})` : '(missing)'}`,
        ].join('\n'),
      );
    }
  }
  return problems;
}

/** A string constant's value, unquoted. */
const stringConst = (api: GdApi, name: string) => /^"((?:[^"\\]|\\.)*)"$/.exec(api.consts.get(name) ?? '')?.[1];

/** Each plugin.cfg version against the site's PLUGIN_VERSIONS and the plugin's own VERSION. */
export function checkVersions(engine: PluginEngine, folder: string, howl: GdApi, siteVersion: string): string[] {
  const cfg = readPluginCfg(folder).version;
  const constant = stringConst(howl, 'VERSION');
  const problems: string[] = [];
  if (cfg !== siteVersion) {
    problems.push(`${engine}: plugin.cfg says version "${cfg}", the site's PLUGIN_VERSIONS says "${siteVersion}"`);
  }
  if (constant !== cfg) problems.push(`${engine}: Howl.gd's VERSION is "${constant}", plugin.cfg says "${cfg}"`);
  return problems;
}

export interface CSharpUse {
  what: 'method' | 'signal' | 'feature' | 'autoload';
  name: string;
  /** The feature object the call is made on, when the sample shows where its variable comes from. */
  on?: string;
  /** The number of arguments passed after the method name. */
  args?: number;
}

/** The plugin names a C# sample uses: `GetNode("/root/Howl")`, `Get("Scores")`, `Call("save_score", …)`, signals. */
export function csharpUses(source: string): CSharpUse[] {
  const uses: CSharpUse[] = [];
  const objects = new Map<string, string>();
  for (const m of source.matchAll(/(\w+)\s*=\s*GetNode(?:<\w+>)?\("\/root\/(\w+)"\)/g)) {
    objects.set(m[1]!, 'Howl');
    uses.push({ what: 'autoload', name: m[2]! });
  }
  for (const m of source.matchAll(/(?:(\w+)\s*=\s*)?\w+\.Get\("(\w+)"\)/g)) {
    if (m[1]) objects.set(m[1], m[2]!);
    uses.push({ what: 'feature', name: m[2]! });
  }
  const on = (variable: string) => objects.get(variable);
  for (const m of source.matchAll(/(\w+)\.Call\("(\w+)"/g)) {
    const rest = source.slice(m.index + m[0].length);
    const args = rest.startsWith(')') ? 0 : scan(rest.replace(/^\s*,/, ''), ',').parts.length;
    uses.push({ what: 'method', name: m[2]!, on: on(m[1]!), args });
  }
  for (const m of source.matchAll(/ToSignal\(\s*(\w+)\s*,\s*"(\w+)"\s*\)/g)) {
    uses.push({ what: 'signal', name: m[2]!, on: on(m[1]!) });
  }
  for (const m of source.matchAll(/(\w+)\.Connect\("(\w+)"/g))
    uses.push({ what: 'signal', name: m[2]!, on: on(m[1]!) });
  return uses;
}

/** The name plugin.gd gives the autoload: `add_autoload_singleton("Howl", …)`, or through a constant. */
export function autoloadName(pluginGd: string): string | undefined {
  const arg = /add_autoload_singleton\(\s*("?)(\w+)\1/.exec(pluginGd);
  if (!arg) return undefined;
  return arg[1] ? arg[2] : stringConst(parseGdApi(pluginGd), arg[2]!);
}

/** Checks the C# guide's names against the Godot 4 plugin's scripts (file name → API) and its autoload name. */
export function checkCSharp(uses: CSharpUse[], apis: Map<string, GdApi>, autoload: string | undefined): string[] {
  const problems: string[] = [];
  if (!uses.some((u) => u.what === 'method')) problems.push('C# guide: found no .Call("…") to check');
  const howl = apis.get('Howl.gd');
  for (const use of uses) {
    if (use.what === 'autoload') {
      if (use.name !== autoload)
        problems.push(`C# guide: GetNode("/root/${use.name}"), but plugin.gd adds "${autoload}"`);
      continue;
    }
    if (use.what === 'feature') {
      if (!FEATURES[use.name] || !howl?.vars.has(use.name)) {
        problems.push(`C# guide: Get("${use.name}"), but Howl.gd has no feature object ${use.name}`);
      }
      continue;
    }
    const files = use.on ? [use.on === 'Howl' ? 'Howl.gd' : (FEATURES[use.on] ?? '')] : [...apis.keys()];
    const kind = use.what === 'method' ? 'funcs' : 'signals';
    const found = files.map((f) => apis.get(f)?.[kind].get(use.name)).find(Boolean);
    const where = use.on ? `Howl${use.on === 'Howl' ? '' : `.${use.on}`}` : 'the Godot 4 plugin';
    if (!found) {
      problems.push(`C# guide: ${use.what} ${use.name} is not in ${where}`);
    } else if (use.args !== undefined) {
      const required = found.params.filter((p) => p.default === null).length;
      if (use.args < required || use.args > found.params.length) {
        problems.push(
          `C# guide: ${use.name} is called with ${use.args} arguments, ${describeMember(found)} takes ${required}–${found.params.length}`,
        );
      }
    }
  }
  return problems;
}

/** The C# guide and the local files it imports (its samples may live beside the page). */
export function csharpGuideSource(page: string): string {
  const text = readFileSync(page, 'utf8');
  const imported = [...text.matchAll(/from\s+'(\.{1,2}\/[^'?]+)(?:\?raw)?'/g)].flatMap((m) => {
    const base = resolve(dirname(page), m[1]!);
    const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')];
    const file = candidates.find((c) => existsSync(c) && !c.endsWith('.js'));
    return file ? [readFileSync(file, 'utf8')] : [];
  });
  return [text, ...imported].join('\n');
}

const ENGINES: PluginEngine[] = ['godot3', 'godot4'];

/** Every problem the check finds in a checkout; empty when the plugins agree. */
export function pluginParityProblems(
  root = ROOT,
  siteVersions: Record<PluginEngine, string> = PLUGIN_VERSIONS,
): {
  problems: string[];
  summary: string;
} {
  const problems: string[] = [];
  const apis = new Map<PluginEngine, Map<string, GdApi>>();
  for (const engine of ENGINES) {
    const folder = addonFolder(engine, root);
    const files = new Map<string, GdApi>();
    for (const file of API_FILES) {
      const path = join(folder, file);
      if (existsSync(path)) files.set(file, parseGdApi(readFileSync(path, 'utf8')));
      else problems.push(`${engine}: ${file} is missing from ${join('plugins', engine, 'addons/howl')}`);
    }
    apis.set(engine, files);
    if (existsSync(join(folder, 'plugin.cfg')) && files.has('Howl.gd')) {
      problems.push(...checkVersions(engine, folder, files.get('Howl.gd')!, siteVersions[engine]));
    } else if (!existsSync(join(folder, 'plugin.cfg'))) {
      problems.push(`${engine}: plugin.cfg is missing`);
    }
  }
  let funcs = 0;
  let signals = 0;
  for (const file of API_FILES) {
    const sides = ENGINES.flatMap((e) => {
      const api = apis.get(e)!.get(file);
      return api ? [[e, api] as [string, GdApi]] : [];
    });
    if (sides.length < 2) continue;
    problems.push(...compareApis(file, sides));
    funcs += sides[1]![1].funcs.size;
    signals += sides[1]![1].signals.size;
  }
  const pluginGd = join(addonFolder('godot4', root), 'plugin.gd');
  const autoload = existsSync(pluginGd) ? autoloadName(readFileSync(pluginGd, 'utf8')) : undefined;
  const uses = csharpUses(csharpGuideSource(join(root, 'packages/web/src/pages/CSharp.tsx')));
  problems.push(...checkCSharp(uses, apis.get('godot4')!, autoload));
  const summary =
    `plugin parity: ${funcs} functions and ${signals} signals alike on Godot 3 and Godot 4; ` +
    `versions ${siteVersions.godot3} and ${siteVersions.godot4}; the C# guide's ${uses.length} plugin names exist on Godot 4`;
  return { problems, summary };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const i = process.argv.indexOf('--root');
  const { problems, summary } = pluginParityProblems(
    i > 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]!) : ROOT,
  );
  if (problems.length > 0) {
    console.error(`The Howl plugins disagree (${problems.length}):\n\n${problems.join('\n\n')}\n`);
    process.exit(1);
  }
  console.log(summary);
}
