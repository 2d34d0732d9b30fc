/** How long a removed id is remembered: longer than any notice of a write can take to arrive. */
const REMEMBER_REMOVED_MS = 120_000;

/**
 * Ids removed lately, oldest first, with when: a late "saved" notice must not bring one back (ids
 * are never reused). Shared by the process-local indexes; the Redis index keeps its own in Redis.
 */
export class RecentRemovals {
  private readonly removed = new Map<string, number>();

  add(id: string, at: number): void {
    this.removed.set(id, at);
  }

  has(id: string): boolean {
    return this.removed.has(id);
  }

  /** Forgets removals older than the notices that could still arrive; stops at the first still remembered. */
  forgetBefore(at: number): void {
    for (const [id, when] of this.removed) {
      if (at - when < REMEMBER_REMOVED_MS) break;
      this.removed.delete(id);
    }
  }
}
