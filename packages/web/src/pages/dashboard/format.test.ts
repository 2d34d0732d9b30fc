import { describe, expect, it } from 'vitest';
import type { Player } from '../../api/players/mutations.js';
import { truncate } from '../../lib/text.js';
import { createdOn, dataSummary, statusText } from './player-format.js';
import { engineText, metadataRows, periodLabel } from './score-format.js';

const player = (over: Partial<Player> = {}): Player => ({
  id: 'id-1',
  player_name: 'wolf',
  email: 'wolf@example.com',
  enabled: true,
  state: 'UNCONFIRMED',
  created_at: 1_795_000_000,
  player_data: null,
  ...over,
});

describe('dashboard text', () => {
  it('cuts names to 22, emails to 26 and data summaries to 14 characters plus an ellipsis', () => {
    expect(truncate('a'.repeat(22), 22)).toBe('a'.repeat(22));
    expect(truncate('a'.repeat(23), 22)).toBe(`${'a'.repeat(22)}...`);
    expect(truncate('e'.repeat(27), 26)).toBe(`${'e'.repeat(26)}...`);
    expect(dataSummary({ level: 10, inventory: ['sword'] })).toBe('{"level":10,"i...');
    expect(dataSummary({ a: 1 })).toBe('{"a":1}');
    expect(dataSummary(null)).toBe('-');
    // Characters, not UTF-16 units: an emoji counts once.
    expect(truncate('🐺'.repeat(3), 2)).toBe('🐺🐺...');
  });

  it('shows Enabled or Disabled, with the account state only when email confirmation is on', () => {
    expect(statusText(player(), false)).toBe('Enabled');
    expect(statusText(player(), true)).toBe('Enabled (UNCONFIRMED)');
    expect(statusText(player({ enabled: false, state: 'CONFIRMED' }), true)).toBe('Disabled (CONFIRMED)');
    expect(statusText(player({ id: null, state: null, created_at: null }), true)).toBe('-');
  });

  it('shows the creation time as a UTC date string', () => {
    expect(createdOn(1_795_000_000)).toBe('Wed, 18 Nov 2026 11:06:40 GMT');
    expect(createdOn(null)).toBe('-');
  });

  it('lists metadata as key/value pairs, values cut to 20 characters, nested keys dotted', () => {
    expect(metadataRows({ level: 3, boss: { name: 'The Great Howling Wolf', beaten: true } })).toEqual([
      ['level', '3'],
      ['boss.name', 'The Great Howling Wo...'],
      ['boss.beaten', 'true'],
    ]);
    expect(metadataRows(null)).toEqual([]);
  });

  it('names engines and periods', () => {
    expect(['3', '4', 'both', '-'].map((e) => engineText(e as '3'))).toEqual(['3', '4', '3 and 4', '-']);
    expect([0, -1, -3].map(periodLabel)).toEqual(['Current period', 'Previous period', '3 periods ago']);
  });
});
