import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { customAlphabet } from 'nanoid';

/** 256 random bits, URL-safe: session tokens and other bearer secrets. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What we store instead of a secret: a leaked table gives nothing to sign in with. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A 6-digit code for emails, uniformly drawn. */
export function newSixDigitCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

export function newId(): string {
  return randomUUID();
}

/**
 * A score's id: a version 7 UUID, whose first 48 bits are the time it was made (74 bits stay
 * random). New scores' ids sort together, so the id index takes a group's ids on one page at its
 * end instead of one random page each.
 */
export function newScoreId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // A version 4 UUID's text after its version digit: random, with the variant bits already set.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}

/** The namespace of the score ids `nameBasedScoreId` makes (a fixed random UUID, as RFC 9562 has them chosen). */
const SCORE_NAMESPACE = Buffer.from('6f1e3d0a9b7c4e2f8a5d1c3b7e9f0a24', 'hex');

/** A name-based UUID (version 5, RFC 9562): the same name always gives the same id. */
export function nameBasedScoreId(name: string): string {
  const hash = createHash('sha1').update(SCORE_NAMESPACE).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// Letters and digits only: ids and keys are pasted into Godot configs and shells, where `-` and `_` at the start get in the way.
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const gameIdChars = customAlphabet(ALPHANUMERIC, 16);
const apiKeyChars = customAlphabet(ALPHANUMERIC, 43);

/** A game id: 16 letters and digits, about 95 random bits. */
export function newGameId(): string {
  return gameIdChars();
}

/** An API key: 43 letters and digits (about 256 random bits) behind a prefix that secret scanners can spot. */
export function newApiKey(): string {
  return `howl_${apiKeyChars()}`;
}

/**
 * Compares two secrets in time that does not depend on where they differ. Only a length mismatch
 * answers early: the length of a key is public (its format), its characters are not. Checked on
 * every game call, so no hashing.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
