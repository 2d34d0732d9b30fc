import type { UseMutationResult } from '@tanstack/react-query';
import { CheckCircle2, MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { confirmCodeErrorMessage, resendCodeErrorMessage } from '../../lib/auth-errors.js';
import { validateConfirmationCode } from '../../lib/validation.js';
import { Button, ButtonLink, Card, Field, Notice } from '../ui.js';
import { useConfirmSignUp } from '../../api/auth/mutations.js';

/**
 * The confirmation-code screen after sign-up (or after signing in to an unconfirmed account): the
 * emailed code, a resend button and a contact link. A wrong code shows an error and stays here.
 */
export function ConfirmSignUp({
  email,
  resend,
  onConfirmed,
  onCancel,
}: {
  email: string;
  resend: UseMutationResult<unknown, Error, string>;
  onConfirmed: (firstName: string) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const confirm = useConfirmSignUp();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    resend.reset();
    const invalid = validateConfirmationCode(code);
    setError(invalid);
    if (invalid) return;
    confirm.mutate(
      { email, code: code.trim() },
      {
        onSuccess: (session) => onConfirmed(session.firstName),
        onError: (err) => setError(confirmCodeErrorMessage(err)),
      },
    );
  };

  const sendAgain = () => {
    setError(undefined);
    resend.mutate(email);
  };
  // A resend can also start before this screen (signing in to an unconfirmed account): its failure shows here.
  const shown = error ?? (resend.isError ? resendCodeErrorMessage(resend.error) : undefined);

  return (
    <div className="mx-auto w-full max-w-md">
      <div className="mb-6 flex items-start gap-3">
        <MailCheck aria-hidden className="mt-1 size-7 shrink-0 text-brand-600" />
        {/* min-w-0: a long address wraps instead of widening the page past a phone's screen. */}
        <div className="min-w-0">
          <h1 className="mb-2">Check your email</h1>
          <p className="text-slate-600">
            We sent a confirmation code to <strong className="[overflow-wrap:anywhere] text-slate-800">{email}</strong>.
            Enter it below to finish creating your account.
          </p>
        </div>
      </div>
      <Card>
        <form onSubmit={submit} noValidate className="space-y-4">
          <Field
            label="Confirmation code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            maxLength={32}
            hint="The code is valid for 24 hours."
            autoFocus
          />
          {shown && <Notice tone="error">{shown}</Notice>}
          {resend.isSuccess && !shown && <Notice tone="success">A new code is on its way to {email}.</Notice>}
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" busy={confirm.isPending}>
              Submit
            </Button>
            <Button type="button" variant="secondary" busy={resend.isPending} onClick={sendAgain}>
              Resend code
            </Button>
          </div>
        </form>
        <div className="mt-6 space-y-2 border-t border-slate-200 pt-4 text-sm text-slate-600">
          <p>
            No code arriving? Check your spam folder, or{' '}
            <Link to="/contact" className="font-medium text-brand-600 hover:text-brand-700">
              contact us
            </Link>{' '}
            and we will help.
          </p>
          <p>
            Wrong address?{' '}
            <button type="button" onClick={onCancel} className="font-medium text-brand-600 hover:text-brand-700">
              Sign up again
            </button>
          </p>
          <p>
            Confirmed already, or another account?{' '}
            <Link to="/auth" className="font-medium text-brand-600 hover:text-brand-700">
              Sign in
            </Link>
          </p>
        </div>
      </Card>
    </div>
  );
}

/** 'Sign up complete': the developer is signed in; a first game is the next step, or the features or home page. */
export function SignUpComplete({ firstName }: { firstName?: string | undefined }) {
  return (
    <div className="mx-auto w-full max-w-md">
      <Card className="text-center">
        <CheckCircle2 aria-hidden className="mx-auto mb-3 size-10 text-emerald-600" />
        <h1 className="mb-2">Sign up complete</h1>
        <p className="mb-6 text-slate-600">
          {firstName ? `Welcome to Howl, ${firstName}. ` : 'Welcome to Howl. '}
          Your account is confirmed and you are signed in. Create a game to get your API key and game ID.
        </p>
        <div className="flex flex-wrap justify-center gap-3">
          <ButtonLink to="/createNewGame">Create your first game</ButtonLink>
          <ButtonLink to="/features" variant="secondary">
            Go to features
          </ButtonLink>
          <ButtonLink to="/" variant="secondary">
            Home
          </ButtonLink>
        </div>
      </Card>
    </div>
  );
}
