import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_CHECKS, type EnginePhase } from './support/engine-checks.js';
import { startFaults, type Faults } from './support/faults.js';
import {
  engineAvailable,
  importProject,
  makeGodot4Root,
  prepareProject,
  projectSource,
  runGodot,
  type Engine,
  type EngineProject,
} from './support/godot.js';
import { developer, http, startHowl, type Howl } from './support/howl.js';

const REQUIRED = process.env.REQUIRE_SERVICES === '1';

/** The passwords the scenarios give their players (e2e/engines.md); none may appear in the output. */
const SCENARIO_PASSWORDS = ['Howl-Player-1!', 'Howl-Player-2!'];

const PLUGINS: Record<Engine, { version: string; binary: string }> = {
  3: { version: '0.6.20', binary: 'godot3-server' },
  4: { version: '0.9.7', binary: 'Godot 4 (scripts/godot4-root.sh)' },
};

interface Game {
  game_id: string;
  api_key: string;
}

/** What a run printed, read the way e2e/engines.md says. */
function report(output: string) {
  const passed = [...output.matchAll(/^HOWL-TEST PASS (\S+)\s*$/gm)].map((m) => m[1]!);
  const failed = [...output.matchAll(/^HOWL-TEST FAIL (.*)$/gm)].map((m) => m[1]!);
  const done = /^HOWL-TEST DONE passed=(\d+) failed=(\d+)\s*$/m.exec(output);
  return { passed, failed, done: done ? { passed: Number(done[1]), failed: Number(done[2]) } : null };
}

for (const engine of [4, 3] as const) {
  const projectMissing = !existsSync(join(projectSource(engine), 'project.godot'));
  // Godot 4's root can be made here (scripts/godot4-root.sh), so with REQUIRE_SERVICES it is made, not skipped.
  const skip = !REQUIRED && (projectMissing || !engineAvailable(engine));

  describe.skipIf(skip)(`the Godot ${engine} plugin on ${PLUGINS[engine].binary}`, () => {
    let howl: Howl;
    let faults: Faults;
    let project: EngineProject;
    let cookie: string;
    let gameA: Game;
    let gameB: Game;
    const run = randomBytes(3).toString('hex');

    beforeAll(async () => {
      if (projectMissing) throw new Error(`e2e/godot${engine}/project/project.godot is missing`);
      if (engine === 4 && REQUIRED) makeGodot4Root();
      if (!engineAvailable(engine)) throw new Error(`REQUIRE_SERVICES=1 but Godot ${engine} cannot run here`);
      howl = await startHowl();
      faults = await startFaults(howl);
      cookie = await developer(howl, `godot${engine}-${run}@example.com`);
      gameA = await createGame('Game A');
      gameB = await createGame('Game B');
      await console('PATCH', `/api/games/${gameA.game_id}`, { allow_client_deletes: true });
      await console('PUT', `/api/games/${gameA.game_id}/player-auth`, {
        enabled: true,
        reg_type: 'email_un_pwd',
        email_confirmation: true,
        require_player_session: true,
      });
      await console('POST', `/api/games/${gameA.game_id}/leaderboards`, {
        name: 'weekly',
        time_based: 'weekly',
        timezone: 'UTC',
      });
      await console('PUT', `/api/games/${gameB.game_id}/player-auth`, {
        enabled: true,
        reg_type: 'un_pwd',
        session_duration_seconds: 3,
      });
      project = prepareProject(engine);
      const imported = await importProject(project);
      if (imported.timedOut) throw new Error(`the import timed out:\n${imported.output}`);
    }, 900_000);

    afterAll(async () => {
      project?.remove();
      await faults?.close();
      await howl?.close();
    });

    async function console(method: string, path: string, body?: unknown) {
      const res = await http(howl, method, path, { body, cookie });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }

    async function createGame(name: string): Promise<Game> {
      return (await console('POST', '/api/games', { name })) as Game;
    }

    async function phase(name: EnginePhase) {
      const result = await runGodot(
        project,
        {
          HOWL_URL: howl.url,
          HOWL_API_KEY: gameA.api_key,
          HOWL_GAME_ID: gameA.game_id,
          HOWL_API_KEY_B: gameB.api_key,
          HOWL_GAME_ID_B: gameB.game_id,
          HOWL_FAULT_URL: faults.url,
          HOWL_DEAD_URL: faults.deadUrl,
          HOWL_PHASE: name,
          HOWL_RUN: run,
        },
        { timeoutMs: 150_000 },
      );
      const out = result.output;
      const seen = report(out);
      const context = `Godot ${engine}, phase ${name}:\n${out}`;
      expect(result.timedOut, context).toBe(false);
      expect(seen.failed, context).toEqual([]);
      expect(seen.done, context).not.toBeNull();
      expect(seen.done!.failed, context).toBe(0);
      expect(seen.done!.passed, context).toBe(seen.passed.length);
      expect(out, context).not.toMatch(/SCRIPT ERROR|Parse Error/);
      for (const secret of [gameA.api_key, gameB.api_key, ...SCENARIO_PASSWORDS, ...faults.tokens]) {
        expect(out.includes(secret), `a secret was printed (${secret.slice(0, 6)}…)\n${context}`).toBe(false);
      }
      expect(out, context).not.toMatch(/Bearer [A-Za-z0-9_-]{20,}/);
      expect([...seen.passed].sort(), context).toEqual([...ENGINE_CHECKS[name]].sort());
      return seen;
    }

    it('runs the main scenario: every call of the plugin against the live server and the faults', async () => {
      await phase('main');
      // The bearer token reached the echo fault, so the check above also looked for it.
      expect(faults.tokens.size).toBeGreaterThan(0);
    }, 200_000);

    it('keeps the saved session when the game starts offline', async () => {
      await phase('offline');
    }, 200_000);

    it('resumes the saved session when the game starts again', async () => {
      await phase('resume');
    }, 200_000);

    it('reported its plugin and engine version to the game', async () => {
      const game = await console('GET', `/api/games/${gameA.game_id}`);
      expect(game.latest_plugin_version).toBe(PLUGINS[engine].version);
      expect(String(game.latest_engine)).toMatch(new RegExp(`^${engine}\\.`));
    });
  });
}
