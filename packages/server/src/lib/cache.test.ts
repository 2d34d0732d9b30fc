import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCaches } from './cache.js';

describe('caches without Redis', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps a row for at most 5 s, so a process that hears no invalidation reads the database again', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const caches = await createCaches();
    const games = caches.cache<{ key: string }>('games');
    let stored = 'old';
    const load = async () => ({ key: stored });
    expect(await games.get('g', load)).toEqual({ key: 'old' });
    stored = 'rotated';
    vi.advanceTimersByTime(4_000);
    expect(await games.get('g', load)).toEqual({ key: 'old' });
    vi.advanceTimersByTime(1_001);
    expect(await games.get('g', load)).toEqual({ key: 'rotated' });
  });

  it('drops a row at once on an invalidation in the same process', async () => {
    const caches = await createCaches();
    const games = caches.cache<{ key: string }>('games');
    let stored = 'old';
    const load = async () => ({ key: stored });
    await games.get('g', load);
    stored = 'rotated';
    await games.invalidate('g');
    expect(await games.get('g', load)).toEqual({ key: 'rotated' });
  });

  it('answers a peek with what it keeps now, never loading: nothing before a read, nothing once invalidated or expired', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const caches = await createCaches();
    const games = caches.cache<{ key: string }>('games');
    expect(games.peek('g')).toBeUndefined();
    await games.get('g', async () => ({ key: 'kept' }));
    expect(games.peek('g')).toEqual({ key: 'kept' });
    await games.invalidate('g');
    expect(games.peek('g')).toBeUndefined();
    await games.get('g', async () => ({ key: 'again' }));
    vi.advanceTimersByTime(5_001);
    expect(games.peek('g')).toBeUndefined();
  });

  it('keeps at most its size, letting the least recently used key go first', async () => {
    const caches = await createCaches();
    const rows = caches.cache<{ n: number }>('rows', 4);
    const loads: string[] = [];
    const load = (key: string) => async () => {
      loads.push(key);
      return { n: loads.length };
    };
    for (const key of ['a', 'b', 'c', 'd']) await rows.get(key, load(key));
    await rows.get('a', load('a'));
    await rows.get('e', load('e'));
    // `b` was the least recently used: it went, `a` stayed.
    await rows.get('a', load('a'));
    await rows.get('b', load('b'));
    expect(loads).toEqual(['a', 'b', 'c', 'd', 'e', 'b']);
  });
});
