/**
 * Where an item stands against the key a search is about: negative when the item ranks before
 * the key, 0 when it is the key, positive when it ranks after.
 */
export type Probe = (item: number) => number;

/** Whether a search stops at an item the probe answered `c` for: at the key (`past` 0) or only beyond it (1). */
const stops = (c: number, past: 0 | 1) => (past === 0 ? c >= 0 : c > 0);

/**
 * A sorted list of int32 items (entry numbers of the in-process rank index) with O(log n) insert,
 * remove, rank and select. The list never compares items itself: every search takes a probe, so
 * the order lives in the caller's columns and an item costs 4 bytes here.
 *
 * Items live in sorted blocks (Int32Array) of at most `2 * blockSize` (a block splits when it
 * grows past that and goes away when empty), and a Fenwick tree over the block sizes answers "how
 * many items come before block b" and "which block holds the i-th item" in O(log blocks). Finding
 * a key is a binary search over the blocks' last items, then one inside the block. At 10^6 items
 * that is ~2,000 blocks: every operation touches a few dozen slots.
 */
export class OrderStatisticList {
  private blocks: Int32Array[] = [];
  private lens: number[] = [];
  private tree: number[] = [0];
  private count = 0;

  constructor(private readonly blockSize = 512) {}

  get size(): number {
    return this.count;
  }

  /** Builds from items already in order, in O(n): the fast path of a rebuild. Blocks start full, with no spare room. */
  static fromSorted(items: ArrayLike<number>, blockSize = 512): OrderStatisticList {
    const list = new OrderStatisticList(blockSize);
    for (let i = 0; i < items.length; i += blockSize) {
      const n = Math.min(blockSize, items.length - i);
      const block = new Int32Array(n);
      for (let j = 0; j < n; j++) block[j] = items[i + j]!;
      list.blocks.push(block);
      list.lens.push(n);
    }
    list.count = items.length;
    list.rebuildTree();
    return list;
  }

  /** How many items rank strictly before the key. */
  lowerBound(probe: Probe): number {
    return this.bound(probe, 0);
  }

  /** How many items rank before the key or are it. */
  upperBound(probe: Probe): number {
    return this.bound(probe, 1);
  }

  /** The item at 0-based rank `i`, if any. */
  at(i: number): number | undefined {
    if (i < 0 || i >= this.count) return undefined;
    const [b, offset] = this.locate(i);
    return this.blocks[b]![offset];
  }

  /** Up to `limit` items from rank `from` on (`step` -1 walks towards the top). */
  range(from: number, limit: number, step: 1 | -1 = 1): number[] {
    const out: number[] = [];
    if (limit <= 0 || from < 0 || from >= this.count) return out;
    let [b, offset] = this.locate(from);
    while (out.length < limit && b >= 0 && b < this.blocks.length) {
      out.push(this.blocks[b]![offset]!);
      offset += step;
      if (offset < 0 || offset >= this.lens[b]!) {
        b += step;
        offset = step === 1 ? 0 : (this.lens[b] ?? 0) - 1;
      }
    }
    return out;
  }

  /** Inserts `item`, whose place `probe` tells (after any item the probe calls equal). */
  insert(item: number, probe: Probe): void {
    if (this.blocks.length === 0) {
      this.blocks.push(new Int32Array(2 * this.blockSize + 1));
      this.lens.push(0);
    }
    // The first block whose last item ranks after `item`, or the last block.
    let b = this.firstBlock(probe, 1);
    if (b === this.blocks.length) b--;
    let block = this.blocks[b]!;
    const len = this.lens[b]!;
    const at = this.searchBlock(block, len, probe, 1);
    if (len === block.length) {
      // Blocks built by fromSorted are full; the first insert gives one room to grow to a split.
      const grown = new Int32Array(2 * this.blockSize + 1);
      grown.set(block);
      this.blocks[b] = block = grown;
    }
    block.copyWithin(at + 1, at, len);
    block[at] = item;
    this.lens[b] = len + 1;
    this.count++;
    if (len + 1 > 2 * this.blockSize) {
      const tail = new Int32Array(2 * this.blockSize + 1);
      tail.set(block.subarray(this.blockSize, len + 1));
      this.blocks.splice(b + 1, 0, tail);
      this.lens.splice(b + 1, 0, len + 1 - this.blockSize);
      this.lens[b] = this.blockSize;
      this.rebuildTree();
    } else {
      this.add(b, 1);
    }
  }

  /** Removes the item the probe calls equal; answers it, or undefined when there is none. */
  remove(probe: Probe): number | undefined {
    const b = this.firstBlock(probe, 0);
    const block = this.blocks[b];
    if (!block) return undefined;
    const len = this.lens[b]!;
    const i = this.searchBlock(block, len, probe, 0);
    if (i >= len || probe(block[i]!) !== 0) return undefined;
    const item = block[i]!;
    block.copyWithin(i, i + 1, len);
    this.lens[b] = len - 1;
    this.count--;
    if (len === 1) {
      this.blocks.splice(b, 1);
      this.lens.splice(b, 1);
      this.rebuildTree();
    } else {
      this.add(b, -1);
    }
    return item;
  }

  /** Bytes held by the blocks and the tree (what the memory goal counts). */
  bytes(): number {
    let n = this.tree.length * 8 + this.lens.length * 8;
    for (const block of this.blocks) n += block.byteLength;
    return n;
  }

  // `past` 0: stop at the first item at or after the key; 1: at the first item strictly after it.
  private bound(probe: Probe, past: 0 | 1): number {
    const b = this.firstBlock(probe, past);
    if (b === this.blocks.length) return this.count;
    return this.prefix(b) + this.searchBlock(this.blocks[b]!, this.lens[b]!, probe, past);
  }

  /** First block whose last item stops the search (blocks are in order, so the test flips once). */
  private firstBlock(probe: Probe, past: 0 | 1): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (stops(probe(this.blocks[mid]![this.lens[mid]! - 1]!), past)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** First index in a block whose item stops the search. */
  private searchBlock(block: Int32Array, len: number, probe: Probe, past: 0 | 1): number {
    let lo = 0;
    let hi = len;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (stops(probe(block[mid]!), past)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  // Fenwick tree over block sizes (1-based inside `tree`).
  private rebuildTree(): void {
    const n = this.blocks.length;
    this.tree = new Array<number>(n + 1).fill(0);
    for (let i = 1; i <= n; i++) {
      this.tree[i]! += this.lens[i - 1]!;
      const parent = i + (i & -i);
      if (parent <= n) this.tree[parent]! += this.tree[i]!;
    }
  }

  private add(block: number, delta: number): void {
    for (let i = block + 1; i < this.tree.length; i += i & -i) this.tree[i]! += delta;
  }

  /** Items in the blocks before `block`. */
  private prefix(block: number): number {
    let sum = 0;
    for (let i = block; i > 0; i -= i & -i) sum += this.tree[i]!;
    return sum;
  }

  /** The block holding rank `i` and the offset in it (binary lifting over the tree). */
  private locate(i: number): [number, number] {
    let pos = 0;
    let remaining = i;
    for (let step = 1 << Math.floor(Math.log2(this.tree.length || 1)); step > 0; step >>= 1) {
      const next = pos + step;
      if (next < this.tree.length && this.tree[next]! <= remaining) {
        pos = next;
        remaining -= this.tree[next]!;
      }
    }
    return [pos, remaining];
  }
}
