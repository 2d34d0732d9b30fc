import { Link } from 'react-router';
import { ButtonLink } from '../ui.js';

/**
 * What a signed-out visitor sees on the player setup pages: the points of the feature, the way in
 * (/auth) and a way to ask a question (/contact).
 */
export function SetupPitch({ points }: { points: readonly (readonly [string, string])[] }) {
  return (
    <div className="space-y-8">
      <ul className="grid gap-4 sm:grid-cols-2">
        {points.map(([title, text]) => (
          <li key={title} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <h2 className="mb-1 text-base">{title}</h2>
            <p className="text-sm text-slate-600">{text}</p>
          </li>
        ))}
      </ul>
      <div className="rounded-xl bg-ink p-6 text-white sm:p-8">
        <h2 className="mb-2 text-2xl text-white">Get started in under a minute</h2>
        <p className="mb-6 max-w-2xl text-slate-300">
          Create a free account, name your game, and you get the API key and game ID the Howl plugin needs.
        </p>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
          <ButtonLink to="/auth">Login or create an account</ButtonLink>
          <p className="text-sm text-slate-300">
            Questions first?{' '}
            <Link to="/contact" className="font-medium text-white underline underline-offset-2 hover:text-brand-100">
              Contact us
            </Link>
          </p>
        </div>
      </div>
    </div>
  );
}
