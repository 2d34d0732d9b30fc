import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_NAMES, sample } from './index.js';

const SRC = new URL('..', import.meta.url).pathname;
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
const pages = sources(SRC)
  .filter((f) => !f.includes('.test.'))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
const shown = new Set([...pages.matchAll(/<EngineSample name="(\w+)"|sample\('(\w+)'\)/g)].map((m) => m[1] ?? m[2]));

describe('the GDScript samples', () => {
  it('are each shown by a page, so no file runs in the engine suites that nobody reads', () => {
    expect(SAMPLE_NAMES.filter((name) => !shown.has(name))).toEqual([]);
  });

  it('exist for both engines wherever a page shows them side by side', () => {
    const sideBySide = [...pages.matchAll(/<EngineSample name="(\w+)"/g)].map((m) => m[1]!);
    expect(sideBySide.length).toBeGreaterThan(25);
    const missing = sideBySide.filter((name) => !sample(name).godot3 || !sample(name).godot4);
    expect(missing).toEqual([]);
  });

  it('use Godot 3 syntax for Godot 3 and Godot 4 syntax for Godot 4', () => {
    for (const name of SAMPLE_NAMES) {
      const { godot3, godot4 } = sample(name);
      if (godot3) expect(godot3, name).not.toMatch(/\bawait\b|\.instantiate\(|change_scene_to_file|%\w+\.text/);
      if (godot4) expect(godot4, name).not.toMatch(/\byield\(|\.instance\(\)|change_scene\(|connect\("/);
    }
  });
});
