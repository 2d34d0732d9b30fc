import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packPlugins } from '../../scripts/pack-plugins.js';

const ROOT = new URL('../..', import.meta.url).pathname;

declare module 'vitest' {
  export interface ProvidedContext {
    /** The site built once for the browser suites, apart from packages/web/dist (which `npm start` rebuilds). */
    webRoot: string;
  }
}

/** Global setup: builds the site and the plugin zips into a folder of its own for the browser suites; removes it afterwards. */
export default function buildWeb(project: TestProject): () => void {
  const outDir = mkdtempSync(join(tmpdir(), 'howl-web-e2e-'));
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: join(ROOT, 'packages/web'),
    stdio: 'inherit',
  });
  // The plugin zips the download page links, as `npm run build` packs them.
  packPlugins(join(outDir, 'download'));
  project.provide('webRoot', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
