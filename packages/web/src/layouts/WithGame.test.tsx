// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionKeys } from '../api/session/keys.js';
import { renderWithProviders } from '../test/render.js';
import { game, withGames } from '../test/sessions.js';
import { WithGame } from './DashboardLayout.js';

afterEach(cleanup);

/** A page with a draft of its own, as the rename form and the player export have. */
function Draft({ name }: { name: string }) {
  const [draft, setDraft] = useState(name);
  return <input aria-label={`name of ${name}`} value={draft} onChange={(e) => setDraft(e.target.value)} />;
}

describe('WithGame', () => {
  it('starts the page afresh when the developer switches game: nothing typed for one game stays for the next', async () => {
    const user = userEvent.setup();
    const games = withGames(game('GameOne00000000a', 'Wolf Run'), game('GameTwo00000000b', 'Empty Game'));
    const { client } = renderWithProviders(
      <WithGame signedOutMessage="Sign in.">{(g) => <Draft name={g.name} />}</WithGame>,
      { session: games, staleTime: Infinity },
    );
    const first = screen.getByRole('textbox', { name: 'name of Wolf Run' });
    await user.clear(first);
    await user.type(first, 'Wolf Run 2');
    expect(first).toHaveValue('Wolf Run 2');

    await act(async () => client.setQueryData(sessionKeys.all, { ...games, current_game_id: 'GameTwo00000000b' }));
    expect(await screen.findByRole('textbox', { name: 'name of Empty Game' })).toHaveValue('Empty Game');
  });
});
