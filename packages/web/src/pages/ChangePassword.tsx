import { CheckCircle2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useSession } from '../api/session/queries.js';
import { useChangePassword } from '../api/auth/mutations.js';
import { Button, ButtonLink, Card, Field, FormPage, Notice, Spinner } from '../components/ui.js';
import { changePasswordErrorMessage } from '../lib/auth-errors.js';
import { validateChangePassword } from '../lib/validation.js';

/** /changepwd (signed in only): old, new and confirmed password; then a message and a Home button. */
export function ChangePassword() {
  const { data: session, isPending } = useSession();
  const change = useChangePassword();
  const [form, setForm] = useState({ oldPassword: '', newPassword: '', confirmPassword: '' });
  const [error, setError] = useState<string>();
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  if (isPending) return <Spinner />;
  if (change.isSuccess) {
    return (
      <div className="mx-auto w-full max-w-md">
        <Card className="text-center">
          <CheckCircle2 aria-hidden className="mx-auto mb-3 size-10 text-emerald-600" />
          <h1 className="mb-2">Password changed</h1>
          <p className="mb-6 text-slate-600">
            Your password has been changed. You stay signed in here; your other devices have been signed out.
          </p>
          <ButtonLink to="/features">Home</ButtonLink>
        </Card>
      </div>
    );
  }
  if (!session) {
    return (
      <FormPage title="Change password" intro="Change the password of your Howl account.">
        <p className="mb-4 text-slate-600">Please sign in to change your password.</p>
        <ButtonLink to="/auth">Sign in</ButtonLink>
      </FormPage>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const invalid = validateChangePassword(form);
    setError(invalid);
    if (invalid) return;
    change.mutate(
      { oldPassword: form.oldPassword, newPassword: form.newPassword },
      { onError: (err) => setError(changePasswordErrorMessage(err)) },
    );
  };

  return (
    <FormPage title="Change password" intro="Your other devices will be signed out; this one stays signed in.">
      <form onSubmit={submit} noValidate className="space-y-4">
        {/* Lets password managers tie the new password to the account. */}
        <input type="hidden" name="username" autoComplete="username" value={session.email} />
        <Field
          label="Old password"
          type="password"
          name="oldPassword"
          autoComplete="current-password"
          value={form.oldPassword}
          onChange={set('oldPassword')}
        />
        <Field
          label="New password"
          type="password"
          name="newPassword"
          autoComplete="new-password"
          hint="At least 8 characters, with upper- and lower-case letters, a number and a symbol."
          value={form.newPassword}
          onChange={set('newPassword')}
        />
        <Field
          label="Confirm new password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          value={form.confirmPassword}
          onChange={set('confirmPassword')}
        />
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" busy={change.isPending} className="w-full">
          Submit
        </Button>
      </form>
    </FormPage>
  );
}
