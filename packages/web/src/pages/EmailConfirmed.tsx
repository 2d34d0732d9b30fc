import { CheckCircle2 } from 'lucide-react';
import { ButtonLink, Card } from '../components/ui.js';

/** /emailConfirmed: where the newsletter's confirmation link lands. */
export function EmailConfirmed() {
  return (
    <div className="mx-auto w-full max-w-md">
      <Card className="text-center">
        <CheckCircle2 aria-hidden className="mx-auto mb-3 size-10 text-emerald-600" />
        <h1 className="mb-2">Thank you for subscribing</h1>
        <p className="mb-6 text-slate-600">
          Your email address is confirmed. You will hear from us about new Howl features and plugin releases, at most
          once a month. Every newsletter has a link to unsubscribe.
        </p>
        <ButtonLink to="/features">Home</ButtonLink>
      </Card>
    </div>
  );
}
