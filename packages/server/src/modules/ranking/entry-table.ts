import type { OrderKey } from './order.js';
import { byteLength, hash, packUuid, readVarint, uuidText, writeAscii, writeVarint } from './entry-bytes.js';

const EMPTY = -1;
const GONE = -2;
const DEAD = -1;

/**
 * What an entry's row shows besides its order key, in 3 bits: the engine (0 none, 1 Godot 3,
 * 2 Godot 4), or READ_ROW when only the row can tell (it has metadata, or nothing said).
 */
export const READ_ROW = 4;

/** The 3 bits of a row, or of a notice that may carry one (an order key alone reads as READ_ROW). */
export function shownOf(row: object): number {
  if (!('metadata' in row) || !('engine' in row)) return READ_ROW;
  return shownBits(row.metadata !== null, row.engine);
}

/** The 3 bits of a row that has metadata or not, from this engine. */
export function shownBits(hasMetadata: unknown, engine: unknown): number {
  if (hasMetadata) return READ_ROW;
  return engine === null ? 0 : engine === 3 ? 1 : engine === 4 ? 2 : READ_ROW;
}

/** The engine the 3 bits name (when they are not READ_ROW). */
export function engineOf(shown: number): 3 | 4 | null {
  return shown === 1 ? 3 : shown === 2 ? 4 : null;
}

/** A key prepared once per query: its name and id as the bytes the table compares. */
export interface PreparedKey {
  score: number;
  timestamp: number;
  name: Buffer;
  /** 16 bytes when the id is a canonical lowercase UUID, else its UTF-8 text. */
  id: Buffer;
  uuid: boolean;
}

/**
 * The entries of one board period as columns, numbered 0, 1, 2…: score and timestamp as Float64,
 * revision as Int32, and the player name and score id as bytes in one arena (a UUID id packs into
 * 16 bytes; the name's length carries the entry's `shownOf` bits). An open-addressing table of entry
 * numbers finds an entry by id. About 30 bytes plus the name per entry, where an object per entry
 * cost ~200.
 *
 * Numbers of removed entries are not reused; `compacted` renumbers once enough are dead.
 */
export class EntryTable {
  score: Float64Array;
  timestamp: Float64Array;
  revision: Int32Array;
  /** Arena offset << 1 | (1 when the id is a packed UUID); DEAD when removed. */
  ref: Int32Array;
  arena: Buffer;
  used = 0;
  numbers = 0;
  dead = 0;
  private slots: Int32Array;
  private filled = 0;
  private readonly scratch = Buffer.alloc(16);
  /** Where the id of the record written last starts (it ends at `used`): a load files it without reading the record back. */
  private idStart = 0;

  constructor(capacity = 64, arenaBytes = capacity * 32) {
    this.score = new Float64Array(capacity);
    this.timestamp = new Float64Array(capacity);
    this.revision = new Int32Array(capacity);
    this.ref = new Int32Array(capacity);
    this.arena = Buffer.alloc(arenaBytes);
    this.slots = new Int32Array(Math.ceil(capacity * 1.4) + 7).fill(EMPTY);
  }

  get live(): number {
    return this.numbers - this.dead;
  }

  /** Appends an entry and answers its number; the caller has checked that the id is not held. */
  add(id: string, name: string, score: number, timestamp: number, revision: number, shown: number): number {
    const k = this.append(id, name, score, timestamp, revision, shown);
    this.index(k, false);
    return k;
  }

  /** Appends an entry a load read; an id read twice (it moved while the load ran) keeps its newer state. */
  load(id: string, name: string, score: number, timestamp: number, revision: number, shown: number): void {
    const k = this.append(id, name, score, timestamp, revision, shown);
    // A second copy is always a state after an update, so a never-updated row (revision 0) skips the look.
    const other = this.fileAt(k, revision > 0, this.idStart, this.used, (this.ref[k]! & 1) === 1);
    if (other < 0) return;
    if (this.revision[other]! >= revision) {
      // The entry just appended is the older state: take it back.
      this.used = this.ref[k]! >> 1;
      this.numbers--;
      return;
    }
    this.kill(other);
    this.index(k, false);
  }

  private append(id: string, name: string, score: number, timestamp: number, revision: number, shown: number): number {
    if (this.numbers === this.score.length) this.grow(Math.ceil(this.numbers * 1.5) + 16);
    // Linear probing stays short below 80% full; past it, room for 60% more.
    if ((this.filled + 1) * 10 > this.slots.length * 8) this.rehash(Math.ceil((this.live + 1) * 1.6) + 64);
    // Written first: a name the record cannot hold throws before the entry is counted.
    const ref = this.write(id, name, shown);
    const k = this.numbers++;
    this.score[k] = score;
    this.timestamp[k] = timestamp;
    this.revision[k] = revision;
    this.ref[k] = ref;
    return k;
  }

  /** The entry number holding `id`, or -1. */
  find(id: string): number {
    const key = this.idBytes(id);
    const cap = this.slots.length;
    for (let i = hash(key.bytes, 0, key.bytes.length, key.uuid) % cap; ; i = (i + 1) % cap) {
      const k = this.slots[i]!;
      if (k === EMPTY) return -1;
      if (k !== GONE && this.idEquals(k, key.bytes, 0, key.bytes.length, key.uuid)) return k;
    }
  }

  /** Marks an entry removed (its number and arena bytes stay until `compacted`). */
  kill(k: number): void {
    const cap = this.slots.length;
    const { start, end, uuid } = this.idSpan(k);
    for (let i = hash(this.arena, start, end, uuid) % cap; ; i = (i + 1) % cap) {
      if (this.slots[i] === k) {
        this.slots[i] = GONE;
        break;
      }
    }
    this.ref[k] = DEAD;
    this.dead++;
  }

  /** True when a renumbering would free at least a third of the table. */
  wasteful(): boolean {
    return this.dead > 1024 && this.dead * 3 > this.numbers;
  }

  /** A table holding the live entries in `order`, numbered 0… in that order. */
  compacted(order: ArrayLike<number>, spare = 0): EntryTable {
    const n = order.length;
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const k = order[i]!;
      bytes += this.recordEnd(k) - (this.ref[k]! >> 1);
    }
    const next = new EntryTable(n + spare, bytes + spare * 32 + 64);
    for (let i = 0; i < n; i++) {
      const k = order[i]!;
      const start = this.ref[k]! >> 1;
      const end = this.recordEnd(k);
      next.score[i] = this.score[k]!;
      next.timestamp[i] = this.timestamp[k]!;
      next.revision[i] = this.revision[k]!;
      next.ref[i] = (next.used << 1) | (this.ref[k]! & 1);
      this.arena.copy(next.arena, next.used, start, end);
      next.used += end - start;
      next.numbers++;
      next.index(i, false);
    }
    return next;
  }

  /** Sign of (entry `a` against entry `b`) in the board's order. */
  compare(a: number, b: number, desc: boolean): number {
    const sa = this.score[a]!;
    const sb = this.score[b]!;
    if (sa !== sb) return desc ? sb - sa : sa - sb;
    const ta = this.timestamp[a]!;
    const tb = this.timestamp[b]!;
    if (ta !== tb) return ta - tb;
    const na = this.nameSpan(a);
    const nb = this.nameSpan(b);
    const names = this.arena.compare(this.arena, nb.start, nb.end, na.start, na.end);
    if (names !== 0) return names;
    const ia = this.idSpan(a);
    const ib = this.idSpan(b);
    if (ia.uuid && ib.uuid) return this.arena.compare(this.arena, ib.start, ib.end, ia.start, ia.end);
    return Buffer.compare(Buffer.from(this.idOf(a)), Buffer.from(this.idOf(b)));
  }

  /** Sign of (entry `k` against a prepared key) in the board's order. */
  compareKey(k: number, key: PreparedKey, desc: boolean): number {
    const s = this.score[k]!;
    if (s !== key.score) return desc ? key.score - s : s - key.score;
    const t = this.timestamp[k]!;
    if (t !== key.timestamp) return t - key.timestamp;
    const n = this.nameSpan(k);
    const names = key.name.compare(this.arena, n.start, n.end);
    if (names !== 0) return -names;
    const i = this.idSpan(k);
    if (i.uuid && key.uuid) return -key.id.compare(this.arena, i.start, i.end);
    const text = key.uuid ? Buffer.from(uuidText(key.id, 0)) : key.id;
    return -text.compare(Buffer.from(this.idOf(k)));
  }

  prepare(key: OrderKey): PreparedKey {
    const id = Buffer.alloc(16);
    const uuid = packUuid(key.id, id, 0);
    return {
      score: key.score,
      timestamp: key.timestamp,
      name: Buffer.from(key.player_name, 'utf8'),
      id: uuid ? id : Buffer.from(key.id, 'utf8'),
      uuid,
    };
  }

  idOf(k: number): string {
    const { start, end, uuid } = this.idSpan(k);
    return uuid ? uuidText(this.arena, start) : this.arena.toString('utf8', start, end);
  }

  nameOf(k: number): string {
    const { start, end } = this.nameSpan(k);
    return this.arena.toString('utf8', start, end);
  }

  /** The entry's `shownOf` bits: the low 3 of its record's first byte, whatever the varint's length. */
  shown(k: number): number {
    return this.arena[this.ref[k]! >> 1]! & 7;
  }

  /** Moves an entry to a new state; a new name is written afresh (the old bytes stay until compaction). */
  update(k: number, name: string, score: number, timestamp: number, revision: number, shown: number): void {
    this.score[k] = score;
    this.timestamp[k] = timestamp;
    this.revision[k] = revision;
    if (this.nameOf(k) !== name) this.ref[k] = this.write(this.idOf(k), name, shown);
    else {
      const at = this.ref[k]! >> 1;
      this.arena[at] = (this.arena[at]! & ~7) | shown;
    }
  }

  /** Bytes held (what the memory goal counts). */
  bytes(): number {
    return (
      this.score.byteLength +
      this.timestamp.byteLength +
      this.revision.byteLength +
      this.ref.byteLength +
      this.arena.byteLength +
      this.slots.byteLength
    );
  }

  /**
   * Gives back the room a load left spare, keeping a sixteenth for new entries: growing copies every
   * column (tens of milliseconds at a million entries), so the first saves after a load must not.
   */
  trim(): void {
    const room = (n: number) => n + Math.max(1024, n >> 4);
    if (this.arena.length > room(this.used) + 4096) this.arena = this.arenaOf(room(this.used));
    if (this.score.length > room(this.numbers) + 1024) this.grow(room(this.numbers));
  }

  // Record: varint (name length << 3 | shown bits), name bytes, then 16 UUID bytes or varint id length and id bytes.
  private write(id: string, name: string, shown: number): number {
    const nameBytes = byteLength(name);
    // Two varint bytes hold 14 bits: names are at most 100 UTF-16 units (300 bytes), far below.
    if (nameBytes > 2047) throw new RangeError('A player name longer than 2047 bytes cannot be indexed.');
    const need = 2 + nameBytes + 2 + id.length * 3;
    if (this.used + need > this.arena.length) {
      this.arena = this.arenaOf(Math.max(this.used + need, Math.ceil(this.arena.length * 1.5)) + 64);
    }
    const start = this.used;
    let at = writeVarint(this.arena, start, (nameBytes << 3) | shown);
    at += nameBytes === name.length ? writeAscii(this.arena, at, name) : this.arena.write(name, at, 'utf8');
    const uuid = packUuid(id, this.arena, at);
    if (uuid) {
      this.idStart = at;
      at += 16;
    } else {
      at = writeVarint(this.arena, at, byteLength(id));
      this.idStart = at;
      at += this.arena.write(id, at, 'utf8');
    }
    this.used = at;
    return (start << 1) | (uuid ? 1 : 0);
  }

  /** Files entry `k` under its id; with `unique`, answers the entry already filed under it instead (or -1). */
  private index(k: number, unique: boolean): number {
    const { start, end, uuid } = this.idSpan(k);
    return this.fileAt(k, unique, start, end, uuid);
  }

  /** `index` for an entry whose id bytes are known to lie at `start`…`end` of the arena. */
  private fileAt(k: number, unique: boolean, start: number, end: number, uuid: boolean): number {
    const cap = this.slots.length;
    let i = hash(this.arena, start, end, uuid) % cap;
    for (let other = this.slots[i]!; other >= 0 || other === GONE; other = this.slots[i]!) {
      if (other >= 0 && unique && this.idEquals(other, this.arena, start, end - start, uuid)) return other;
      if (other === GONE && !unique) break;
      i = (i + 1) % cap;
    }
    if (this.slots[i] === EMPTY) this.filled++;
    this.slots[i] = k;
    return -1;
  }

  /** The arena's bytes in a buffer of `size`: one memory copy, and the rest not zeroed (nothing past `used` is read). */
  private arenaOf(size: number): Buffer {
    const next = Buffer.allocUnsafeSlow(size);
    this.arena.copy(next, 0, 0, this.used);
    return next;
  }

  private rehash(capacity: number): void {
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.filled = 0;
    for (let k = 0; k < this.numbers; k++) if (this.ref[k] !== DEAD) this.index(k, false);
  }

  private grow(capacity: number): void {
    const resize = <T extends Float64Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity);
      b.set(a.subarray(0, Math.min(a.length, capacity)));
      return b;
    };
    this.score = resize(this.score, (n) => new Float64Array(n));
    this.timestamp = resize(this.timestamp, (n) => new Float64Array(n));
    this.revision = resize(this.revision, (n) => new Int32Array(n));
    this.ref = resize(this.ref, (n) => new Int32Array(n));
  }

  private nameSpan(k: number): { start: number; end: number } {
    const at = this.ref[k]! >> 1;
    const [header, start] = readVarint(this.arena, at);
    return { start, end: start + (header >> 3) };
  }

  private idSpan(k: number): { start: number; end: number; uuid: boolean } {
    const name = this.nameSpan(k);
    if (this.ref[k]! & 1) return { start: name.end, end: name.end + 16, uuid: true };
    const [length, start] = readVarint(this.arena, name.end);
    return { start, end: start + length, uuid: false };
  }

  private recordEnd(k: number): number {
    return this.idSpan(k).end;
  }

  private idBytes(id: string): { bytes: Buffer; uuid: boolean } {
    if (packUuid(id, this.scratch, 0)) return { bytes: this.scratch, uuid: true };
    return { bytes: Buffer.from(id, 'utf8'), uuid: false };
  }

  private idEquals(k: number, bytes: Uint8Array, from: number, length: number, uuid: boolean): boolean {
    const ref = this.ref[k]!;
    if ((ref & 1) !== (uuid ? 1 : 0)) return false;
    // Inline spans (this runs at every probe of a load): skip the name, then the id's length if it has one.
    const a = this.arena;
    let at = ref >> 1;
    at += a[at]! < 0x80 ? 1 + (a[at]! >> 3) : 2 + (((a[at]! & 0x7f) | (a[at + 1]! << 7)) >> 3);
    if (!uuid) {
      const [held, start] = readVarint(a, at);
      if (held !== length) return false;
      at = start;
    }
    // From the end: generated ids often share a prefix.
    for (let i = length - 1; i >= 0; i--) if (a[at + i] !== bytes[from + i]) return false;
    return true;
  }
}
