import { useState } from 'react';
import { useSession } from '../api/session/queries.js';
import { CreateGameForm, FirstSteps, KeyAndId } from '../components/GameSetup.js';
import { ButtonLink, Card, FormPage, Notice, Spinner } from '../components/ui.js';

/**
 * /createNewGame: a game name and Submit; then 'Congrats' with the new API key and game ID, the next
 * steps (plugin, configure, a first score) and a Home button.
 */
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
      <div className="mx-auto w-full max-w-4xl space-y-8">
        <h1>New game</h1>
        <Card className="max-w-xl space-y-4">
          <Notice tone="success">
            <strong>Congrats</strong>, your new game is ready and is now your current game. Please note its API key and
            game ID: the Howl plugin needs both.
          </Notice>
          <KeyAndId apiKey={created.api_key} gameId={created.game_id} />
        </Card>
        <FirstSteps apiKey={created.api_key} gameId={created.game_id} />
        <div className="flex flex-wrap gap-3">
          <ButtonLink to="/features">Home</ButtonLink>
          <ButtonLink to="/dashboard/game" variant="secondary">
            Open the dashboard
          </ButtonLink>
        </div>
      </div>
    );
  }
  return (
    <FormPage title="New game" intro="Name your new game to get its API key and game ID.">
      <CreateGameForm onCreated={setCreated} />
    </FormPage>
  );
}
