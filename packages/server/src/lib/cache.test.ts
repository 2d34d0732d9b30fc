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

  it('keeps values weighing at most its weight together, lets the least recently used go first, and never keeps one heavier than that', async () => {
    const caches = await createCaches();
    const docs = caches.cache<{ text: string }>('docs', 100, { max: 10, of: (v) => v.text.length });
    const loads: string[] = [];
    const load = (key: string, text: string) => async () => {
      loads.push(key);
      return { text };
    };
    await docs.get('a', load('a', 'aaaa'));
    await docs.get('b', load('b', 'bbbb'));
    expect(docs.peek('a')).toEqual({ text: 'aaaa' });
    // 4 + 4 + 3 > 10: `b`, now the least recently used, goes.
    await docs.get('c', load('c', 'ccc'));
    expect(docs.peek('b')).toBeUndefined();
    expect(docs.peek('a')).toEqual({ text: 'aaaa' });
    expect(docs.peek('c')).toEqual({ text: 'ccc' });
    // Heavier than the whole bound: answered, not kept, and nothing else goes for it.
    expect(await docs.get('big', load('big', 'x'.repeat(11)))).toEqual({ text: 'x'.repeat(11) });
    expect(docs.peek('big')).toBeUndefined();
    expect(docs.peek('a')).toEqual({ text: 'aaaa' });
    // A dropped value gives its weight back: after `a` goes, `d` fits beside `c`.
    docs.delete('a');
    await docs.get('d', load('d', 'ddddddd'));
    expect(docs.peek('c')).toEqual({ text: 'ccc' });
    expect(docs.peek('d')).toEqual({ text: 'ddddddd' });
    expect(loads).toEqual(['a', 'b', 'c', 'big', 'd']);
  });

  it('drops every key in this process on clear, and a load under way is answered but not kept', async () => {
    const caches = await createCaches();
    const rows = caches.cache<{ n: number }>('rows-cleared');
    await rows.get('a', async () => ({ n: 1 }));
    let release!: () => void;
    const loading = rows.get('b', () => new Promise((resolve) => (release = () => resolve({ n: 2 }))));
    rows.clear();
    release();
    expect(await loading).toEqual({ n: 2 });
    expect(rows.peek('a')).toBeUndefined();
    expect(rows.peek('b')).toBeUndefined();
  });
});
