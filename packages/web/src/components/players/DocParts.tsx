import type { ReactNode } from 'react';
import { CodeBlock } from '../CodeBlock.js';

/** A guide's sections, in order: the ids are the page's anchors. */
export type DocSectionInfo = { id: string; title: string };

/** The guide's frame: an "On this page" list beside the sections on wide screens. */
export function DocLayout({ sections, children }: { sections: readonly DocSectionInfo[]; children: ReactNode }) {
  return (
    <div className="grid gap-10 lg:grid-cols-[13rem_minmax(0,1fr)]">
      <nav aria-label="On this page" className="hidden lg:block">
        <div className="sticky top-24">
          <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">On this page</p>
          <ul className="space-y-1 text-sm">
            {sections.map((s) => (
              <li key={s.id}>
                <a
                  href={`#${s.id}`}
                  className="block rounded px-2 py-1 text-slate-600 hover:bg-slate-100 hover:text-ink"
                >
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </nav>
      <div className="min-w-0 space-y-10 [&_pre]:[tab-size:4]">{children}</div>
    </div>
  );
}

/** One numbered step of a guide, its title looked up by id. */
export function DocSection({
  sections,
  id,
  children,
}: {
  sections: readonly DocSectionInfo[];
  id: string;
  children: ReactNode;
}) {
  const index = sections.findIndex((s) => s.id === id);
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="prose-howl max-w-none scroll-mt-24 border-t border-slate-200 pt-8 first:border-0 first:pt-0"
    >
      <h2 id={`${id}-title`} className="!mt-0 flex items-baseline gap-3">
        <span aria-hidden className="text-base font-semibold text-brand-600 tabular-nums">
          {index + 1}.
        </span>
        {sections[index]!.title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The HTTP call behind a plugin function, as curl, with the answer it gets. `bearer` adds the
 * player's session, for the calls that need it.
 */
export function HttpCall({
  method,
  path,
  body,
  bearer = false,
  answer,
}: {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: string;
  bearer?: boolean;
  answer: string;
}) {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const headers = [
    '-H "x-api-key: $HOWL_API_KEY"',
    '-H "x-game-id: $HOWL_GAME_ID"',
    ...(bearer ? ['-H "authorization: Bearer $ACCESS_TOKEN"'] : []),
    ...(body ? ['-H "content-type: application/json"', `-d '${body}'`] : []),
  ];
  const lines = [`curl${method === 'GET' ? '' : ` -X ${method}`} "${origin}${path}"`, ...headers.map((h) => `  ${h}`)];
  return (
    <details className="rounded-xl bg-white ring-1 ring-slate-200">
      <summary className="cursor-pointer rounded-xl px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
        The HTTP call: <code className="break-words">{`${method} ${path}`}</code>
      </summary>
      <div className="space-y-3 p-4 pt-2">
        <CodeBlock code={lines.join(' \\\n')} language="bash" title="Request" />
        <CodeBlock code={answer} language="json" title="Answer" />
      </div>
    </details>
  );
}
