import { describe, expect, it } from 'vitest';
import { semaphore } from './semaphore.js';

describe('semaphore', () => {
  it('runs at most max tasks at once, in the order they came, even when one arrives as another ends', async () => {
    const limit = semaphore(2);
    expect(limit.free()).toBe(true);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const task = (n: number) =>
      limit(async () => {
        started.push(n);
        peak = Math.max(peak, ++running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return n;
      });
    const all = [task(1), task(2), task(3), task(4)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2]);
    expect(limit.free()).toBe(false);
    // The first ends and, in the same turn, a newcomer asks: the waiting third goes first.
    releases.shift()!();
    all.push(task(5));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3]);
    while (releases.length > 0 || started.length < 5) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(limit.free()).toBe(true);
  });

  it('frees the place of a task that failed', async () => {
    const limit = semaphore(1);
    await expect(limit(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await limit(async () => 'next')).toBe('next');
  });
});
