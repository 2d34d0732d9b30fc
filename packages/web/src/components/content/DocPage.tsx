import type { ReactNode } from 'react';

/**
 * The frame of a long-form page (guides, legal text, blog): a title, an optional lead and
 * a table of contents built from the sections, then the text in `.prose-howl`.
 *
 * @example <DocPage title="Troubleshooting" sections={[{ id: 'keys', title: 'Keys' }]}>…</DocPage>
 */
export function DocPage({
  eyebrow,
  title,
  lead,
  sections,
  children,
}: {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  sections?: { id: string; title: string }[];
  children: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl">
      <header className="mb-8 border-b border-slate-200 pb-6">
        {eyebrow && <p className="mb-2 text-sm font-semibold tracking-wide text-brand-600 uppercase">{eyebrow}</p>}
        <h1>{title}</h1>
        {lead && <div className="mt-3 text-lg leading-8 text-slate-600">{lead}</div>}
      </header>
      {sections && sections.length > 0 && (
        <nav aria-label="On this page" className="mb-8 rounded-xl bg-white p-5 text-sm shadow-sm ring-1 ring-slate-200">
          <p className="mb-2 font-semibold text-ink">On this page</p>
          <ol className="grid gap-1 sm:grid-cols-2">
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className="text-brand-600 hover:text-brand-700 hover:underline">
                  {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <div className="prose-howl">{children}</div>
    </article>
  );
}

/** A section heading with an id, so it can be linked and listed in the table of contents. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}

/**
 * Lets code samples (engine 3 and 4 side by side) use more width than the text column on wide screens,
 * with tabs shown four columns wide.
 */
export function Wide({ children }: { children: ReactNode }) {
  return <div className="[tab-size:4] lg:-mx-24 xl:-mx-48 [&_pre]:[tab-size:4]">{children}</div>;
}
