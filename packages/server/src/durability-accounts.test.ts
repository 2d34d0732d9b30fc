import { describe, expect, it } from 'vitest';
import { call, STRONG_PASSWORD } from '../test/support/app.js';
import { killSuite, storedDoc, type BurstLane } from '../test/support/kill-burst.js';
import { DIALECTS } from '../test/support/services.js';
import { playerPoolId } from './modules/games/service.js';

const MERGE_PLAYERS = 8;
const REGISTERING_CLIENTS = 4;
/** Registrations hash a password each (slow by design), so the merges set the pace of the kill. */
const KILL_AFTER_ACKS = 200;

/** One client merging into one player's document, or registering one new player after another. */
interface Lane extends BurstLane<{ version?: number; player?: { player_name: string } }> {
  kind: 'merge' | 'register';
  name: string;
}

/** The nth registration of a lane. */
const registeredName = (lane: Lane, n: number) => `${lane.name}x${n}`;

/** Each call: a merge that adds the two keys `a<n>` and `b<n>`, or the registration of a new name. */
const send = (url: string, headers: Record<string, string>) => (lane: Lane, n: number) =>
  lane.kind === 'merge'
    ? fetch(`${url}/v1/player-data/${lane.name}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ player_data: { [`a${n}`]: n, [`b${n}`]: 'x'.repeat(200) }, overwrite: false }),
      })
    : fetch(`${url}/v1/players`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          player_name: registeredName(lane, n),
          password: STRONG_PASSWORD,
          confirm_password: STRONG_PASSWORD,
        }),
      });

/** The keys a document holds after its first `n` merges. */
const keysAfter = (n: number) => Array.from({ length: n }, (_, i) => [`a${i}`, `b${i}`]).flat();

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: merges and registrations the server acknowledged survive kill -9`, () => {
    // Player accounts on, by name and password: a registration is one confirmed account.
    const suite = killSuite(dialect, async (t, gamePath, cookie) => {
      const res = await call(t.app, 'PUT', `${gamePath}/player-auth`, {
        body: { enabled: true, reg_type: 'un_pwd' },
        cookie,
      });
      expect(res.statusCode).toBe(200);
    });

    it('keeps every acknowledged merge whole and every acknowledged player able to log in after a restart', async () => {
      const { game, headers } = suite.ctx;
      const lanes: Lane[] = [
        ...Array.from({ length: MERGE_PLAYERS }, (_, i) => ({
          kind: 'merge' as const,
          name: `m${i}`,
          sent: [],
          acks: [],
        })),
        ...Array.from({ length: REGISTERING_CLIENTS }, (_, i) => ({
          kind: 'register' as const,
          name: `r${i}`,
          sent: [],
          acks: [],
        })),
      ];
      const { server, db } = await suite.burst(lanes, {
        next: (lane) => lane.sent.length,
        send: (url) => send(url, headers),
        killAfter: KILL_AFTER_ACKS,
      });
      expect(lanes.filter((l) => l.kind === 'register' && l.acks.length > 0).length).toBeGreaterThan(0);

      for (const lane of lanes) {
        const where = `${lane.name} (sent ${lane.sent.length}; ${lane.acks.length} acknowledged)`;
        if (lane.kind === 'merge') {
          const row = await storedDoc(db, game.game_id, lane.name);
          if (lane.acks.length === 0) continue;
          expect(row, where).toBeDefined();
          const keys = Object.keys(JSON.parse(row!.data) as object).sort();
          // Every acknowledged merge, each with both its keys, and at most the one in flight besides.
          const applied = keys.length / 2;
          expect([lane.acks.length, lane.sent.length], where).toContain(applied);
          expect(keys, where).toEqual(keysAfter(applied).sort());
          expect(row!.version, where).toBe(lane.acks.at(-1)!.version! + (applied - lane.acks.length));
          continue;
        }
        const accounts = await db
          .selectFrom('identity_users')
          .select(['username', 'status', 'enabled'])
          .where('pool_id', '=', playerPoolId(game.game_id))
          .where('username', 'like', `${lane.name}x%`)
          .execute();
        const names = new Set(accounts.map((a) => a.username));
        expect(accounts.length - lane.acks.length, where).toBeGreaterThanOrEqual(0);
        expect(accounts.length - lane.acks.length, where).toBeLessThanOrEqual(lane.sent.length - lane.acks.length);
        for (const [n, ack] of lane.acks.entries()) {
          expect(ack.player?.player_name, where).toBe(registeredName(lane, n));
          expect(names.has(registeredName(lane, n)), where).toBe(true);
        }
        // A whole account: confirmed, enabled and with its password hash, so the player can log in.
        for (const a of accounts) expect([a.status, a.enabled], where).toEqual(['CONFIRMED', 1]);
        const last = lane.acks.length - 1;
        if (last < 0) continue;
        const login = await fetch(`${server.url}/v1/players/login`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ player_name: registeredName(lane, last), password: STRONG_PASSWORD }),
        });
        expect(login.status, where).toBe(200);
      }
    }, 120_000);
  });
}
