import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareEntries, type OrderKey } from './order.js';
import { packUuid } from './entry-bytes.js';
import { EntryTable, READ_ROW, engineOf, shownOf } from './entry-table.js';

const sign = (n: number) => (n > 0 ? 1 : n < 0 ? -1 : 0);

// Few distinct values, so ties reach the name and id; UUID and other ids mixed, names past 127 bytes too.
const keyArb: fc.Arbitrary<OrderKey> = fc.record({
  score: fc.constantFrom(-1.5, -0, 0, 2, 1e300),
  timestamp: fc.constantFrom(0, 1, 1_700_000_000_000),
  player_name: fc.constantFrom('a', 'B', 'é', '😀', 'ab', 'x'.repeat(200), '\u{10FFFF}'),
  id: fc.oneof(
    fc.uuid().map((u) => u.toLowerCase()),
    fc.constantFrom(
      '00000000-0000-4000-8000-00000000000a',
      'id-1',
      'ID-1',
      '\u{10FFFF}',
      'F0000000-0000-4000-8000-000000000000',
    ),
  ),
});

describe('EntryTable', () => {
  it('orders entries and keys exactly as compareEntries does', () => {
    fc.assert(
      fc.property(fc.uniqueArray(keyArb, { selector: (k) => k.id, maxLength: 30 }), keyArb, (keys, probe) => {
        const table = new EntryTable(4);
        const numbers = keys.map((k, i) => table.add(k.id, k.player_name, k.score, k.timestamp, i, i % 5));
        const prepared = table.prepare(probe);
        for (const sort of ['asc', 'desc'] as const) {
          for (let a = 0; a < keys.length; a++) {
            expect(sign(table.compareKey(numbers[a]!, prepared, sort === 'desc'))).toBe(
              sign(compareEntries(keys[a]!, probe, sort)),
            );
            for (let b = 0; b < keys.length; b++) {
              expect(sign(table.compare(numbers[a]!, numbers[b]!, sort === 'desc'))).toBe(
                sign(compareEntries(keys[a]!, keys[b]!, sort)),
              );
            }
          }
        }
        keys.forEach((k, i) => {
          expect(table.find(k.id)).toBe(numbers[i]);
          expect(table.idOf(numbers[i]!)).toBe(k.id);
          expect(table.nameOf(numbers[i]!)).toBe(k.player_name);
          expect(table.shown(numbers[i]!)).toBe(i % 5);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('finds, updates, forgets and renumbers entries by id, with what each shows', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            id: fc.integer({ min: 0, max: 60 }),
            drop: fc.boolean(),
            // Names below and past 16 bytes: the length shares its varint with the shown bits.
            name: fc.constantFrom('a', 'é', 'p'.repeat(15), 'p'.repeat(16)),
            shown: fc.integer({ min: 0, max: 4 }),
          }),
        ),
        (ops) => {
          const table = new EntryTable(2);
          const model = new Map<string, { name: string; revision: number; shown: number }>();
          ops.forEach((op, revision) => {
            const id = op.id % 2 ? `id-${op.id}` : `00000000-0000-4000-8000-${String(op.id).padStart(12, '0')}`;
            const k = table.find(id);
            expect(k >= 0).toBe(model.has(id));
            if (op.drop) {
              if (k >= 0) table.kill(k);
              model.delete(id);
            } else if (k >= 0) {
              table.update(k, op.name, revision, revision, revision, op.shown);
              model.set(id, { name: op.name, revision, shown: op.shown });
            } else {
              table.add(id, op.name, revision, revision, revision, op.shown);
              model.set(id, { name: op.name, revision, shown: op.shown });
            }
          });
          const live = [...Array(table.numbers).keys()].filter((k) => table.ref[k] !== -1);
          expect(live.length).toBe(model.size);
          const next = table.compacted(live.reverse());
          expect(next.numbers).toBe(model.size);
          for (const [id, want] of model) {
            for (const t of [table, next]) {
              const k = t.find(id);
              expect(t.idOf(k)).toBe(id);
              expect(t.nameOf(k)).toBe(want.name);
              expect(t.revision[k]).toBe(want.revision);
              expect(t.shown(k)).toBe(want.shown);
            }
          }
          expect(next.find('id-missing')).toBe(-1);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('EntryTable.load', () => {
  it('keeps a sixteenth spare after a load, so the first saves after it copy no column', () => {
    const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
    const table = new EntryTable(50_000, 50_000 * 64);
    for (let n = 0; n < 40_000; n++) table.load(uuid(n), `player${n}`, n, 1, 0, 0);
    table.trim();
    const [score, arena, bytes] = [table.score, table.arena, table.bytes()];
    expect(bytes).toBeLessThan(40_000 * 64); // 88 bytes an entry before the trim
    for (let n = 40_000; n < 42_000; n++) table.add(uuid(n), `player${n}`, n, 1, 0, 0);
    expect([table.score === score, table.arena === arena]).toEqual([true, true]);
    expect(table.find(uuid(41_999))).toBe(41_999);
  });

  it('keeps the newer state of an id read twice, in either order', () => {
    const table = new EntryTable(2);
    const id = '00000000-0000-4000-8000-000000000001';
    table.load('other', 'o', 1, 1, 0, 0);
    table.load(id, 'a', 1, 1, 0, 0);
    table.load(id, 'a', 5, 2, 1, 0);
    table.load('id-2', 'b', 5, 2, 3, 0);
    table.load('id-2', 'b', 1, 1, 2, 0);
    expect(table.live).toBe(3);
    for (const [key, score, revision] of [
      [id, 5, 1],
      ['id-2', 5, 3],
      ['other', 1, 0],
    ] as const) {
      const k = table.find(key);
      expect([table.score[k], table.revision[k], table.idOf(k)]).toEqual([score, revision, key]);
    }
  });
});

describe('packUuid', () => {
  it('packs a canonical lowercase UUID into its 16 bytes and refuses any other id', () => {
    const out = Buffer.alloc(16);
    expect(packUuid('0123abcd-ef45-4678-89ab-cdef01234567', out, 0)).toBe(true);
    expect(out.toString('hex')).toBe('0123abcdef45467889abcdef01234567');
    const canonical = '00000000-0000-4000-8000-000000000000';
    // Past the hex digits on either side, uppercase, a missing dash, and codes whose low byte is a digit's.
    for (const c of ['/', ':', '`', 'g', 'A', 'F', '-', '\u0130', '\u0161', 'é']) {
      for (const at of [0, 7, 9, 35])
        expect(packUuid(canonical.slice(0, at) + c + canonical.slice(at + 1), out, 0)).toBe(false);
    }
    expect(packUuid(canonical.replace(/-/g, '0').slice(0, 36), out, 0)).toBe(false);
    expect(packUuid(canonical.slice(1), out, 0)).toBe(false);
  });
});

describe('shownOf', () => {
  it('says what a row shows, and READ_ROW when only the row can tell', () => {
    expect(shownOf({ metadata: null, engine: null })).toBe(0);
    expect(engineOf(shownOf({ metadata: null, engine: 3 }))).toBe(3);
    expect(engineOf(shownOf({ metadata: null, engine: 4 }))).toBe(4);
    expect(shownOf({ metadata: '{"a":1}', engine: 4 })).toBe(READ_ROW);
    expect(shownOf({ metadata: null, engine: 5 })).toBe(READ_ROW);
    // A notice that carries only the order key.
    expect(shownOf({ id: 'a', score: 1, timestamp: 1, player_name: 'a', revision: 0 })).toBe(READ_ROW);
  });
});
