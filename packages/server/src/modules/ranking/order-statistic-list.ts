/**
 * A sorted list with O(log n) insert, remove, rank and select, for the in-process rank index.
 *
 * Items live in sorted blocks of at most `2 * BLOCK` (a block splits when it grows past that and
 * goes away when empty), and a Fenwick tree over the block sizes answers "how many items come
 * before block b" and "which block holds the i-th item" in O(log blocks). Finding a key is a binary
 * search over the blocks' last items, then one inside the block. At 10^6 items that is ~2,000
 * blocks: every operation touches a few dozen slots.
 */
export class OrderStatisticList<T> {
  private blocks: T[][] = [];
  private tree: number[] = [0];
  private count = 0;

  constructor(
    private readonly compare: (a: T, b: T) => number,
    private readonly blockSize = 512,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Builds from items already in order, in O(n): the fast path of a rebuild. */
  static fromSorted<T>(items: T[], compare: (a: T, b: T) => number, blockSize = 512): OrderStatisticList<T> {
    const list = new OrderStatisticList(compare, blockSize);
    for (let i = 0; i < items.length; i += blockSize) list.blocks.push(items.slice(i, i + blockSize));
    list.count = items.length;
    list.rebuildTree();
    return list;
  }

  /** How many items rank strictly before `key`. */
  lowerBound(key: T): number {
    return this.bound(key, (c) => c >= 0);
  }

  /** How many items rank before `key` or equal to it. */
  upperBound(key: T): number {
    return this.bound(key, (c) => c > 0);
  }

  /** The item at 0-based rank `i`, if any. */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.count) return undefined;
    const [b, offset] = this.locate(i);
    return this.blocks[b]![offset];
  }

  /** Up to `limit` items from rank `from` on (`step` -1 walks towards the top). */
  range(from: number, limit: number, step: 1 | -1 = 1): T[] {
    const out: T[] = [];
    if (limit <= 0 || from < 0 || from >= this.count) return out;
    let [b, offset] = this.locate(from);
    while (out.length < limit && b >= 0 && b < this.blocks.length) {
      const block = this.blocks[b]!;
      out.push(block[offset]!);
      offset += step;
      if (offset < 0 || offset >= block.length) {
        b += step;
        offset = step === 1 ? 0 : (this.blocks[b]?.length ?? 0) - 1;
      }
    }
    return out;
  }

  insert(item: T): void {
    if (this.blocks.length === 0) {
      this.blocks.push([item]);
      this.count = 1;
      this.rebuildTree();
      return;
    }
    // The first block whose last item ranks after `item`, or the last block.
    let b = this.firstBlock((last) => this.compare(last, item) > 0);
    if (b === this.blocks.length) b--;
    const block = this.blocks[b]!;
    block.splice(
      this.searchBlock(block, item, (c) => c > 0),
      0,
      item,
    );
    this.count++;
    if (block.length > 2 * this.blockSize) {
      this.blocks.splice(b, 1, block.slice(0, this.blockSize), block.slice(this.blockSize));
      this.rebuildTree();
    } else {
      this.add(b, 1);
    }
  }

  /** Removes the item equal to `item` (compare 0); false when there is none. */
  remove(item: T): boolean {
    const b = this.firstBlock((last) => this.compare(last, item) >= 0);
    const block = this.blocks[b];
    if (!block) return false;
    const i = this.searchBlock(block, item, (c) => c >= 0);
    if (i >= block.length || this.compare(block[i]!, item) !== 0) return false;
    block.splice(i, 1);
    this.count--;
    if (block.length === 0) {
      this.blocks.splice(b, 1);
      this.rebuildTree();
    } else {
      this.add(b, -1);
    }
    return true;
  }

  private bound(key: T, stop: (c: number) => boolean): number {
    const b = this.firstBlock((last) => stop(this.compare(last, key)));
    if (b === this.blocks.length) return this.count;
    return this.prefix(b) + this.searchBlock(this.blocks[b]!, key, stop);
  }

  /** First block whose last item satisfies `test` (blocks are in order, so `test` flips once). */
  private firstBlock(test: (last: T) => boolean): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.blocks[mid]!;
      if (test(block[block.length - 1]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** First index in a block whose item satisfies `stop(compare(item, key))`. */
  private searchBlock(block: T[], key: T, stop: (c: number) => boolean): number {
    let lo = 0;
    let hi = block.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (stop(this.compare(block[mid]!, key))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  // Fenwick tree over block sizes (1-based inside `tree`).
  private rebuildTree(): void {
    const n = this.blocks.length;
    this.tree = new Array<number>(n + 1).fill(0);
    for (let i = 1; i <= n; i++) {
      this.tree[i]! += this.blocks[i - 1]!.length;
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
