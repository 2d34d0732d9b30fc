import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../api/client.js';
import { useSession } from '../api/session/queries.js';
import { ConfirmSignUp, SignUpComplete } from '../components/auth/ConfirmSignUp.js';
import { useResendCode, useSignIn, useSignUp } from '../api/auth/mutations.js';
import { pendingSignUp } from '../components/auth/pending-sign-up.js';
import { Button, Field, Notice } from '../components/ui.js';
import { signInErrorMessage, signUpErrorMessage } from '../lib/auth-errors.js';
import { normaliseEmail, validateSignIn, validateSignUp, type SignUpForm } from '../lib/validation.js';

type Mode = 'signin' | 'signup';
const TABS: { mode: Mode; label: string }[] = [
  { mode: 'signin', label: 'Sign in' },
  { mode: 'signup', label: 'Sign up' },
];

const linkClass = 'font-medium text-brand-600 underline-offset-2 hover:text-brand-700 hover:underline';

/**
 * /auth: sign-in and sign-up as two tabs (`?mode=signup` opens the second), then the confirmation-code
 * screen (`?mode=confirm`) and 'Sign up complete'. The email waiting for its code survives a reload of
 * the tab; plain /auth (the menu's Sign in) still shows the sign-in form, with a way back to the code.
 */
export function Auth() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('mode');
  const mode: Mode = asked === 'signup' ? 'signup' : 'signin';
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const { data: session } = useSession();
  const [pending, setPending] = useState(pendingSignUp.get);
  const [completedFor, setCompletedFor] = useState<{ firstName: string }>();
  const resend = useResendCode();

  const awaitCode = (email: string) => {
    pendingSignUp.set(email);
    setPending(email);
    setParams({ mode: 'confirm' });
  };

  if (completedFor) return <SignUpComplete firstName={completedFor.firstName} />;
  if (pending && asked === 'confirm') {
    return (
      <ConfirmSignUp
        email={pending}
        resend={resend}
        onConfirmed={(firstName) => {
          pendingSignUp.clear();
          setPending(undefined);
          setCompletedFor({ firstName });
        }}
        onCancel={() => {
          pendingSignUp.clear();
          setPending(undefined);
          resend.reset();
          setParams({ mode: 'signup' }, { replace: true });
        }}
      />
    );
  }

  const select = (next: Mode) => setParams(next === 'signup' ? { mode: 'signup' } : {}, { replace: true });
  const onTabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const next = mode === 'signin' ? 'signup' : 'signin';
    select(next);
    document.getElementById(`auth-tab-${next}`)?.focus();
  };

  return (
    <div className="mx-auto w-full max-w-md">
      <h1 className="mb-2">{mode === 'signin' ? 'Sign in to Howl' : 'Create your Howl account'}</h1>
      <p className="mb-6 text-slate-600">
        {mode === 'signin'
          ? 'Manage your games, leaderboards, player accounts and player data.'
          : 'Free for your games: leaderboards, player accounts and player data for the Howl plugin.'}
      </p>
      {session && (
        <div className="mb-4">
          <Notice tone="info">
            You are signed in as <strong className="break-words">{session.email}</strong>.{' '}
            <Link to="/features" className={linkClass}>
              Go to features
            </Link>
          </Notice>
        </div>
      )}
      {notice && mode === 'signin' && (
        <div className="mb-4">
          <Notice tone="success">{notice}</Notice>
        </div>
      )}
      {pending && !session && (
        <div className="mb-4">
          <Notice tone="info">
            The sign-up of <strong className="break-all">{pending}</strong> is waiting for its confirmation code.{' '}
            <Link to="/auth?mode=confirm" className={linkClass}>
              Enter the code
            </Link>
          </Notice>
        </div>
      )}
      <section className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <div role="tablist" aria-label="Sign in or sign up" className="grid grid-cols-2 border-b border-slate-200">
          {TABS.map((t) => (
            <button
              key={t.mode}
              id={`auth-tab-${t.mode}`}
              type="button"
              role="tab"
              aria-selected={mode === t.mode}
              aria-controls={mode === t.mode ? `auth-panel-${t.mode}` : undefined}
              tabIndex={mode === t.mode ? 0 : -1}
              onClick={() => select(t.mode)}
              onKeyDown={onTabKey}
              className={`-mb-px border-b-2 px-4 py-3 text-sm font-semibold transition ${
                mode === t.mode
                  ? 'border-brand-600 text-brand-700'
                  : 'border-transparent text-slate-500 hover:text-slate-800'
              }`}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div id={`auth-panel-${mode}`} role="tabpanel" aria-labelledby={`auth-tab-${mode}`} className="p-6 sm:p-8">
          {mode === 'signin' ? (
            <SignInForm
              onUnconfirmed={(email) => {
                resend.mutate(email);
                awaitCode(email);
              }}
            />
          ) : (
            <SignUpFormView onSignedUp={awaitCode} />
          )}
        </div>
      </section>
    </div>
  );
}

function SignInForm({ onUnconfirmed }: { onUnconfirmed: (email: string) => void }) {
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const invalid = validateSignIn({ email, password });
    setError(invalid);
    if (invalid) return;
    const username = normaliseEmail(email);
    signIn.mutate(
      { email: username, password },
      {
        onSuccess: () => {
          // Signing in to the account that waited for its code shows it is confirmed: nothing waits any more.
          if (pendingSignUp.get() === username) pendingSignUp.clear();
          void navigate('/features');
        },
        onError: (err) => {
          if (isApiError(err, 'UserNotConfirmed')) onUnconfirmed(username);
          else setError(signInErrorMessage(err));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <div>
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <p className="mt-2 text-right text-sm">
          <Link to="/forgotPassword" className={linkClass}>
            Forgot password?
          </Link>
        </p>
      </div>
      {error && <Notice tone="error">{error}</Notice>}
      <Button type="submit" busy={signIn.isPending} className="w-full">
        Submit
      </Button>
    </form>
  );
}

const EMPTY_SIGN_UP: SignUpForm = {
  firstName: '',
  lastName: '',
  company: '',
  email: '',
  password: '',
  confirmPassword: '',
  acceptTerms: false,
};

function SignUpFormView({ onSignedUp }: { onSignedUp: (email: string) => void }) {
  const signUp = useSignUp();
  const [form, setForm] = useState(EMPTY_SIGN_UP);
  const [error, setError] = useState<string>();
  const set =
    <K extends keyof SignUpForm>(key: K) =>
    (value: SignUpForm[K]) =>
      setForm((f) => ({ ...f, [key]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const invalid = validateSignUp(form);
    setError(invalid);
    if (invalid) return;
    const email = normaliseEmail(form.email);
    const company = form.company.trim();
    signUp.mutate(
      {
        email,
        password: form.password,
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        ...(company ? { company } : {}),
      },
      { onSuccess: () => onSignedUp(email), onError: (err) => setError(signUpErrorMessage(err)) },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="First name"
          name="firstName"
          autoComplete="given-name"
          maxLength={100}
          value={form.firstName}
          onChange={(e) => set('firstName')(e.target.value)}
        />
        <Field
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          maxLength={100}
          value={form.lastName}
          onChange={(e) => set('lastName')(e.target.value)}
        />
      </div>
      <Field
        label="Company (optional)"
        name="company"
        autoComplete="organization"
        maxLength={200}
        value={form.company}
        onChange={(e) => set('company')(e.target.value)}
      />
      <Field
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        value={form.email}
        onChange={(e) => set('email')(e.target.value)}
      />
      <Field
        label="Password"
        type="password"
        name="password"
        autoComplete="new-password"
        hint="At least 8 characters, with upper- and lower-case letters, a number and a symbol."
        value={form.password}
        onChange={(e) => set('password')(e.target.value)}
      />
      <Field
        label="Confirm password"
        type="password"
        name="confirmPassword"
        autoComplete="new-password"
        value={form.confirmPassword}
        onChange={(e) => set('confirmPassword')(e.target.value)}
      />
      <div className="flex items-start gap-3">
        <input
          id="accept-terms"
          type="checkbox"
          checked={form.acceptTerms}
          onChange={(e) => set('acceptTerms')(e.target.checked)}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600"
        />
        <label htmlFor="accept-terms" className="text-sm text-slate-700">
          I have read and accept the{' '}
          <Link to="/terms" target="_blank" rel="noopener" className={linkClass}>
            Terms of service
          </Link>
        </label>
      </div>
      {error && <Notice tone="error">{error}</Notice>}
      {error && isApiError(signUp.error, 'UsernameExists') && (
        <p className="text-sm text-slate-600">
          <Link to="/forgotPassword" className={linkClass}>
            Forgot password
          </Link>
        </p>
      )}
      <Button type="submit" busy={signUp.isPending} className="w-full">
        Submit
      </Button>
    </form>
  );
}
