import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = new URL('../..', import.meta.url).pathname;

export type Engine = 3 | 4;

/** Where `scripts/godot4-root.sh` keeps the Debian root that holds Godot 4. */
export const GODOT4_ROOT = process.env.GODOT4_ROOT ?? '/var/cache/howl/godot4-root';

/** Whether this machine can run the engine now (Godot 4's root may still have to be made). */
export function engineAvailable(engine: Engine): boolean {
  if (engine === 4) return existsSync(join(GODOT4_ROOT, 'usr/bin/godot'));
  // Godot 3.2.3 prints its version and exits with 255, so the answer is read, not the status.
  const probe = spawnSync('godot3-server', ['--version'], {
    encoding: 'utf8',
    env: { ...process.env, LANG: 'C.UTF-8' },
  });
  return /^3\.\d/m.test(probe.stdout ?? '');
}

/** Makes the Godot 4 root (cached: a second call only checks it) and answers its path. */
export function makeGodot4Root(): string {
  return execFileSync('bash', [join(REPO, 'scripts/godot4-root.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 600_000,
  }).trim();
}

/** The repository folder of an engine's test project. */
export function projectSource(engine: Engine): string {
  return join(REPO, `e2e/godot${engine}/project`);
}

/**
 * A copy of `e2e/godotN/project/` with the addon in `addons/howl/` and the site's samples in
 * `samples/`, plus a data folder for `user://` that every run of this copy shares (and nothing
 * else sees). For Godot 4 both live under the root's /tmp, where the engine can see them.
 */
export interface EngineProject {
  engine: Engine;
  /** The copy, as this process sees it. */
  dir: string;
  /** The copy, as the engine sees it. */
  enginePath: string;
  /** The folder for `XDG_DATA_HOME`, as the engine sees it (user:// lies under it). */
  engineDataHome: string;
  remove(): void;
}

/** An empty project folder for the engine (for Godot 4 under the root's /tmp), with its own data folder. */
function projectFolder(engine: Engine): EngineProject {
  const base = engine === 4 ? join(GODOT4_ROOT, 'tmp') : tmpdir();
  mkdirSync(base, { recursive: true });
  const top = mkdtempSync(join(base, `howl-godot${engine}-`));
  const dir = join(top, 'project');
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(top, 'data'), { recursive: true });
  const inner = (path: string) => (engine === 4 ? path.slice(GODOT4_ROOT.length) : path);
  return {
    engine,
    dir,
    enginePath: inner(dir),
    engineDataHome: inner(join(top, 'data')),
    remove: () => rmSync(top, { recursive: true, force: true }),
  };
}

export function prepareProject(engine: Engine): EngineProject {
  const project = projectFolder(engine);
  const { dir } = project;
  cpSync(projectSource(engine), dir, { recursive: true });
  cpSync(join(REPO, `plugins/godot${engine}/addons/howl`), join(dir, 'addons/howl'), { recursive: true });
  const samples = join(REPO, `packages/web/src/samples/godot${engine}`);
  if (existsSync(samples)) {
    mkdirSync(join(dir, 'samples'), { recursive: true });
    for (const file of readdirSync(samples).filter((f) => f.endsWith('.gd'))) {
      cpSync(join(samples, file), join(dir, 'samples', file));
    }
  }
  // One manifest for both engines' samples harness: what each sample needs and what to call.
  cpSync(join(REPO, 'e2e/samples-manifest.json'), join(dir, 'samples_manifest.json'));
  return project;
}

/** A copy of a project folder of the repository as it is (no addon, no samples), with its own data folder. */
export function copyProject(engine: Engine, source: string): EngineProject {
  const project = projectFolder(engine);
  cpSync(join(REPO, source), project.dir, { recursive: true });
  return project;
}

/**
 * A new project as the engine's project manager makes it: only `project.godot`, named `name`
 * (Godot 4 also lists its version among the features, as 4.x does).
 */
export function newProject(engine: Engine, name: string): EngineProject {
  const project = projectFolder(engine);
  const header =
    '; Engine configuration file.\n' +
    "; It's best edited using the editor UI and not directly,\n" +
    '; since the parameters that go here are not all obvious.\n' +
    ';\n; Format:\n;   [section] ; section goes between []\n;   param=value ; assign values to parameters\n\n';
  const body =
    engine === 4
      ? `config_version=5\n\n[application]\n\nconfig/name=${JSON.stringify(name)}\nconfig/features=PackedStringArray("4.6")\n`
      : `config_version=4\n\n[application]\n\nconfig/name=${JSON.stringify(name)}\n`;
  writeFileSync(join(project.dir, 'project.godot'), header + body);
  return project;
}

export interface EngineRun {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
}

/** The command line that runs Godot on a project, with extra arguments. */
function command(project: EngineProject, args: string[]): [string, string[]] {
  if (project.engine === 4)
    return ['chroot', [GODOT4_ROOT, 'godot', '--headless', '--path', project.enginePath, ...args]];
  return ['godot3-server', ['--path', project.enginePath, ...args]];
}

/**
 * Runs the project's main scene with `env` (e2e/engines.md) and answers everything it printed.
 * Past `timeoutMs` the engine is killed (and `timedOut` set): a hung call must not hang the suite.
 */
export function runGodot(
  project: EngineProject,
  env: Record<string, string>,
  { timeoutMs = 120_000, args = [] as string[] } = {},
): Promise<EngineRun> {
  const [file, argv] = command(project, args);
  const child = spawn(file, argv, {
    // Only what the scenario needs: the engine inside the root must not see this process's secrets.
    env: {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOME: project.engine === 4 ? '/root' : (process.env.HOME ?? '/root'),
      LANG: 'C.UTF-8',
      XDG_DATA_HOME: project.engineDataHome,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The whole group: the engine and anything it started.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ output, exitCode, timedOut });
    });
  });
}

/** Opens the project in the editor, headless, until the editor quits (an editor plugin of the project quits it). */
export function runEditor(project: EngineProject, env: Record<string, string> = {}, timeoutMs = 120_000) {
  return runGodot(project, env, { timeoutMs, args: ['--editor'] });
}

/** Imports the project's resources once (Godot 4 needs it before scenes that load fonts or textures). */
export async function importProject(project: EngineProject): Promise<EngineRun> {
  if (project.engine === 4) return runGodot(project, {}, { timeoutMs: 120_000, args: ['--import'] });
  return runGodot(project, {}, { timeoutMs: 120_000, args: ['--editor', '--quit'] });
}
