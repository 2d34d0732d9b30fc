import { useEffect, useState } from 'react';
import type { HighlighterCore } from 'shiki/core';
import { CopyButton } from './CopyButton.js';
import { SAMPLE_BASE_URL, sample } from '../samples/index.js';

export type CodeLanguage = 'gdscript' | 'csharp' | 'bash' | 'json';

// Loaded once, on the first code block: only the grammars the docs use, with the JS regex engine (no WASM).
let highlighter: Promise<HighlighterCore> | undefined;
function loadHighlighter(): Promise<HighlighterCore> {
  highlighter ??= Promise.all([import('shiki/core'), import('shiki/engine/javascript')]).then(
    ([{ createHighlighterCore }, { createJavaScriptRegexEngine }]) =>
      createHighlighterCore({
        themes: [import('@shikijs/themes/github-dark')],
        langs: [
          import('@shikijs/langs/gdscript'),
          import('@shikijs/langs/csharp'),
          import('@shikijs/langs/bash'),
          import('@shikijs/langs/json'),
        ],
        engine: createJavaScriptRegexEngine(),
      }),
  );
  return highlighter;
}

/** A code sample with syntax highlighting and a copy button; plain text until the highlighter loads. */
export function CodeBlock({ code, language, title }: { code: string; language: CodeLanguage; title?: string }) {
  const [html, setHtml] = useState<string>();
  useEffect(() => {
    let live = true;
    loadHighlighter()
      .then((h) => live && setHtml(h.codeToHtml(code, { lang: language, theme: 'github-dark' })))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [code, language]);
  return (
    <figure className="not-prose min-w-0 overflow-hidden rounded-xl bg-[#24292e] text-sm ring-1 ring-slate-800">
      <figcaption className="flex items-center justify-between border-b border-white/10 px-4 py-2 text-xs text-slate-300">
        <span>{title ?? LANGUAGE_NAMES[language]}</span>
        <CopyButton text={code} className="text-slate-200 ring-white/20 hover:bg-white/10" />
      </figcaption>
      {/* Long lines wrap inside the column: a hidden horizontal scroll would clip them on every screen. */}
      {html ? (
        <div className={`p-4 [&_pre]:!bg-transparent ${WRAP}`} dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <pre className={`p-4 text-slate-100 ${WRAP}`}>
          <code>{code}</code>
        </pre>
      )}
    </figure>
  );
}

const WRAP = '[&_pre]:whitespace-pre-wrap whitespace-pre-wrap [overflow-wrap:anywhere]';

const LANGUAGE_NAMES: Record<CodeLanguage, string> = {
  gdscript: 'GDScript',
  csharp: 'C#',
  bash: 'Shell',
  json: 'JSON',
};

/**
 * A sample of `src/samples/` for both engines, side by side on wide screens. The server address in
 * a sample becomes the address of the site showing it, so a self-hosted Howl shows its own; `fill`
 * puts values in for placeholders (a new game's key for `YOUR_API_KEY`).
 */
export function EngineSample({ name, fill = {} }: { name: string; fill?: Record<string, string> }) {
  const { godot3, godot4 } = sample(name);
  if (godot3 === undefined || godot4 === undefined) throw new Error(`No sample "${name}" for both engines`);
  const here = typeof window === 'undefined' ? SAMPLE_BASE_URL : window.location.origin;
  const shown = (code: string) =>
    Object.entries(fill)
      .reduce((c, [placeholder, value]) => c.replaceAll(placeholder, value), code)
      .replaceAll(SAMPLE_BASE_URL, here);
  return <EngineCode godot3={shown(godot3)} godot4={shown(godot4)} />;
}

function EngineCode({ godot3, godot4 }: { godot3: string; godot4: string }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
      <CodeBlock code={godot3} language="gdscript" title="Godot 3.x (GDScript)" />
      <CodeBlock code={godot4} language="gdscript" title="Godot 4.x (GDScript)" />
    </div>
  );
}
