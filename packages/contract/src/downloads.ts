import { z } from 'zod';

/** The engines Howl ships a plugin for: `plugins/<engine>/addons/howl/` in the repository. */
export const pluginEngines = ['godot3', 'godot4'] as const;
export type PluginEngine = (typeof pluginEngines)[number];

/** Where the server serves the plugin zips; the site's own `/download` page is beside them. */
export const DOWNLOAD_PATH = '/download';

/** The zip's file name says engine and version: `howl-godot4-0.9.7.zip`. */
export function pluginZipName(engine: PluginEngine, version: string): string {
  return `howl-${engine}-${version}.zip`;
}

const pluginDownload = z.object({
  engine: z.enum(pluginEngines),
  version: z.string(),
  file: z.string().meta({ description: 'The zip, served at /download/<file>.' }),
  bytes: z.number().int().nonnegative(),
  sha256: z.string(),
});
export type PluginDownload = z.infer<typeof pluginDownload>;

/** `/download/downloads.json`, written by the build beside the zips it packed. */
export const pluginDownloadsResponse = z.object({ downloads: z.array(pluginDownload) });
export type PluginDownloads = z.infer<typeof pluginDownloadsResponse>;
