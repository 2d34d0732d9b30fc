import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useConfirmForgotPassword, useForgotPassword } from '../api/auth/mutations.js';
import { useReplaceSession } from '../api/session/mutations.js';
import { pendingReset } from '../components/auth/pending-sign-up.js';
import { Button, Field, FormPage, Notice } from '../components/ui.js';
import { forgotPasswordErrorMessage, resetPasswordErrorMessage } from '../lib/auth-errors.js';
import { normaliseEmail, validateForgotPasswordEmail, validateResetPassword } from '../lib/validation.js';

/** Shown on /auth after a reset, above the sign-in form. */
const PASSWORD_RESET_NOTICE = 'Your password has been reset. Please sign in with your new password.';

const linkClass = 'font-medium text-brand-600 underline-offset-2 hover:text-brand-700 hover:underline';

/**
 * /forgotPassword: step 1 asks for the email, step 2 for the emailed code and the new password; then
 * /auth. The email of step 2 is kept for the tab's session, so a reload stays on step 2.
 */
export function ForgotPassword() {
  const [email, setEmail] = useState(pendingReset.get);
  const choose = (next: string | undefined) => {
    if (next === undefined) pendingReset.clear();
    else pendingReset.set(next);
    setEmail(next);
  };
  return email ? <ResetStep email={email} onRestart={() => choose(undefined)} /> : <EmailStep onSent={choose} />;
}

function EmailStep({ onSent }: { onSent: (email: string) => void }) {
  const request = useForgotPassword();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const invalid = validateForgotPasswordEmail(email);
    setError(invalid);
    if (invalid) return;
    const username = normaliseEmail(email);
    request.mutate(username, {
      onSuccess: () => onSent(username),
      onError: (err) => setError(forgotPasswordErrorMessage(err)),
    });
  };

  return (
    <FormPage
      title="Forgot your password?"
      intro="Enter the email address of your Howl account and we will email you a code to set a new password."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoFocus
        />
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" busy={request.isPending} className="w-full">
          Submit
        </Button>
      </form>
      <p className="mt-6 border-t border-slate-200 pt-4 text-sm text-slate-600">
        Remembered it?{' '}
        <Link to="/auth" className={linkClass}>
          Back to sign in
        </Link>
      </p>
    </FormPage>
  );
}

function ResetStep({ email, onRestart }: { email: string; onRestart: () => void }) {
  const navigate = useNavigate();
  const replaceSession = useReplaceSession();
  const reset = useConfirmForgotPassword();
  const again = useForgotPassword();
  const [form, setForm] = useState({ code: '', newPassword: '', confirmPassword: '' });
  const [error, setError] = useState<string>();
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    again.reset();
    const invalid = validateResetPassword(form);
    setError(invalid);
    if (invalid) return;
    reset.mutate(
      { email, code: form.code.trim(), newPassword: form.newPassword },
      {
        onSuccess: () => {
          pendingReset.clear();
          // The reset ended every session of the account, this browser's too.
          replaceSession(null);
          void navigate('/auth', { state: { notice: PASSWORD_RESET_NOTICE } });
        },
        onError: (err) => setError(resetPasswordErrorMessage(err)),
      },
    );
  };

  const sendAgain = () => {
    setError(undefined);
    again.mutate(email, { onError: (err) => setError(forgotPasswordErrorMessage(err)) });
  };

  return (
    <FormPage
      title="Set a new password"
      intro={
        <>
          We emailed a code to <strong className="break-words text-slate-800">{email}</strong>. It is valid for 15
          minutes.
        </>
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field
          label="Confirmation code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={32}
          value={form.code}
          onChange={set('code')}
          autoFocus
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
        {again.isSuccess && !error && <Notice tone="success">A new code is on its way to {email}.</Notice>}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" busy={reset.isPending}>
            Submit
          </Button>
          <Button type="button" variant="secondary" busy={again.isPending} onClick={sendAgain}>
            Resend code
          </Button>
        </div>
      </form>
      <p className="mt-6 border-t border-slate-200 pt-4 text-sm text-slate-600">
        Not your address?{' '}
        <button type="button" onClick={onRestart} className={linkClass}>
          Use another email
        </button>
      </p>
    </FormPage>
  );
}
