/** The byte work of the entry table: id hashing, varints, packed UUIDs. */

/** FNV-1a over the id bytes, then mixed. */
export function hash(bytes: Uint8Array, start: number, end: number, uuid: boolean): number {
  let h = uuid ? 0x811c9dc5 : 0x050c5d1f;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  // FNV leaves ids that differ only in their last bytes clustered: mix the bits (murmur3's finish).
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function byteLength(s: string): number {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return Buffer.byteLength(s, 'utf8');
  return s.length;
}

export function writeAscii(buf: Buffer, at: number, s: string): number {
  for (let i = 0; i < s.length; i++) buf[at + i] = s.charCodeAt(i);
  return s.length;
}

export function writeVarint(buf: Buffer, at: number, n: number): number {
  if (n < 0x80) {
    buf[at] = n;
    return at + 1;
  }
  buf[at] = 0x80 | (n & 0x7f);
  buf[at + 1] = n >> 7;
  return at + 2;
}

export function readVarint(buf: Buffer, at: number): [number, number] {
  const first = buf[at]!;
  if (first < 0x80) return [first, at + 1];
  return [(first & 0x7f) | (buf[at + 1]! << 7), at + 2];
}

/** The value of each hex digit by its char code (lowercase only), -1 for any other code below 128. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let c = 0; c < 16; c++) NIBBLE[c.toString(16).charCodeAt(0)] = c;

/** Packs a canonical lowercase UUID into 16 bytes (their order is the text's order); false for any other id. */
export function packUuid(id: string, out: Buffer, at: number): boolean {
  if (id.length !== 36) return false;
  let j = at;
  for (let i = 0; i < 36;) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (id.charCodeAt(i) !== 45) return false;
      i++;
      continue;
    }
    const a = id.charCodeAt(i);
    const b = id.charCodeAt(i + 1);
    if ((a | b) >= 128) return false;
    const hi = NIBBLE[a]!;
    const lo = NIBBLE[b]!;
    if ((hi | lo) < 0) return false;
    out[j++] = (hi << 4) | lo;
    i += 2;
  }
  return true;
}

/** The two hex digits of each byte value, as character codes. */
const HEX_CODES = new Uint8Array(512);
for (let b = 0; b < 256; b++) HEX_CODES.set(Buffer.from(b.toString(16).padStart(2, '0'), 'latin1'), 2 * b);
const uuidScratch = Buffer.alloc(36);

/**
 * The canonical text of a packed UUID, made in one piece: a string added up digit by digit is a
 * rope of a dozen or more parts, which each answer written with it (escaped, measured, encoded)
 * flattens first.
 */
export function uuidText(buf: Uint8Array, at: number): string {
  let j = 0;
  for (let i = 0; i < 16; i++) {
    const b = buf[at + i]!;
    uuidScratch[j++] = HEX_CODES[2 * b]!;
    uuidScratch[j++] = HEX_CODES[2 * b + 1]!;
    if (i === 3 || i === 5 || i === 7 || i === 9) uuidScratch[j++] = 45; // '-'
  }
  return uuidScratch.toString('latin1', 0, 36);
}
