import { describe, expect, it } from 'vitest';

type Key = readonly unknown[];
type Factory = { all: Key } & Record<string, Key | ((...args: never[]) => Key)>;

// Every resource's keys.ts, found by path: a resource added later is checked without a change here.
const modules = import.meta.glob<Record<string, unknown>>('./*/keys.ts', { eager: true });
const factories = Object.entries(modules).flatMap(([path, exports]) =>
  Object.entries(exports)
    .filter((entry): entry is [string, Factory] => Array.isArray((entry[1] as Partial<Factory>)?.all))
    .map(([name, factory]) => ({ path, name, factory })),
);

const GAME = 'game-1';
/** Every key a factory builds, for one game, one board and one period. */
const keysOf = (factory: Factory): Key[] =>
  Object.values(factory).map((build) =>
    typeof build === 'function' ? (build as (...args: unknown[]) => Key)(GAME, 'main', -1) : build,
  );
const startsWith = (key: Key, prefix: Key) => prefix.every((segment, i) => key[i] === segment);

describe('query keys (issue 14, item 11: two modules shared one key for two shapes)', () => {
  it('has one factory per resource module', () => {
    expect(factories.map((f) => f.path).sort()).toEqual(
      [
        './downloads/keys.ts',
        './games/keys.ts',
        './leaderboards/keys.ts',
        './player-auth/keys.ts',
        './players/keys.ts',
        './scores/keys.ts',
        './session/keys.ts',
      ].sort(),
    );
  });

  it('gives every resource a first segment of its own', () => {
    const firsts = factories.map((f) => f.factory.all[0]);
    expect(new Set(firsts).size).toBe(firsts.length);
  });

  it.each(factories.map((f) => [f.name, f.factory] as const))(
    '%s builds every key under its own prefix, the game second',
    (_name, factory) => {
      for (const key of keysOf(factory)) {
        expect(startsWith(key, factory.all)).toBe(true);
        if (key.length > factory.all.length) expect(key[factory.all.length]).toBe(GAME);
      }
    },
  );

  it('never builds a key of one resource that another resource could match or invalidate', () => {
    for (const a of factories) {
      for (const b of factories) {
        if (a === b) continue;
        for (const key of keysOf(a.factory)) {
          for (const other of keysOf(b.factory)) expect(startsWith(key, other)).toBe(false);
        }
      }
    }
  });
});
