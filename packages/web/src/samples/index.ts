/**
 * The GDScript samples the guides show, one file per sample and engine (`godot3/<name>.gd`,
 * `godot4/<name>.gd`). The engine suites run these same files against a live server, so what a
 * page shows is what runs. Every sample uses one plugin API: a `Howl` autoload with `Scores`,
 * `Players` and `PlayerData`; every call completes with a Dictionary whose `error` is null or
 * `{code, message}`.
 */

const load = (files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([path, code]) => [path.replace(/^.*\/(.*)\.gd$/, '$1'), code]));

const GODOT3 = load(import.meta.glob<string>('./godot3/*.gd', { query: '?raw', import: 'default', eager: true }));
const GODOT4 = load(import.meta.glob<string>('./godot4/*.gd', { query: '?raw', import: 'default', eager: true }));

/** The server address the samples are written for (the one `npm start` serves). */
export const SAMPLE_BASE_URL = 'http://localhost:8080';

/** Both engines' versions of a sample; a name with no file for an engine has `undefined` there. */
export function sample(name: string): { godot3: string | undefined; godot4: string | undefined } {
  return { godot3: GODOT3[name], godot4: GODOT4[name] };
}

/** Every sample name, for the test that checks each file is shown by a page. */
export const SAMPLE_NAMES = [...new Set([...Object.keys(GODOT3), ...Object.keys(GODOT4)])].sort();
