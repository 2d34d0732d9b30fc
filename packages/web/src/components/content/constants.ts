/** Current plugin releases, per engine (spec §9). */
export const PLUGIN_VERSIONS = { godot3: '0.6.20', godot4: '0.9.7' } as const;

/** When the terms and the privacy policy last changed (spec §2.9, §9). */
export const LEGAL_UPDATED = 'July 25th 2022';
