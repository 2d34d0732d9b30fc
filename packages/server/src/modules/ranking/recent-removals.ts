import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { storedIn, type BoardPeriod, type ShownRow } from './rank-index.js';

/** How long a removed id is remembered: longer than any notice of a write can take to arrive. */
const REMEMBER_REMOVED_MS = 120_000;

/**
 * Ids removed lately, oldest first, with when: a late "saved" notice must not bring one back.
 * Shared by the process-local indexes; the Redis index keeps its own in Redis.
 */
export class RecentRemovals {
  /** One record per removal, so a removal after a look is told from the one looked at. */
  private readonly removed = new Map<string, { at: number }>();

  add(id: string, at: number): void {
    this.removed.delete(id); // to the end: the map stays oldest first
    this.removed.set(id, { at });
  }

  has(id: string): boolean {
    return this.removed.has(id);
  }

  /** Forgets removals older than the notices that could still arrive; stops at the first still remembered. */
  forgetBefore(at: number): void {
    for (const [id, { at: when }] of this.removed) {
      if (at - when < REMEMBER_REMOVED_MS) break;
      this.removed.delete(id);
    }
  }

  /**
   * A "saved" notice of a removed id is late, unless the database holds the id again: ids a client
   * chose can come back (a save or an import naming a deleted score's id). Answers the entry as
   * stored, forgetting its removal, or undefined (late, or removed again while it was read).
   */
  async savedAgain(db: Kysely<DB>, board: BoardPeriod, id: string): Promise<ShownRow | undefined> {
    const removal = this.removed.get(id);
    const row = await storedIn(db, board, id);
    if (!row) return undefined;
    const now = this.removed.get(id);
    if (now === removal) {
      this.removed.delete(id);
      return row;
    }
    // Removed again while it was read: that removal wins.
    if (now !== undefined) return undefined;
    // Another notice of the id found it saved again first, and what it applied may be newer than
    // this read (a revision starts again at 0 when an id comes back): read it again.
    const fresh = await storedIn(db, board, id);
    return this.removed.has(id) ? undefined : fresh;
  }
}
