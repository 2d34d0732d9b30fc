import type { OrderKey } from './order.js';
import { type EntryTable, READ_ROW, engineOf, shownOf } from './entry-table.js';
import { OrderStatisticList, type Probe } from './order-statistic-list.js';
import type { BoardPeriod, ShownRow } from './rank-index.js';

/** One loaded board period: entries as columns, and the list of their numbers in board order. */
export class Period {
  readonly desc: boolean;
  table: EntryTable;
  list: OrderStatisticList;

  constructor(
    readonly sort: BoardPeriod['sort'],
    table: EntryTable,
    order: ArrayLike<number>,
  ) {
    this.desc = sort === 'desc';
    this.table = table;
    this.list = OrderStatisticList.fromSorted(order);
  }

  probe(key: OrderKey): Probe {
    const prepared = this.table.prepare(key);
    return (k) => this.table.compareKey(k, prepared, this.desc);
  }

  /** The probe that finds entry `k` itself. */
  probeEntry(k: number): Probe {
    return (other) => (other === k ? 0 : this.table.compare(other, k, this.desc));
  }

  save(entry: OrderKey & { revision: number }): void {
    const t = this.table;
    const k = t.find(entry.id);
    const shown = shownOf(entry);
    if (k >= 0) {
      if (t.revision[k]! >= entry.revision) return; // an older notification arriving late
      this.list.remove(this.probeEntry(k));
      t.update(k, entry.player_name, entry.score, entry.timestamp, entry.revision, shown);
      this.list.insert(k, this.probeEntry(k));
      return;
    }
    const added = t.add(entry.id, entry.player_name, entry.score, entry.timestamp, entry.revision, shown);
    this.list.insert(added, this.probeEntry(added));
  }

  remove(id: string): void {
    const k = this.table.find(id);
    if (k < 0) return;
    this.list.remove(this.probeEntry(k));
    this.table.kill(k);
    if (this.table.wasteful()) {
      // Renumbers in board order, so the list becomes 0, 1, 2…
      const order = this.list.range(0, this.list.size);
      this.table = this.table.compacted(order, 1024);
      this.list = OrderStatisticList.fromSorted(order.map((_, i) => i));
    }
  }

  /** The row of entry `k` as an answer shows it, or its id when only the row itself can tell (READ_ROW). */
  shown(board: BoardPeriod, k: number): ShownRow | string {
    const t = this.table;
    const bits = t.shown(k);
    if (bits & READ_ROW) return t.idOf(k);
    return {
      id: t.idOf(k),
      leaderboard_id: board.boardId,
      period_start: board.periodStart,
      player_name: t.nameOf(k),
      score: t.score[k]!,
      timestamp: t.timestamp[k]!,
      metadata: null,
      engine: engineOf(bits),
      revision: t.revision[k]!,
    };
  }

  bytes(): number {
    return this.table.bytes() + this.list.bytes();
  }
}
