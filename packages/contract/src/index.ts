export * from './json.js';
export * from './errors.js';
export * from './auth.js';
export * from './games.js';
export * from './contact.js';
export * from './leaderboards.js';
export * from './players.js';
export * from './player-data.js';
