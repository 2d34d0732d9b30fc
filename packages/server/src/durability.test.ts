import { describe, expect, it } from 'vitest';
import { call } from '../test/support/app.js';
import { killSuite, storedDoc, type BurstLane } from '../test/support/kill-burst.js';
import { DIALECTS } from '../test/support/services.js';
import { compareEntries } from './modules/ranking/order.js';

const MODES = ['keep', 'highest', 'latest', 'accumulator'] as const;
type Mode = (typeof MODES)[number];
const PLAYERS_PER_BOARD = 6;
const DATA_PLAYERS = 8;
/** The server is killed once this many writes were acknowledged, while the others are in flight. */
const KILL_AFTER_ACKS = 300;

/** One client writing under one name: a board and a player, or a player's document. */
interface Lane extends BurstLane<{ score_id?: string; version?: number }> {
  board: Mode | 'player-data';
  player: string;
}

/** What a lane sends next: scores mixed up and down (sums stay small on the accumulator), documents numbered. */
const nextValue = (lane: Lane) =>
  lane.board === 'accumulator' ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 1_000_000);

/** Each lane's call: a score to its board, or its numbered document. */
const send = (url: string, headers: Record<string, string>) => (lane: Lane, value: number) =>
  lane.board === 'player-data'
    ? fetch(`${url}/v1/player-data/${lane.player}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ player_data: { seq: value, note: 'x'.repeat(500) } }),
      })
    : fetch(`${url}/v1/leaderboards/${lane.board}/scores`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ player_name: lane.player, score: value }),
      });

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The values a lane's stored entry may hold: what its acknowledged calls made, or that plus the call in flight. */
function allowedValues(lane: Lane): number[] {
  const acked = lane.sent.slice(0, lane.acks.length);
  const withLast = lane.sent;
  const of = (xs: number[]) =>
    lane.board === 'highest' ? Math.max(...xs) : lane.board === 'accumulator' ? sum(xs) : xs.at(-1)!;
  return [...(acked.length > 0 ? [of(acked)] : []), ...(withLast.length > acked.length ? [of(withLast)] : [])];
}

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: writes the server acknowledged survive kill -9`, () => {
    // One unlimited board per save mode.
    const suite = killSuite(dialect, async (t, gamePath, cookie) => {
      for (const mode of MODES) {
        const res = await call(t.app, 'POST', `${gamePath}/leaderboards`, {
          body: { name: mode, insert_option: mode, max_entries: null },
          cookie,
        });
        expect(res.statusCode).toBe(201);
      }
    });

    it('keeps every acknowledged score and document, and ranks them as stored after a restart', async () => {
      const { game, headers } = suite.ctx;
      const lanes: Lane[] = [
        ...MODES.flatMap((board) =>
          Array.from({ length: PLAYERS_PER_BOARD }, (_, i) => ({ board, player: `${board}${i}`, sent: [], acks: [] })),
        ),
        ...Array.from({ length: DATA_PLAYERS }, (_, i) => ({
          board: 'player-data' as const,
          player: `pd${i}`,
          sent: [],
          acks: [],
        })),
      ];
      const { server, db } = await suite.burst(lanes, {
        next: (lane) => (lane.board === 'player-data' ? lane.sent.length : nextValue(lane)),
        send: (url) => send(url, headers),
        killAfter: KILL_AFTER_ACKS,
      });
      const boardIds = Object.fromEntries(
        (await db.selectFrom('leaderboards').select(['id', 'name']).where('game_id', '=', game.game_id).execute()).map(
          (b) => [b.name, b.id],
        ),
      );

      for (const lane of lanes) {
        const where = `${lane.board} ${lane.player} (sent ${lane.sent.join(',')}; ${lane.acks.length} acknowledged)`;
        if (lane.board === 'player-data') {
          const row = await storedDoc(db, game.game_id, lane.player);
          if (lane.acks.length === 0) continue;
          const lastAck = lane.acks.at(-1)!;
          expect(row, where).toBeDefined();
          const seq = (JSON.parse(row!.data) as { seq: number }).seq;
          // The last acknowledged document, or the one in flight when the server died.
          expect([lane.acks.length - 1, lane.sent.length - 1], where).toContain(seq);
          expect(row!.version, where).toBe(lastAck.version! + (seq - (lane.acks.length - 1)));
          continue;
        }
        const rows = await db
          .selectFrom('scores')
          .select(['id', 'score'])
          .where('leaderboard_id', '=', boardIds[lane.board]!)
          .where('player_name', '=', lane.player)
          .execute();
        const byId = new Map(rows.map((r) => [r.id, Number(r.score)]));
        if (lane.board === 'keep') {
          // Every acknowledged save is its own entry with its own value; at most the one in flight besides.
          lane.acks.forEach((ack, i) => expect(byId.get(ack.score_id!), where).toBe(lane.sent[i]));
          expect(rows.length - lane.acks.length, where).toBeGreaterThanOrEqual(0);
          expect(rows.length - lane.acks.length, where).toBeLessThanOrEqual(lane.sent.length - lane.acks.length);
          continue;
        }
        if (lane.acks.length === 0) continue;
        // One entry per player, the one the acknowledgements named, holding the save mode's value.
        expect(rows, where).toHaveLength(1);
        expect(rows[0]!.id, where).toBe(lane.acks.at(-1)!.score_id);
        expect(allowedValues(lane), where).toContain(Number(rows[0]!.score));
      }

      const v1 = async (path: string) => {
        const res = await fetch(`${server.url}${path}`, { headers });
        expect(res.status, path).toBe(200);
        return (await res.json()) as { scores: Array<Record<string, unknown>>; position: number | null };
      };
      for (const mode of MODES) {
        const stored = (
          await db
            .selectFrom('scores')
            .select(['id', 'player_name', 'score', 'timestamp'])
            .where('leaderboard_id', '=', boardIds[mode]!)
            .execute()
        )
          .map((r) => ({ ...r, score: Number(r.score), timestamp: Number(r.timestamp) }))
          .sort((a, b) => compareEntries(a, b, 'desc'));
        const top = (await v1(`/v1/leaderboards/${mode}/scores?max=0`)).scores;
        expect(
          top.map((s) => [s.score_id, s.player_name, s.score, s.position]),
          mode,
        ).toEqual(stored.map((r, i) => [r.id, r.player_name, r.score, i + 1]));
        for (const [i, r] of stored.entries()) {
          if (i % 7 !== 0) continue;
          expect((await v1(`/v1/leaderboards/${mode}/position?score_id=${r.id}`)).position, mode).toBe(i + 1);
          // A value not yet saved ranks after every entry it ties with.
          const would = stored.filter((s) => s.score >= r.score).length + 1;
          expect((await v1(`/v1/leaderboards/${mode}/position?score=${r.score}`)).position, mode).toBe(would);
        }
      }
    }, 60_000);
  });
}
