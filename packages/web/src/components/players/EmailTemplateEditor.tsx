import { MAX_EMAIL_BODY, MAX_EMAIL_SUBJECT, SITE_CODE_PLACEHOLDER, type PlayerEmailSettings } from '@howl/contract';
import { useId, useState, type FormEvent, type TextareaHTMLAttributes } from 'react';
import { useSavePlayerEmails } from '../../api/player-auth/mutations.js';
import { usePlayerEmails } from '../../api/player-auth/queries.js';
import { hasCodePlaceholder, toServerText, toSiteText } from '../../lib/playerEmails.js';
import { Button, Field, Notice, Spinner } from '../ui.js';

type Form = {
  confirmation_subject: string;
  confirmation_body: string;
  reset_subject: string;
  reset_body: string;
  reply_to: string;
};

/** The stored mails as the editor shows them: the code placeholder as @@@@. */
const toForm = (m: PlayerEmailSettings): Form => ({
  confirmation_subject: toSiteText(m.confirmation_subject),
  confirmation_body: toSiteText(m.confirmation_body),
  reset_subject: toSiteText(m.reset_subject),
  reset_body: toSiteText(m.reset_body),
  reply_to: m.reply_to ?? '',
});

/**
 * The players' confirmation and password reset emails: subject, body and reply-to. The code's
 * place is shown as @@@@ and sent back as `{{code}}`; line breaks are kept.
 */
export function EmailTemplateEditor({ gameId }: { gameId: string }) {
  const emails = usePlayerEmails(gameId);
  if (emails.isPending) return <Spinner label="Loading your emails…" />;
  if (emails.error) {
    return <Notice tone="error">We could not load your emails - {emails.error.message}</Notice>;
  }
  return <EditorForm gameId={gameId} initial={emails.data} />;
}

function EditorForm({ gameId, initial }: { gameId: string; initial: PlayerEmailSettings }) {
  const save = useSavePlayerEmails(gameId);
  const [form, setForm] = useState<Form>(() => toForm(initial));
  const set = (key: keyof Form) => (value: string) => {
    save.reset();
    setForm((f) => ({ ...f, [key]: value }));
  };

  // After a save the form shows the mails as stored (an emptied field is its default again).
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        confirmation_subject: toServerText(form.confirmation_subject),
        confirmation_body: toServerText(form.confirmation_body),
        reset_subject: toServerText(form.reset_subject),
        reset_body: toServerText(form.reset_body),
        reply_to: form.reply_to.trim(),
      },
      { onSuccess: (stored) => setForm(toForm(stored)) },
    );
  };
  const restoreDefaults = () =>
    save.mutate(
      { confirmation_subject: null, confirmation_body: null, reset_subject: null, reset_body: null, reply_to: null },
      { onSuccess: (stored) => setForm(toForm(stored)) },
    );

  return (
    <form onSubmit={submit} aria-label="Players' emails" className="space-y-6">
      <p className="rounded-lg bg-brand-50 px-4 py-3 text-sm text-brand-700 ring-1 ring-brand-100">
        Keep <code className="font-mono font-semibold">{SITE_CODE_PLACEHOLDER}</code> in each email's text: it is
        replaced by the player's one-time code. <code className="font-mono">{'{{player_name}}'}</code> is replaced by
        the player's name, in the subject too. The sender address is fixed; replies go to your reply-to address.
      </p>

      <fieldset className="space-y-4">
        <legend className="mb-2 font-medium text-ink">Sign-up confirmation email</legend>
        <Field
          label="Confirmation email subject"
          value={form.confirmation_subject}
          maxLength={MAX_EMAIL_SUBJECT}
          onChange={(e) => set('confirmation_subject')(e.target.value)}
        />
        <BodyField
          label="Confirmation email text"
          value={form.confirmation_body}
          onChange={(e) => set('confirmation_body')(e.target.value)}
        />
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="mb-2 font-medium text-ink">Password reset email</legend>
        <Field
          label="Password reset email subject"
          value={form.reset_subject}
          maxLength={MAX_EMAIL_SUBJECT}
          onChange={(e) => set('reset_subject')(e.target.value)}
        />
        <BodyField
          label="Password reset email text"
          value={form.reset_body}
          onChange={(e) => set('reset_body')(e.target.value)}
        />
      </fieldset>

      <Field
        label="Reply-to address"
        type="email"
        autoComplete="email"
        placeholder="support@your-studio.com"
        value={form.reply_to}
        onChange={(e) => set('reply_to')(e.target.value)}
        hint="Optional. Leave it empty to send without a reply-to address."
      />

      {save.isSuccess && <Notice tone="success">Your email confirmation settings were saved.</Notice>}
      {save.error && (
        <Notice tone="error">There was an error saving your custom email data - {save.error.message}</Notice>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" busy={save.isPending && save.variables.confirmation_body !== null}>
          Save emails
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={restoreDefaults}
          disabled={save.isPending}
          busy={save.isPending && save.variables.confirmation_body === null}
        >
          Restore the default emails
        </Button>
      </div>
    </form>
  );
}

/** A labelled textarea for a mail's text, with the advisory check for @@@@. */
function BodyField({
  label,
  value,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; value: string }) {
  const id = useId();
  const missing = !hasCodePlaceholder(value);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        rows={7}
        maxLength={MAX_EMAIL_BODY}
        value={value}
        aria-describedby={`${id}-hint`}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none"
        {...props}
      />
      <p id={`${id}-hint`} className={`mt-1 text-xs ${missing ? 'text-amber-700' : 'text-slate-500'}`}>
        {missing
          ? `This text has no ${SITE_CODE_PLACEHOLDER}: the code will be added at the end of the email.`
          : `${value.length.toLocaleString('en')} / ${MAX_EMAIL_BODY.toLocaleString('en')} characters`}
      </p>
    </div>
  );
}
