import { MailCheck } from 'lucide-react';
import { ButtonLink, Card } from '../components/ui.js';

/** /emailSent: the reset mail went out if the address has an account (nothing more is revealed). */
export function EmailSent() {
  return (
    <div className="mx-auto w-full max-w-md">
      <Card className="text-center">
        <MailCheck aria-hidden className="mx-auto mb-3 size-10 text-brand-600" />
        <h1 className="mb-2">Check your email</h1>
        <p className="mb-6 text-slate-600">
          If an account exists for the email address you entered, we have sent it instructions to reset your password.
          The code in the email is valid for 15 minutes.
        </p>
        <div className="flex flex-wrap justify-center gap-3">
          <ButtonLink to="/auth">Back to sign in</ButtonLink>
          <ButtonLink to="/forgotPassword" variant="secondary">
            Request another code
          </ButtonLink>
        </div>
      </Card>
    </div>
  );
}
