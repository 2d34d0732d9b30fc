import { CheckCircle2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useSession } from '../api/session/queries.js';
import { useSendContact } from '../api/contact/mutations.js';
import { Button, ButtonLink, Card, Field, FormPage, Notice, Spinner } from '../components/ui.js';
import { contactErrorMessage } from '../lib/auth-errors.js';
import { normaliseEmail, validateContact } from '../lib/validation.js';

const MESSAGE_MAX = 5000;

/** /contact: a visitor gives an email and a message; a signed-in developer only the message. */
export function Contact() {
  const { data: session, isPending } = useSession();
  const send = useSendContact();
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string>();

  if (isPending) return <Spinner />;
  if (send.isSuccess) {
    return (
      <div className="mx-auto w-full max-w-md">
        <Card className="text-center">
          <CheckCircle2 aria-hidden className="mx-auto mb-3 size-10 text-emerald-600" />
          <h1 className="mb-2">Thank you</h1>
          <p className="mb-6 text-slate-600">
            Your message has been sent. We will get back to you by email as soon as we can.
          </p>
          <ButtonLink to="/features">Home</ButtonLink>
        </Card>
      </div>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const invalid = validateContact({ email: session ? session.email : email, message });
    setError(invalid);
    if (invalid) return;
    send.mutate(session ? { message } : { email: normaliseEmail(email), message }, {
      onError: (err) => setError(contactErrorMessage(err)),
    });
  };

  return (
    <FormPage
      title="Contact us"
      intro="Questions about Howl, the Howl plugin, or custom development for your game? Send us a message."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        {session ? (
          <p className="text-sm text-slate-600">
            We will reply to <strong className="break-words text-slate-800">{session.email}</strong>.
          </p>
        ) : (
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
        <div>
          <label htmlFor="contact-message" className="mb-1 block text-sm font-medium text-slate-700">
            Message
          </label>
          <textarea
            id="contact-message"
            name="message"
            rows={6}
            maxLength={MESSAGE_MAX}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none"
          />
          <p className="mt-1 text-right text-xs text-slate-500">
            {message.length} / {MESSAGE_MAX}
          </p>
        </div>
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" busy={send.isPending} className="w-full">
          Submit
        </Button>
      </form>
    </FormPage>
  );
}
