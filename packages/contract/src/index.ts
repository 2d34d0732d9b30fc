export * from './errors.js';
export * from './auth.js';
