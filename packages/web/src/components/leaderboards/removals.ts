import type { InsertOption } from '@howl/contract';

/** The settings of a board whose change can delete entries (docs/leaderboards.md, "Changing the save mode"). */
export interface SizeAndMode {
  insert_option: InsertOption;
  max_entries: number | null;
}

const FROM_KEEP: Record<Exclude<InsertOption, 'keep'>, string> = {
  highest: 'Each player keeps only their best entry in each period; their other entries are deleted.',
  latest: 'Each player keeps only their latest entry in each period; their other entries are deleted.',
  accumulator:
    'Each player keeps only their latest entry in each period, holding the sum of all of them; their other entries are deleted.',
};

/** What saving `next` over the board as `stored` deletes, in words; empty when it deletes nothing. */
export function removedBy(stored: SizeAndMode, next: SizeAndMode): string[] {
  const removed: string[] = [];
  if (stored.insert_option === 'keep' && next.insert_option !== 'keep') removed.push(FROM_KEEP[next.insert_option]);
  const size = next.max_entries;
  if (size !== null && (stored.max_entries === null || size < stored.max_entries)) {
    removed.push(`Each period keeps only its best ${size} entries; the others are deleted.`);
  }
  return removed;
}
