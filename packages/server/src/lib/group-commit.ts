/** What one item of a group came to: its value, or the error that is its alone. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export const done = <R>(value: R): Outcome<R> => ({ ok: true, value });
export const failed = (error: unknown): Outcome<never> => ({ ok: false, error });

/**
 * Runs a group of items in one transaction (or, for reads, one statement) and answers one outcome
 * per item, in order. It throws only when nothing of the group was committed: each item is then
 * run again alone.
 */
export type RunGroup<I, R> = (items: I[]) => Promise<Array<Outcome<R>>>;

export interface GroupCommit<I, R> {
  /** Answers once the group holding the item has committed (or the item failed). */
  enqueue(item: I): Promise<R>;
  /** Groups run so far and the items they held; a group retried item by item counts once per run. */
  readonly stats: { groups: number; items: number };
}

/** Items per group: a group holds its locks while its items run one after another. */
export const MAX_GROUP = 64;

interface Waiting<I, R> {
  item: I;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit: writes that arrive while a group's transaction runs wait, and go together in the
 * next one, so N writes cost one transaction (one fsync on SQLite, one lock and fewer round trips
 * on PostgreSQL) rather than N. An idle queue runs a lone item on the event loop's next turn, with
 * no timer: a lone write waits for nothing but the requests that have already arrived.
 */
export function groupCommit<I, R>(run: RunGroup<I, R>, maxGroup = MAX_GROUP): GroupCommit<I, R> {
  const queue: Array<Waiting<I, R>> = [];
  let running = false;
  const stats = { groups: 0, items: 0 };

  async function runCounted(items: I[]) {
    stats.groups++;
    stats.items += items.length;
    return run(items);
  }

  async function settle(group: Array<Waiting<I, R>>) {
    let outcomes: Array<Outcome<R>>;
    try {
      outcomes = await runCounted(group.map((w) => w.item));
    } catch (err) {
      if (group.length === 1) {
        outcomes = [failed(err)];
      } else {
        // Nothing was committed: alone, one bad item cannot take the others down with it.
        outcomes = [];
        for (const w of group) outcomes.push(await runCounted([w.item]).then((o) => o[0]!, failed));
      }
    }
    group.forEach((w, i) => {
      const outcome = outcomes[i] ?? failed(new Error('a group answered fewer outcomes than it had items'));
      if (outcome.ok) w.resolve(outcome.value);
      else w.reject(outcome.error);
    });
  }

  async function drain() {
    while (queue.length > 0) await settle(queue.splice(0, maxGroup));
    running = false;
  }

  return {
    stats,
    enqueue(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (running) return;
        running = true;
        // Not a timer: the requests already read from the network reach the queue first. On SQLite
        // a transaction runs without yielding, so without this no request would ever join another.
        setImmediate(() => void drain());
      });
    },
  };
}

/** One group commit per key (a board, say): groups of different keys run side by side. */
export function keyedGroupCommit<I, R>(
  keyOf: (item: I) => string,
  run: RunGroup<I, R>,
  maxGroup = MAX_GROUP,
): GroupCommit<I, R> {
  const byKey = new Map<string, { commit: GroupCommit<I, R>; pending: number }>();
  const stats = { groups: 0, items: 0 };
  const counted: RunGroup<I, R> = (items) => {
    stats.groups++;
    stats.items += items.length;
    return run(items);
  };
  return {
    stats,
    async enqueue(item) {
      const key = keyOf(item);
      let entry = byKey.get(key);
      if (!entry) {
        entry = { commit: groupCommit(counted, maxGroup), pending: 0 };
        byKey.set(key, entry);
      }
      entry.pending++;
      try {
        return await entry.commit.enqueue(item);
      } finally {
        // An idle key holds nothing: boards come and go.
        if (--entry.pending === 0) byKey.delete(key);
      }
    },
  };
}
