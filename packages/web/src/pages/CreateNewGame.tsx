import { useState } from 'react';
import { useSession } from '../api/session/queries.js';
import { CreateGameForm, KeyAndId } from '../components/GameSetup.js';
import { ButtonLink, FormPage, Notice, Spinner } from '../components/ui.js';

/** /createNewGame: a game name and Submit; then 'Congrats' with the new API key and game ID. */
export function CreateNewGame() {
  const { data: session, isPending } = useSession();
  const [created, setCreated] = useState<{ api_key: string; game_id: string }>();
  if (isPending) return <Spinner />;
  if (!session) {
    return (
      <FormPage title="New game">
        <div className="space-y-4">
          <p className="text-slate-700">Sign in before you can create a new game</p>
          <ButtonLink to="/auth">Login</ButtonLink>
        </div>
      </FormPage>
    );
  }
  if (created) {
    return (
      <FormPage title="New game">
        <div className="space-y-4">
          <Notice tone="success">
            <strong>Congrats</strong>, your new game is ready and is now your current game. Please note its API key and
            game ID: the Howl plugin needs both.
          </Notice>
          <KeyAndId apiKey={created.api_key} gameId={created.game_id} />
          <ButtonLink to="/features">Home</ButtonLink>
        </div>
      </FormPage>
    );
  }
  return (
    <FormPage title="New game" intro="Name your new game to get its API key and game ID.">
      <CreateGameForm onCreated={setCreated} />
    </FormPage>
  );
}
