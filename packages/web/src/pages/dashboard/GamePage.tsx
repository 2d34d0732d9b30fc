import type { GameDetails } from '@howl/contract';
import { Eye, Pencil, RefreshCw } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useDeleteGame, useRotateApiKey, useUpdateGame } from '../../api/games/mutations.js';
import { useApiKey, useGameDetails } from '../../api/games/queries.js';
import { CopyButton } from '../../components/CopyButton.js';
import { Modal } from '../../components/Modal.js';
import { Button, Card, Field, LoadFailed, Notice, Spinner } from '../../components/ui.js';
import { WithGame } from '../../layouts/DashboardLayout.js';

/**
 * The current game and everything about it: id, name (rename), the API key (view, copy, rotate),
 * whether game clients may delete, the plugin and engine versions last seen, and deleting the game.
 */
export function GamePage() {
  return (
    <WithGame signedOutMessage="You must be logged in to delete a game.">
      {(game) => <GameDetailsView game={game} />}
    </WithGame>
  );
}

function GameDetailsView({ game }: { game: { game_id: string; name: string } }) {
  const details = useGameDetails(game.game_id);
  // The settings' answer has a new name first; the session's list follows once it is asked again.
  const name = details.data?.name ?? game.name;
  return (
    <div className="max-w-2xl space-y-6">
      <h1>Game</h1>
      <Card>
        <dl className="grid gap-x-4 gap-y-5 sm:grid-cols-[10rem_1fr]">
          <Row label="Game ID">
            <span className="flex flex-wrap items-center gap-2 font-mono text-sm">
              <span className="break-all">{game.game_id}</span> <CopyButton text={game.game_id} />
            </span>
          </Row>
          <Row label="Game name">
            <GameName gameId={game.game_id} name={name} />
          </Row>
          <Row label="API key">
            <ApiKey gameId={game.game_id} name={name} />
          </Row>
        </dl>
      </Card>
      {details.isPending ? (
        <Spinner label="Loading your game's settings…" />
      ) : details.error ? (
        <LoadFailed
          what="We could not load your game's settings"
          error={details.error}
          onRetry={() => void details.refetch()}
        />
      ) : (
        <>
          <ClientDeletes game={details.data} />
          <VersionsSeen game={details.data} />
        </>
      )}
      <DeleteGame game={{ game_id: game.game_id, name }} />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-sm font-medium text-slate-500 sm:pt-1.5">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </>
  );
}

/** The name, and a Rename button that turns it into a form until saved or cancelled. */
function GameName({ gameId, name }: { gameId: string; name: string }) {
  const update = useUpdateGame(gameId);
  const [draft, setDraft] = useState<string>();
  if (draft === undefined) {
    return (
      <span className="flex flex-wrap items-center gap-2">
        <span className="[overflow-wrap:anywhere]">{name}</span>
        <Button variant="ghost" className="!px-2 !py-1" onClick={() => setDraft(name)}>
          <Pencil aria-hidden className="size-3.5" /> Rename
        </Button>
      </span>
    );
  }
  const save = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ name: draft }, { onSuccess: () => setDraft(undefined) });
  };
  return (
    <form onSubmit={save} className="space-y-3">
      <Field label="New game name" value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={64} autoFocus />
      {update.error && <Notice tone="error">The game was not renamed - {update.error.message}</Notice>}
      <div className="flex gap-2">
        <Button type="submit" busy={update.isPending}>
          Save
        </Button>
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            update.reset();
            setDraft(undefined);
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The key stays hidden until View API key; Rotate asks first, then shows the new key. */
function ApiKey({ gameId, name }: { gameId: string; name: string }) {
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const key = useApiKey(gameId, shown);
  const rotate = useRotateApiKey(gameId);
  const confirm = () =>
    rotate.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        setShown(true);
      },
    });
  return (
    <div className="space-y-3">
      {!shown ? null : key.isPending ? (
        <Spinner label="Fetching your API key…" />
      ) : key.error ? (
        <Notice tone="error">{key.error.message}</Notice>
      ) : (
        <span className="flex items-center gap-2">
          <code className="min-w-0 flex-1 rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm break-all">
            {key.data.api_key}
          </code>
          <CopyButton text={key.data.api_key} />
        </span>
      )}
      {rotate.isSuccess && (
        <Notice tone="success">
          Your new API key is ready. Put it in <code>Howl.configure</code> and ship a new build of your game.
        </Notice>
      )}
      <div className="flex flex-wrap gap-2">
        {!shown && (
          <Button variant="secondary" onClick={() => setShown(true)}>
            <Eye aria-hidden className="size-4" /> View API key
          </Button>
        )}
        <Button
          variant="secondary"
          onClick={() => {
            rotate.reset();
            setConfirming(true);
          }}
        >
          <RefreshCw aria-hidden className="size-4" /> Rotate API key
        </Button>
      </div>
      <Modal open={confirming} onOpenChange={setConfirming} title={`Rotate the API key of ${name}?`}>
        <p className="mb-4 text-slate-700">
          Howl issues a new API key now and the old key stops working at once: every copy of your game that still sends
          it, including builds your players already have, gets <code>403 InvalidApiKey</code> until it is configured
          with the new key.
        </p>
        {rotate.error && <Notice tone="error">{rotate.error.message}</Notice>}
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="danger" busy={rotate.isPending} onClick={confirm}>
            Rotate key
          </Button>
        </div>
      </Modal>
    </div>
  );
}

/** The game's `allow_client_deletes`, shown as what most developers want: refusing (the default). */
function ClientDeletes({ game }: { game: GameDetails }) {
  const update = useUpdateGame(game.game_id);
  const refused = !game.allow_client_deletes;
  return (
    <Card>
      <h2 className="mb-3">Deletes from game clients</h2>
      <label className="flex cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          checked={refused}
          aria-disabled={update.isPending}
          aria-describedby="client-deletes-hint"
          onChange={() => !update.isPending && update.mutate({ allow_client_deletes: refused })}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600"
        />
        <span className="font-medium text-ink">Refuse deletes and wipes from game clients</span>
      </label>
      <p id="client-deletes-hint" className="mt-1 pl-7 text-sm text-slate-600">
        {refused
          ? 'Game clients that delete a score or wipe a leaderboard get 403 ClientWritesDisabled. Your API key ships with every build of your game, so anyone holding it could otherwise wipe your boards. The dashboard can always delete.'
          : 'Any game client holding your API key can delete scores and wipe leaderboards.'}
      </p>
      {update.isPending && (
        <p role="status" className="mt-2 pl-7 text-sm text-slate-500">
          Saving…
        </p>
      )}
      {update.error && (
        <div className="mt-3">
          <Notice tone="error">Your change was not saved - {update.error.message}</Notice>
        </div>
      )}
    </Card>
  );
}

/** What the game's calls last reported (the plugin sends both with every call). */
function VersionsSeen({ game }: { game: GameDetails }) {
  const none = <span className="text-slate-500">Not seen yet</span>;
  return (
    <Card>
      <h2 className="mb-3">Plugin and engine seen</h2>
      <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[10rem_1fr]">
        <Row label="Plugin version">{game.latest_plugin_version ?? none}</Row>
        <Row label="Engine">{game.latest_engine ? `Godot ${game.latest_engine}` : none}</Row>
      </dl>
      <p className="mt-3 text-sm text-slate-600">
        The newest versions your game's calls have reported, so you can tell when players have updated.
      </p>
    </Card>
  );
}

function DeleteGame({ game }: { game: { game_id: string; name: string } }) {
  const [confirming, setConfirming] = useState(false);
  const navigate = useNavigate();
  const remove = useDeleteGame(game.game_id);
  // The promise, not mutate's callbacks: the page unmounts as the session loses its current game.
  const confirm = () =>
    remove.mutateAsync().then(
      () => {
        setConfirming(false);
        void navigate('/');
      },
      () => {}, // shown from remove.error
    );
  return (
    <>
      <Button variant="danger" onClick={() => setConfirming(true)}>
        Delete this game
      </Button>
      <Modal open={confirming} onOpenChange={setConfirming} title={`Delete ${game.name}?`}>
        <p className="mb-4 text-slate-700">
          All data of this game is lost: its leaderboards and scores, its players and their data, and its API key. There
          is no way back.
        </p>
        {remove.error && <Notice tone="error">{remove.error.message}</Notice>}
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="danger" busy={remove.isPending} onClick={confirm}>
            Delete
          </Button>
        </div>
      </Modal>
    </>
  );
}
