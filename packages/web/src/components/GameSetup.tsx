import { Eye } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useCreateGame } from '../api/games/mutations.js';
import { useApiKey } from '../api/games/queries.js';
import { useCurrentGame, useSession } from '../api/session/queries.js';
import { EngineSample } from './CodeBlock.js';
import { CopyButton } from './CopyButton.js';
import { Button, Card, Field, Notice, Spinner } from './ui.js';

/** The API key and game id, each with a copy button. */
export function KeyAndId({ apiKey, gameId }: { apiKey: string; gameId: string }) {
  return (
    <dl className="space-y-3">
      {[
        ['API key', apiKey],
        ['Game ID', gameId],
      ].map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm font-medium text-slate-600">{label}</dt>
          <dd className="mt-1 flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm">{value}</code>
            <CopyButton text={value!} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * What a developer does with a new game: get the plugin, configure it with this game's key and id
 * (the configure sample, filled in), and save a first score.
 */
export function FirstSteps({ apiKey, gameId }: { apiKey: string; gameId: string }) {
  return (
    <section aria-labelledby="first-steps" className="prose-howl">
      <h2 id="first-steps">Next steps</h2>
      <ol>
        <li>
          <Link to="/download">Download the plugin</Link> for your engine (Godot 3.x or 4.x), unzip it into your
          project's folder and enable <strong>Howl</strong> in <strong>Project → Project Settings → Plugins</strong>.
        </li>
        <li>
          Configure the plugin once, before the first call, for example in your first scene. This sample already holds
          your game's API key and game ID:
          {/* One engine under the other: in this narrow column, the key's line is too long for two. */}
          <div className="my-4 [&>div]:grid-cols-1">
            <EngineSample name="configure" fill={{ YOUR_API_KEY: apiKey, YOUR_GAME_ID: gameId }} />
          </div>
        </li>
        <li>
          Save a first score: it goes to the <code>main</code> leaderboard every new game has.
          <div className="my-4 [&>div]:grid-cols-1">
            <EngineSample name="save_score" />
          </div>
          Then see it on the <Link to="/dashboard/scores">dashboard</Link>. The{' '}
          <Link to="/leaderboard">leaderboard guide</Link> shows what else the plugin can do.
        </li>
      </ol>
    </section>
  );
}

/** 'Name of your game' and Submit; then the new key and id, with a request to note them. */
export function CreateGameForm({ onCreated }: { onCreated?: (created: { api_key: string; game_id: string }) => void }) {
  const [name, setName] = useState('');
  const create = useCreateGame();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(name, { onSuccess: (created) => onCreated?.(created) });
  };
  if (create.data && !onCreated) {
    return (
      <div className="space-y-4">
        <Notice tone="success">Your game is ready. Please note your API key and game ID: the plugin needs both.</Notice>
        <KeyAndId apiKey={create.data.api_key} gameId={create.data.game_id} />
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label="Name of your game" required value={name} onChange={(e) => setName(e.target.value)} maxLength={64} />
      {create.error && <Notice tone="error">There was an error creating your new game - {create.error.message}</Notice>}
      <Button type="submit" busy={create.isPending}>
        Submit
      </Button>
    </form>
  );
}

/** View API key: hidden until the button is pressed. */
export function ApiKeyReveal({ gameId }: { gameId: string }) {
  const [shown, setShown] = useState(false);
  const key = useApiKey(gameId, shown);
  if (!shown) {
    return (
      <Button variant="secondary" onClick={() => setShown(true)}>
        <Eye aria-hidden className="size-4" /> View API key
      </Button>
    );
  }
  if (key.isPending) return <Spinner label="Fetching your API key…" />;
  if (key.error) return <Notice tone="error">{key.error.message}</Notice>;
  return <KeyAndId apiKey={key.data.api_key} gameId={gameId} />;
}

/**
 * The setup pages' three states: signed out (the pitch), signed in without a game (create one),
 * and with a game (the page itself).
 */
export function SetupGate({ signedOut, children }: { signedOut: ReactNode; children: ReactNode }) {
  const { data: session, isPending } = useSession();
  const game = useCurrentGame();
  // Kept after the session refreshes, so the new key and id stay on screen to be noted.
  const [created, setCreated] = useState<{ api_key: string; game_id: string }>();
  if (isPending) return <Spinner />;
  if (!session) return <>{signedOut}</>;
  if (!game) {
    return (
      <Card className="max-w-xl">
        <h2 className="mb-2">Create your first game</h2>
        <p className="mb-4 text-slate-600">Name your game to get an API key and a game ID for the Howl plugin.</p>
        <CreateGameForm onCreated={setCreated} />
      </Card>
    );
  }
  return (
    <>
      {created && (
        <Card className="mb-8 max-w-xl">
          <Notice tone="success">
            Your game is ready. Please note your API key and game ID: the plugin needs both.
          </Notice>
          <div className="mt-4">
            <KeyAndId apiKey={created.api_key} gameId={created.game_id} />
          </div>
        </Card>
      )}
      {children}
    </>
  );
}
