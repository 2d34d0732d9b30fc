import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderStatisticList } from './order-statistic-list.js';

const byNumber = (a: number, b: number) => a - b;
/** The probe for `key` over plain numbers: the list keeps no order of its own. */
// Magnitudes other than 1 too: a search must look only at the sign.
const at = (key: number) => (item: number) => (item - key) / 7;

describe('OrderStatisticList against a sorted array', () => {
  it('agrees on size, ranks, select and ranges after any inserts and removes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ add: fc.integer({ min: 0, max: 300 }) }),
            fc.record({ del: fc.integer({ min: 0, max: 300 }) }),
          ),
          { maxLength: 400 },
        ),
        fc.constantFrom(1, 2, 4, 16),
        // A start from fromSorted: its blocks are full and must grow on the first insert.
        fc.uniqueArray(fc.integer({ min: 0, max: 300 }), { maxLength: 60 }),
        (ops, blockSize, initial) => {
          const model = [...initial].sort(byNumber);
          const list = OrderStatisticList.fromSorted(model, blockSize);
          for (const op of ops) {
            const key = 'add' in op ? op.add : op.del;
            if ('add' in op) {
              if (model.includes(op.add)) continue; // the index holds a strict order: keys are unique
              list.insert(op.add, at(op.add));
              model.push(op.add);
              model.sort(byNumber);
            } else {
              const i = model.indexOf(op.del);
              expect(list.remove(at(op.del))).toBe(i >= 0 ? op.del : undefined);
              if (i >= 0) model.splice(i, 1);
            }
            // Checked after every step: a later rebuild must not hide a wrong count.
            expect(list.size).toBe(model.length);
            expect(list.lowerBound(at(key))).toBe(model.filter((v) => v < key).length);
            expect(list.upperBound(at(key))).toBe(model.filter((v) => v <= key).length);
            const mid = model.length >> 1;
            expect(list.at(mid)).toBe(model[mid]);
          }
          expect(list.size).toBe(model.length);
          for (let i = 0; i < model.length; i++) expect(list.at(i)).toBe(model[i]);
          for (const key of [-1, 0, 7, 150, 299, 301]) {
            expect(list.lowerBound(at(key))).toBe(model.filter((v) => v < key).length);
            expect(list.upperBound(at(key))).toBe(model.filter((v) => v <= key).length);
          }
          const from = Math.floor(model.length / 3);
          expect(list.range(from, 5)).toEqual(model.slice(from, from + 5));
          expect(list.range(from, 5, -1)).toEqual(model.slice(Math.max(0, from - 4), from + 1).reverse());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('builds from a sorted array and keeps working', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => i * 2);
    const list = OrderStatisticList.fromSorted(items, 64);
    expect(list.size).toBe(10_000);
    expect(list.lowerBound(at(5001))).toBe(2501);
    list.insert(5001, at(5001));
    expect(list.at(2501)).toBe(5001);
    expect(list.remove(at(0))).toBe(0);
    expect(list.at(0)).toBe(2);
    expect(list.remove(at(0))).toBeUndefined();
  });
});
