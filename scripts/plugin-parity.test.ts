import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkCSharp,
  compareApis,
  csharpUses,
  describeMember,
  parseGdApi,
  pluginParityProblems,
  type GdApi,
} from './plugin-parity.js';
import { ROOT } from './pack-plugins.js';

const GODOT4 = `extends Node
## Scores of the game.

signal score_saved(result: Dictionary)
signal scores_fetched(result: Dictionary) # one per call

const VERSION := "0.9.7"
var Scores: RefCounted

func save_score(player_name: String, score, metadata: Dictionary = {}, ldboard_name: String = "main") -> Dictionary:
	return {}

func get_scores(
	max: int = 10,  # 0 means all
	ldboard_name := "main",
	period_offset: int = 0,
) -> Dictionary:
	var local_func = "func not_a_member(x)"
	return {}

static func encode(text: String, keys: Array[String] = [], hash := "#") -> String:
	return text

func _private(x):
	pass

class Inner:
	func hidden(y):
		pass
`;

const GODOT3 = `extends Node

signal score_saved(result)
signal scores_fetched(result)

const VERSION = "0.9.7"
var Scores

func save_score(player_name, score, metadata = { }, ldboard_name = "main"):
	yield(get_tree(), "idle_frame")
	return {}

func get_scores(max = 10, ldboard_name: String = "main", period_offset = 0):
	return {}

static func encode(text, keys = [], hash = "#"):
	return text
`;

describe('parsing a plugin script', () => {
  it('reads every top-level public func and signal with parameter names and defaults, not types', () => {
    const api = parseGdApi(GODOT4);
    expect([...api.funcs.values()].map(describeMember)).toEqual([
      'func save_score(player_name, score, metadata = {}, ldboard_name = "main")',
      'func get_scores(max = 10, ldboard_name = "main", period_offset = 0)',
      'static func encode(text, keys = [], hash = "#")',
    ]);
    expect([...api.signals.values()].map(describeMember)).toEqual([
      'signal score_saved(result)',
      'signal scores_fetched(result)',
    ]);
    expect(api.consts.get('VERSION')).toBe('"0.9.7"');
    expect(api.vars.has('Scores')).toBe(true);
    expect(api.funcs.get('get_scores')!.line).toBe(13);
  });

  it('finds Godot 3 and Godot 4 spellings of one API alike', () => {
    expect(
      compareApis('scores.gd', [
        ['godot3', parseGdApi(GODOT3)],
        ['godot4', parseGdApi(GODOT4)],
      ]),
    ).toEqual([]);
  });

  it('fails on a different default, with both signatures in the message', () => {
    const changed = GODOT3.replace('max = 10', 'max = 20');
    const problems = compareApis('scores.gd', [
      ['godot3', parseGdApi(changed)],
      ['godot4', parseGdApi(GODOT4)],
    ]);
    expect(problems).toEqual([
      [
        'scores.gd: func get_scores differs:',
        '    godot3  func get_scores(max = 20, ldboard_name = "main", period_offset = 0)  (line 13)',
        '    godot4  func get_scores(max = 10, ldboard_name = "main", period_offset = 0)  (line 13)',
      ].join('\n'),
    ]);
  });

  it.each([
    ['a renamed parameter', 'func get_scores(max = 10, board = "main", period_offset = 0):', 'func get_scores'],
    ['a missing parameter', 'func get_scores(max = 10, ldboard_name = "main"):', 'func get_scores'],
    ['a default dropped', 'func get_scores(max, ldboard_name = "main", period_offset = 0):', 'func get_scores'],
    ['a missing function', 'func get_scores_renamed(max = 10, ldboard_name = "main", period_offset = 0):', '(missing)'],
    ['a signal parameter', '', 'signal score_saved'],
  ])('fails on %s', (what, line, expected) => {
    const changed =
      what === 'a signal parameter'
        ? GODOT3.replace('signal score_saved(result)', 'signal score_saved(answer)')
        : GODOT3.replace('func get_scores(max = 10, ldboard_name: String = "main", period_offset = 0):', line);
    const problems = compareApis('scores.gd', [
      ['godot3', parseGdApi(changed)],
      ['godot4', parseGdApi(GODOT4)],
    ]);
    expect(problems.join('\n')).toContain(expected);
  });
});

describe('the C# guide check', () => {
  const apis = new Map<string, GdApi>([
    ['Howl.gd', parseGdApi('var Scores\nvar Players\nvar PlayerData\nfunc configure(config):\n\tpass\n')],
    ['scores.gd', parseGdApi(GODOT4)],
    [
      'players.gd',
      parseGdApi('signal player_logged_in(result)\nfunc login_player(name, password, remember_me = false):\n\tpass\n'),
    ],
    ['player_data.gd', parseGdApi('')],
  ]);
  const sample = `
    _howl = GetNode("/root/Howl");
    _scores = _howl.Get("Scores").AsGodotObject();
    _scores.Call("save_score", playerName, score);
    var answer = await ToSignal(_scores, "score_saved");
    _scores.Connect("scores_fetched", Callable.From(OnScoresFetched));
  `;

  it('accepts names the plugin has, on the object that has them', () => {
    expect(checkCSharp(csharpUses(sample), apis, 'Howl')).toEqual([]);
  });

  it.each([
    [
      'a method the plugin lacks',
      sample.replace('"save_score"', '"submit_score"'),
      'method submit_score is not in Howl.Scores',
    ],
    [
      'a method on the wrong object',
      sample.replace('"save_score"', '"login_player"'),
      'method login_player is not in Howl.Scores',
    ],
    ['a signal the plugin lacks', sample.replace('"score_saved"', '"score_submitted"'), 'signal score_submitted'],
    ['too few arguments', sample.replace('playerName, score', 'playerName'), 'save_score is called with 1 arguments'],
    ['an unknown feature', sample.replace('Get("Scores")', 'Get("Leaderboards")'), 'no feature object Leaderboards'],
    ['another autoload name', sample, 'plugin.gd adds "HowlPlugin"'],
  ])('fails on %s', (what, source, expected) => {
    const problems = checkCSharp(csharpUses(source), apis, what === 'another autoload name' ? 'HowlPlugin' : 'Howl');
    expect(problems.join('\n')).toContain(expected);
  });
});

describe('the check on a checkout', () => {
  const temp: string[] = [];
  afterAll(() => temp.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A copy of the plugins and the C# guide, to break one thing at a time. */
  function checkout(): string {
    const root = mkdtempSync(join(tmpdir(), 'howl-parity-'));
    temp.push(root);
    execFileSync('cp', ['-r', join(ROOT, 'plugins'), join(root, 'plugins')]);
    const page = 'packages/web/src/pages/CSharp.tsx';
    mkdirSync(dirname(join(root, page)), { recursive: true });
    writeFileSync(join(root, page), readFileSync(join(ROOT, page), 'utf8'));
    return root;
  }
  const versions = { godot3: '0.6.20', godot4: '0.9.7' };

  it('finds the real plugins alike, at the site’s versions, and the C# guide’s names in the Godot 4 plugin', () => {
    const { problems, summary } = pluginParityProblems();
    expect(problems).toEqual([]);
    expect(summary).toMatch(/^plugin parity: \d+ functions and \d+ signals alike/);
  });

  it('fails when a plugin.cfg version is not the site’s', () => {
    const root = checkout();
    const cfg = join(root, 'plugins/godot4/addons/howl/plugin.cfg');
    writeFileSync(cfg, readFileSync(cfg, 'utf8').replace(/version="[^"]*"/, 'version="0.9.8"'));
    const { problems } = pluginParityProblems(root, versions);
    expect(problems).toContain(`godot4: plugin.cfg says version "0.9.8", the site's PLUGIN_VERSIONS says "0.9.7"`);
    expect(problems).toContain(`godot4: Howl.gd's VERSION is "0.9.7", plugin.cfg says "0.9.8"`);
  });

  it('fails when a default differs between the engines', () => {
    const root = checkout();
    const scores = join(root, 'plugins/godot3/addons/howl/scores.gd');
    const text = readFileSync(scores, 'utf8');
    const changed = text.replace(/(func get_scores\([^)]*?max[^=]*=\s*)10/, '$120');
    expect(changed).not.toBe(text);
    writeFileSync(scores, changed);
    const { problems } = pluginParityProblems(root, versions);
    expect(problems.join('\n')).toMatch(
      /scores\.gd: func get_scores differs:\n {4}godot3 {2}func get_scores\(\w+ = 20/,
    );
  });

  it('runs as a script that exits 1 and prints the differences', () => {
    const root = checkout();
    const players = join(root, 'plugins/godot4/addons/howl/players.gd');
    writeFileSync(players, `${readFileSync(players, 'utf8')}\nfunc only_on_godot4(x = 1):\n\tpass\n`);
    let output = '';
    let status = 0;
    try {
      execFileSync('npx', ['tsx', 'scripts/plugin-parity.ts', '--root', root], { cwd: ROOT, stdio: 'pipe' });
    } catch (err) {
      const e = err as { status: number; stderr: Buffer };
      status = e.status;
      output = e.stderr.toString();
    }
    expect(status).toBe(1);
    expect(output).toContain('players.gd: func only_on_godot4 differs:');
    expect(output).toContain('godot3  (missing)');
  });
});
