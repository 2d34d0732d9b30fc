import { describe, expect, it } from 'vitest';
import { done, failed, groupCommit, keyedGroupCommit, type Outcome } from './group-commit.js';

/** A run whose groups the test finishes by hand, recording what each held. */
function manualRun() {
  const groups: number[][] = [];
  const finish: Array<() => void> = [];
  const run = (items: number[]) =>
    new Promise<Array<Outcome<number>>>((resolve) => {
      groups.push(items);
      finish.push(() => resolve(items.map((i) => done(i * 10))));
    });
  return { groups, finish, run };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('groupCommit', () => {
  it('runs a lone item on the next turn, and queues what arrives meanwhile into the next group', async () => {
    const { groups, finish, run } = manualRun();
    const commit = groupCommit(run);
    const first = commit.enqueue(1);
    await tick();
    expect(groups).toEqual([[1]]);
    const rest = [2, 3, 4].map((i) => commit.enqueue(i));
    await tick();
    expect(groups).toEqual([[1]]);
    finish[0]!();
    expect(await first).toBe(10);
    await tick();
    expect(groups).toEqual([[1], [2, 3, 4]]);
    finish[1]!();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(commit.stats).toEqual({ groups: 2, items: 4 });
  });

  it('answers nothing before its group has run', async () => {
    const { finish, run } = manualRun();
    const commit = groupCommit(run);
    let answered = false;
    void commit.enqueue(1).then(() => (answered = true));
    await tick();
    expect(answered).toBe(false);
    finish[0]!();
    await tick();
    expect(answered).toBe(true);
  });

  it('puts at most the bound in one group, in arrival order', async () => {
    const { groups, finish, run } = manualRun();
    const commit = groupCommit(run, 3);
    const all = Array.from({ length: 8 }, (_, i) => commit.enqueue(i));
    for (let g = 0; g < 3; g++) {
      await tick();
      finish[g]?.();
    }
    expect(await Promise.all(all)).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
    expect(groups).toEqual([
      [0, 1, 2],
      [3, 4, 5],
      [6, 7],
    ]);
  });

  it("gives each item its own outcome: one item's error is not the others'", async () => {
    const commit = groupCommit<number, number>(async (items) =>
      items.map((i) => (i === 2 ? failed(new Error('two')) : done(i))),
    );
    const all = [1, 2, 3].map((i) => commit.enqueue(i).then(String, (e: Error) => e.message));
    expect(await Promise.all(all)).toEqual(['1', 'two', '3']);
  });

  it('runs each item alone when its group throws, so one bad item fails alone', async () => {
    const groups: number[][] = [];
    const commit = groupCommit<number, number>(async (items) => {
      groups.push(items);
      if (items.includes(2)) throw new Error('bad item');
      return items.map(done);
    });
    const all = [1, 2, 3].map((i) => commit.enqueue(i).then(String, (e: Error) => e.message));
    expect(await Promise.all(all)).toEqual(['1', 'bad item', '3']);
    expect(groups).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('keeps going after a group failed', async () => {
    let fail = true;
    const commit = groupCommit<number, number>(async (items) => {
      if (fail) throw new Error('down');
      return items.map(done);
    });
    await expect(commit.enqueue(1)).rejects.toThrow('down');
    fail = false;
    expect(await commit.enqueue(2)).toBe(2);
  });
});

describe('keyedGroupCommit', () => {
  it('groups per key, and runs groups of different keys side by side', async () => {
    const running: string[][] = [];
    const finish: Array<() => void> = [];
    const commit = keyedGroupCommit<string, string>(
      (item) => item[0]!,
      (items) =>
        new Promise((resolve) => {
          running.push(items);
          finish.push(() => resolve(items.map(done)));
        }),
    );
    const all = ['a1', 'b1', 'a2'].map((i) => commit.enqueue(i));
    await tick();
    expect(running).toEqual([['a1', 'a2'], ['b1']]);
    all.push(commit.enqueue('a3'), commit.enqueue('b2'));
    finish[0]!();
    finish[1]!();
    await tick();
    await tick();
    expect(running).toEqual([['a1', 'a2'], ['b1'], ['a3'], ['b2']]);
    finish[2]!();
    finish[3]!();
    expect(await Promise.all(all)).toEqual(['a1', 'b1', 'a2', 'a3', 'b2']);
    expect(commit.stats).toEqual({ groups: 4, items: 5 });
  });
});
