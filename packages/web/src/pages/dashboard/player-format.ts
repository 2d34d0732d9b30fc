import type { Player } from '../../api/players/mutations.js';
import { truncate } from '../../lib/text.js';

/** Enabled or Disabled, with the account state when the game confirms emails; '-' without an account. */
export function statusText(player: Player, emailConfirmation: boolean): string {
  if (player.id === null) return '-'; // a name with data but no account
  const base = player.enabled ? 'Enabled' : 'Disabled';
  return emailConfirmation && player.state ? `${base} (${player.state})` : base;
}

/** The data column: compact JSON cut to 14 characters, or nothing to show. */
export function dataSummary(data: unknown): string {
  if (data === null || data === undefined) return '-';
  return truncate(JSON.stringify(data), 14);
}

/** Epoch seconds as a UTC date string; '-' for names without an account. */
export function createdOn(createdAt: number | null): string {
  return createdAt === null ? '-' : new Date(createdAt * 1000).toUTCString();
}
