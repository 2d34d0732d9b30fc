import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyProject,
  engineAvailable,
  makeGodot4Root,
  runGodot,
  type Engine,
  type EngineProject,
} from './support/godot.js';
import { developer, http, startHowl, type Howl } from './support/howl.js';

/*
 * A game that ships the SilentWolf plugin, moved to Howl by changing the API host: the clients in
 * e2e/silentwolf/godotN/ send what plugin 0.6.20 (Godot 3) and 0.9.7 (Godot 4) send and read the
 * answers as the plugin does, so a missing field is a script error in the engine log.
 */

const REQUIRED = process.env.REQUIRE_SERVICES === '1';

const PLUGINS: Record<Engine, { version: string; binary: string }> = {
  3: { version: '0.6.20', binary: 'godot3-server' },
  4: { version: '0.9.7', binary: 'Godot 4 (scripts/godot4-root.sh)' },
};

/** The registered player's password: it has dots, which 0.9.x sends as `*` at login. */
const ACCOUNT_PASSWORD = 'Howl.Pass.9x';
const DELETES_OFF =
  'The developer has turned off deleting scores from the game. Delete them on the Howl dashboard, or allow client deletes in the game settings.';

interface Game {
  game_id: string;
  api_key: string;
}

interface ReadScore {
  score_id: string;
  player_name: string;
  score: number;
  metadata?: unknown;
}

/** The steps a run reported (`SW-RESULT {…}`), the ones that did not finish, and the lines that mean a script failed. */
function readRun(output: string) {
  const results: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any -- each step's own shape, checked below
  for (const m of output.matchAll(/^SW-RESULT (.*)$/gm)) {
    const value = JSON.parse(m[1]!);
    results[value.step] = value;
  }
  const missing = [...output.matchAll(/^SW-MISSING (\S+)/gm)].map((m) => m[1]!);
  const lines = output.split('\n');
  // A script error, or an engine error raised from a script of the project (its backtrace names res://).
  const errors = lines.filter(
    (line, i) =>
      /SCRIPT ERROR|Parse Error|^SW-TRANSPORT/.test(line) ||
      (/^\s*ERROR:/.test(line) && lines.slice(i + 1, i + 4).some((next) => /res:\/\//.test(next))),
  );
  return { results, missing, errors, done: /^SW-DONE\s*$/m.test(output) };
}

/** Scores as [name, value], in the order read. */
const pairs = (scores: ReadScore[] | undefined) => (scores ?? []).map((s) => [s.player_name, s.score]);

for (const engine of [4, 3] as const) {
  const skip = !REQUIRED && !engineAvailable(engine);

  describe.skipIf(skip)(`a game with SilentWolf ${PLUGINS[engine].version} on ${PLUGINS[engine].binary}`, () => {
    let howl: Howl;
    let cookie: string;
    let game: Game;
    let project: EngineProject;
    const run = randomBytes(3).toString('hex');
    const special = `HW Fox&Co ü ${run}`;
    const bo = `Bo${run}`;
    const cy = `Cy${run}`;
    const account = `swp${run}`;
    let main: ReturnType<typeof readRun>['results'];

    beforeAll(async () => {
      if (engine === 4 && REQUIRED) makeGodot4Root();
      if (!engineAvailable(engine)) throw new Error(`REQUIRE_SERVICES=1 but Godot ${engine} cannot run here`);
      // At info, so that a request digest the server could not match shows in its log.
      howl = await startHowl({ LOG_LEVEL: 'info' });
      cookie = await developer(howl, `sw-godot${engine}-${run}@example.com`);
      game = (await console('POST', '/api/games', { name: `SilentWolf game ${engine}` })) as Game;
      await console('PUT', `/api/games/${game.game_id}/player-auth`, { enabled: true, reg_type: 'un_pwd' });
      await console('PATCH', `/api/games/${game.game_id}`, { allow_client_deletes: false });
      project = copyProject(engine, `e2e/silentwolf/godot${engine}`);
    }, 900_000);

    afterAll(async () => {
      project?.remove();
      await howl?.close();
    });

    async function console(method: string, path: string, body?: unknown) {
      const res = await http(howl, method, path, { body, cookie });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }

    async function phase(name: 'main' | 'resume', env: Record<string, string> = {}) {
      const result = await runGodot(
        project,
        { SW_URL: howl.url, SW_API_KEY: game.api_key, SW_GAME_ID: game.game_id, SW_RUN: run, SW_PHASE: name, ...env },
        { timeoutMs: 150_000 },
      );
      const seen = readRun(result.output);
      const context = `Godot ${engine}, phase ${name}:\n${result.output}`;
      expect(result.timedOut, context).toBe(false);
      expect(seen.done, context).toBe(true);
      // Soft: the steps' values are compared too, so one run shows every step that fails.
      expect.soft(seen.errors, context).toEqual([]);
      expect.soft(seen.missing, `steps that did not finish\n${context}`).toEqual([]);
      for (const secret of [game.api_key, ACCOUNT_PASSWORD]) {
        expect(result.output.includes(secret), `a secret was printed (${secret.slice(0, 4)}…)\n${context}`).toBe(false);
      }
      return { results: seen.results };
    }

    it('saves and reads scores, registers and logs a player in, keeps the saved session and stores player data', async () => {
      const { results: r } = await phase('main');
      main = r;
      const step = (name: string) => {
        expect.soft(r[name], `step ${name} reported nothing`).toBeDefined();
        return r[name] ?? {};
      };

      // A bad key: 0.9.x reads success false; 0.6.x sees the message "Forbidden" and stops.
      if (engine === 4)
        expect.soft(step('bad_key')).toMatchObject({ success: false, error: expect.stringMatching(/^Forbidden/) });
      else expect.soft(step('bad_key')).toMatchObject({ forbidden: true });

      const saved = step('save_scores');
      for (const who of ['special', 'bo', 'cy']) {
        expect.soft(saved[who]?.score_id, who).toMatch(/./);
        if (engine === 4) expect.soft(saved[who]?.success, who).toBe(true);
      }
      const ids = { special: saved.special?.score_id, bo: saved.bo?.score_id, cy: saved.cy?.score_id };

      const board = [
        { score_id: ids.special, player_name: special, score: 120, metadata: { level: 3, mode: 'hard' } },
        { score_id: ids.cy, player_name: cy, score: 80 },
        { score_id: ids.bo, player_name: bo, score: 12.5 },
      ];
      const top = step('top_scores');
      for (const max of ['max10', 'max0']) {
        expect.soft(top[max], max).toMatchObject({ ld_name: 'main', insert_opt: 'keep', has_period_offset: false });
        if (engine === 4) expect.soft(top[max].success).toBe(true);
        expect.soft(top[max].scores, max).toMatchObject(board);
        expect.soft(top[max]?.scores?.[1]?.metadata ?? null, max).toBeNull();
      }

      const byPlayer = step('by_player');
      expect.soft(byPlayer).toMatchObject({ player_name: special, ld_name: 'main', insert_opt: 'keep' });
      expect.soft(byPlayer.scores).toMatchObject([board[0]!]);

      const topByPlayer = step('top_by_player');
      expect.soft(topByPlayer.special).toMatchObject({ player_name: special, ld_name: 'main', insert_opt: 'keep' });
      expect.soft(topByPlayer.special?.top_score).toMatchObject(board[0]!);
      expect.soft(topByPlayer.nobody).toMatchObject({ player_name: `Nobody${run}`, top_score: {} });
      expect.soft(Object.keys(topByPlayer.nobody?.top_score ?? { missing: 1 })).toEqual([]);

      // 80 is second; a value of 100 would be second too.
      expect.soft(step('position')).toMatchObject({ by_id: { position: 2 }, by_value: { position: 2 } });

      const around = step('around');
      expect.soft(pairs(around.by_id?.above)).toEqual([[special, 120]]);
      expect.soft(pairs(around.by_id?.below)).toEqual([[bo, 12.5]]);
      expect.soft(pairs(around.by_value?.above)).toEqual([[special, 120]]);
      expect.soft(pairs(around.by_value?.below)).toEqual([[cy, 80]]);

      expect.soft(step('deletes_refused')).toMatchObject({
        delete: { success: false, error: DELETES_OFF },
        wipe: { success: false, error: DELETES_OFF },
      });

      expect
        .soft(step('register'))
        .toMatchObject({ success: true, ...(engine === 4 ? { email_conf_enabled: false } : {}) });
      const login = step('login');
      expect.soft(login).toMatchObject({ success: true, saved_session: true });
      expect.soft(login.token_lengths).toHaveLength(engine === 4 ? 2 : 1);
      for (const length of login.token_lengths ?? []) expect.soft(length).toBeGreaterThan(10);
      // The same saved pair works twice: the validator is not rotated.
      expect.soft(step('validate')).toEqual({
        step: 'validate',
        first: { success: true, player_name: account },
        second: { success: true, player_name: account },
      });
      // The game registers players by name and password: with no email to send a code to, a reset is
      // refused with a sentence the plugin's scene can show, and the password keeps working.
      expect.soft(step('reset')).toEqual({
        step: 'reset',
        success: false,
        error:
          'This player has no email address, so the password cannot be reset by mail. Ask the game’s developer to set a new one.',
      });

      const data = step('player_data');
      for (const call of ['replace', 'merge']) {
        expect
          .soft(data[call], call)
          .toMatchObject({ player_name: special, ...(engine === 4 ? { success: true } : {}) });
      }
      const merged = { Weapons: ['Sword', 'Bow'], Money: 50, Level: 3, Pet: 'Owl' };
      expect.soft(data.got).toMatchObject({ player_name: special, player_data: merged });
      expect.soft(data.got?.player_data).toEqual(merged);
      const withoutPet = { Weapons: merged.Weapons, Money: 50, Level: 3 };
      expect.soft(data.remove_key).toMatchObject({ player_name: special });
      expect.soft(data.remove_key?.player_data).toEqual(withoutPet);
      expect.soft(data.remove_all?.player_data).toEqual({});
      expect.soft(data.got_after?.player_data).toEqual({});
      expect.soft(data.last).toMatchObject({ player_name: special });
    }, 200_000);

    it('stored what the game sent: /v1 reads the same scores and player data', async () => {
      expect(main, 'the first test ran').toBeDefined();
      // The engine signed its score and player-data writes as the plugin does, and the server matched
      // every digest: the one mismatch in its log is the forged one sent here.
      const forged = await fetch(`${howl.url}/save_score`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': game.api_key,
          'x-sw-act-tmst': '417',
          'x-sw-act-dig': '0123456789abcdef0123456789abcdef',
        },
        body: JSON.stringify({ game_id: game.game_id, player_name: 'Forger', score: 1, ldboard_name: 'other' }),
      });
      expect(forged.status).toBe(404);
      // The server's log reaches this process through a pipe, a moment after the answer.
      const mismatches = () => howl.output().split('a SilentWolf request digest did not match').length - 1;
      await expect.poll(mismatches, { timeout: 5000 }).toBe(1);
      const ids = main.save_scores ?? {};
      const key = { game_id: game.game_id, api_key: game.api_key };
      const scores = await http(howl, 'GET', '/v1/leaderboards/main/scores?max=10', { game: key });
      expect(scores.status).toBe(200);
      expect(scores.body.scores).toMatchObject([
        { score_id: ids.special?.score_id, player_name: special, score: 120, metadata: { level: 3, mode: 'hard' } },
        { score_id: ids.cy?.score_id, player_name: cy, score: 80, metadata: null },
        { score_id: ids.bo?.score_id, player_name: bo, score: 12.5, metadata: null },
      ]);
      expect(scores.body.scores.map((s: { engine: unknown }) => s.engine)).toEqual([engine, engine, engine]);
      const data = await http(howl, 'GET', `/v1/player-data/${encodeURIComponent(special)}`, { game: key });
      expect(data.status).toBe(200);
      expect(data.body).toMatchObject({ player_name: special, player_data: { Checkpoint: 'Forest', Money: 7 } });
      const noted = await console('GET', `/api/games/${game.game_id}`);
      // The SilentWolf plugin's own version is not a Howl plugin version: only the engine it runs on is kept.
      expect(noted.latest_plugin_version).toBeNull();
      expect(noted.latest_engine).toMatch(new RegExp(`^${engine}\\.`));
    });

    it('on the next start resumes the saved session, and deletes a score and wipes the board once the game allows it', async () => {
      expect(main, 'the first test ran').toBeDefined();
      await console('PATCH', `/api/games/${game.game_id}`, { allow_client_deletes: true });
      const { results: r } = await phase('resume', { SW_DELETE_ID: main.save_scores?.bo?.score_id ?? '' });
      expect.soft(r.resume_session).toMatchObject({ success: true, player_name: account });
      const done = r.delete_and_wipe ?? {};
      expect.soft(done.delete?.success).toBe(true);
      expect.soft(pairs(done.after_delete)).toEqual([
        [special, 120],
        [cy, 80],
      ]);
      expect.soft(done.wipe?.success).toBe(true);
      expect.soft(done.after_wipe).toEqual([]);
      const key = { game_id: game.game_id, api_key: game.api_key };
      const scores = await http(howl, 'GET', '/v1/leaderboards/main/scores?max=10', { game: key });
      expect(scores.body.scores).toEqual([]);
    }, 200_000);
  });
}
