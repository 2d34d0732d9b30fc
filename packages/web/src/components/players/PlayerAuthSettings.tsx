import type { PlayerAuthSettings as Settings } from '@howl/contract';
import { Loader2 } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useUpdatePlayerAuth, type PlayerAuthChange } from '../../api/player-auth/mutations.js';
import { usePlayerAuthSettings } from '../../api/player-auth/queries.js';
import { Button, Field, LoadFailed, Notice, Spinner } from '../ui.js';
import { EmailTemplateEditor } from './EmailTemplateEditor.js';

const REG_TYPES = [
  {
    value: 'email_un_pwd',
    label: 'Email / username / password',
    hint: 'Players give an email address, which receives the confirmation and password reset codes.',
  },
  {
    value: 'un_pwd',
    label: 'Username / password',
    hint: 'No email address is kept; accounts are confirmed at once and passwords cannot be reset by mail.',
  },
] as const;

/**
 * The game's player authentication settings: the on/off checkbox, then (only when on) the
 * registration type, email confirmation and the mail editor (only for email_un_pwd), and the
 * session settings. Every toggle sends just its own field.
 */
export function PlayerAuthSettings({ gameId }: { gameId: string }) {
  const settings = usePlayerAuthSettings(gameId);
  if (settings.isPending) return <Spinner label="Loading your player authentication settings…" />;
  if (settings.error) {
    return (
      <LoadFailed
        what="We could not load your player authentication settings"
        error={settings.error}
        onRetry={() => void settings.refetch()}
      />
    );
  }
  const s = settings.data;
  return (
    <div className="space-y-6">
      <Toggle
        gameId={gameId}
        field="enabled"
        checked={s.enabled}
        label={`Player authentication is ${s.enabled ? 'enabled' : 'disabled'}`}
        hint={
          s.enabled
            ? 'Your game can register and log in players.'
            : 'Every player call of the plugin answers PlayerAuthDisabled until you enable it.'
        }
      />
      {s.enabled && (
        <>
          <RegistrationType gameId={gameId} value={s.reg_type} />
          {s.reg_type === 'email_un_pwd' && (
            <Toggle
              gameId={gameId}
              field="email_confirmation"
              checked={s.email_confirmation}
              label={`Email confirmation is ${s.email_confirmation ? 'enabled' : 'disabled'}`}
              hint="New players confirm their address with a 6-digit code mailed to them before they can log in."
            />
          )}
          <Sessions gameId={gameId} settings={s} />
          <Toggle
            gameId={gameId}
            field="require_player_session"
            checked={s.require_player_session}
            label="Require a player session to save under a registered name"
            hint="When on, only a logged-in player can save scores or player data under their own registered name; other names stay open."
          />
          {s.reg_type === 'email_un_pwd' && <EmailCustomisation gameId={gameId} />}
        </>
      )}
    </div>
  );
}

/** One setting group: a bordered block with its own progress and error. */
function Group({ children }: { children: ReactNode }) {
  return <div className="rounded-lg border border-slate-200 p-4">{children}</div>;
}

function Progress({ pending, error }: { pending: boolean; error: Error | null }) {
  return (
    <>
      {pending && (
        <p role="status" className="mt-2 flex items-center gap-2 text-sm text-slate-500">
          <Loader2 aria-hidden className="size-4 animate-spin" /> Saving…
        </p>
      )}
      {error && (
        <div className="mt-3">
          <Notice tone="error">Your change was not saved - {error.message}</Notice>
        </div>
      )}
    </>
  );
}

/**
 * A checkbox drawn as a switch; changing it sends only its field with the inverse of its value.
 * While saving it ignores changes but stays focusable, so a keyboard user keeps their place.
 */
function Toggle({
  gameId,
  field,
  checked,
  label,
  hint,
}: {
  gameId: string;
  field: 'enabled' | 'email_confirmation' | 'require_player_session';
  checked: boolean;
  label: string;
  hint: string;
}) {
  const update = useUpdatePlayerAuth(gameId);
  const id = useId();
  return (
    <Group>
      <label htmlFor={id} className="flex cursor-pointer items-start gap-3">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-disabled={update.isPending}
          aria-describedby={`${id}-hint`}
          onChange={() => !update.isPending && update.mutate({ [field]: !checked } as PlayerAuthChange)}
          className="peer sr-only"
        />
        <span
          aria-hidden
          className="relative mt-0.5 inline-flex h-6 w-11 shrink-0 rounded-full bg-slate-300 transition peer-checked:bg-brand-600 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 peer-aria-disabled:opacity-60 after:absolute after:top-0.5 after:left-0.5 after:size-5 after:rounded-full after:bg-white after:shadow after:transition peer-checked:after:translate-x-5"
        />
        <span className="font-medium text-ink">{label}</span>
      </label>
      <p id={`${id}-hint`} className="mt-1 pl-14 text-sm text-slate-600">
        {hint}
      </p>
      <Progress pending={update.isPending} error={update.error} />
    </Group>
  );
}

function RegistrationType({ gameId, value }: { gameId: string; value: Settings['reg_type'] }) {
  const update = useUpdatePlayerAuth(gameId);
  const name = useId();
  return (
    <Group>
      <fieldset aria-busy={update.isPending}>
        <legend className="mb-2 font-medium text-ink">Registration type</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {REG_TYPES.map((t) => (
            <label
              key={t.value}
              className="flex cursor-pointer gap-3 rounded-lg p-3 ring-1 ring-slate-200 has-checked:bg-brand-50 has-checked:ring-brand-500"
            >
              <input
                type="radio"
                name={name}
                value={t.value}
                checked={value === t.value}
                onChange={() => !update.isPending && update.mutate({ reg_type: t.value })}
                className="mt-1 accent-brand-600"
              />
              <span>
                <span className="block text-sm font-medium text-ink">{t.label}</span>
                <span className="block text-xs text-slate-600">{t.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <Progress pending={update.isPending} error={update.error} />
    </Group>
  );
}

/** "3600" → "1 hour"; 0 → never expires. */
export function describeDuration(seconds: number): string {
  if (seconds === 0) return 'Sessions never expire.';
  const units: [number, string][] = [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [size, unit] of units) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
    rest -= n * size;
  }
  return `Sessions last ${parts.slice(0, 2).join(' ')}.`;
}

const MAX_SECONDS = 365 * 86_400;

/** Session duration and saved-session days: one small form that sends only what changed. */
function Sessions({ gameId, settings }: { gameId: string; settings: Settings }) {
  const update = useUpdatePlayerAuth(gameId);
  const [duration, setDuration] = useState(String(settings.session_duration_seconds));
  const [days, setDays] = useState(String(settings.saved_session_days));
  const [errors, setErrors] = useState<{ duration?: string; days?: string }>({});
  const [saved, setSaved] = useState(false);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const d = Number(duration);
    const n = Number(days);
    const next: typeof errors = {};
    if (duration.trim() === '' || !Number.isInteger(d) || d < 0 || d > MAX_SECONDS)
      next.duration = `Please enter a whole number of seconds from 0 to ${MAX_SECONDS.toLocaleString('en')}.`;
    if (days.trim() === '' || !Number.isInteger(n) || n < 1 || n > 365)
      next.days = 'Please enter a whole number of days from 1 to 365.';
    setErrors(next);
    if (next.duration || next.days) return;
    const change: PlayerAuthChange = {};
    if (d !== settings.session_duration_seconds) change.session_duration_seconds = d;
    if (n !== settings.saved_session_days) change.saved_session_days = n;
    if (Object.keys(change).length === 0) {
      setSaved(true);
      return;
    }
    update.mutate(change, { onSuccess: () => setSaved(true) });
  };

  const d = Number(duration);
  return (
    <Group>
      <form onSubmit={submit} noValidate aria-label="Sessions" className="space-y-4">
        <h3 className="!mt-0 text-base">Sessions</h3>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Session duration (seconds)"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_SECONDS}
            value={duration}
            onChange={(e) => setDuration(e.target.value)}
            error={errors.duration}
            hint={
              Number.isInteger(d) && d >= 0 && duration.trim() !== ''
                ? `${describeDuration(d)} 0 means a session never expires.`
                : '0 means a session never expires.'
            }
          />
          <Field
            label="Saved session days"
            type="number"
            inputMode="numeric"
            min={1}
            max={365}
            value={days}
            onChange={(e) => setDays(e.target.value)}
            error={errors.days}
            hint="How long a player stays remembered on a device (“remember me”), 1 to 365 days."
          />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="secondary" busy={update.isPending}>
            Save session settings
          </Button>
          {saved && !update.isPending && (
            <span role="status" className="text-sm text-emerald-700">
              Session settings saved.
            </span>
          )}
        </div>
        {update.error && <Notice tone="error">Your change was not saved - {update.error.message}</Notice>}
      </form>
    </Group>
  );
}

/** The mail editor behind a disclosure button, as it is long and optional. */
function EmailCustomisation({ gameId }: { gameId: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <Group>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h3 className="!mt-0 text-base">Players' emails</h3>
          <p className="text-sm text-slate-600">
            The subject, text and reply-to address of the confirmation and password reset emails.
          </p>
        </div>
        <Button variant="secondary" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
          {open ? 'Close the email editor' : 'Customise emails'}
        </Button>
      </div>
      {open && (
        <div id={id} className="mt-4 border-t border-slate-200 pt-4">
          <EmailTemplateEditor gameId={gameId} />
        </div>
      )}
    </Group>
  );
}
