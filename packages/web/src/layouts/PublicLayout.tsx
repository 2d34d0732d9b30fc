import { ChevronDown, Menu, PawPrint, X } from 'lucide-react';
import { Fragment, useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { useSignOut } from '../api/session/mutations.js';
import { useSession } from '../api/session/queries.js';
import { GameSwitcher } from './GameSwitcher.js';
import { SignOutFailed } from '../components/ui.js';

const SIGNED_OUT = [
  { to: '/leaderboard', label: 'Leaderboards' },
  { to: '/playerauth', label: 'Player accounts' },
  { to: '/playerdata', label: 'Player Data' },
  { to: '/contact', label: 'Contact' },
  { to: '/download', label: 'Download' },
];
// The three guides stay reachable once signed in: under Features (same texts as signed out).
const GUIDES = SIGNED_OUT.slice(0, 3);
const SIGNED_IN = [
  { to: '/createNewGame', label: '+ New Game' },
  { to: '/features', label: 'Features' },
  { to: '/contact', label: 'Contact' },
  { to: '/download', label: 'Download' },
  { to: '/changepwd', label: 'Change password' },
];

// text-left: in the mobile menu's column a button (Sign out) would otherwise centre its label.
const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-left text-sm font-medium whitespace-nowrap ${isActive ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/10 hover:text-white'}`;

/** Header with the navigation of the signed-in or signed-out developer, the page, and the footer. */
export function PublicLayout() {
  const { data: session, isPending } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const close = () => setMenuOpen(false);
  const links = session ? SIGNED_IN : SIGNED_OUT;

  const doSignOut = () => {
    close();
    signOut.mutate(undefined, { onSuccess: () => void navigate('/auth') });
  };

  const items = (mobile: boolean) => (
    <>
      {links.map((l) => (
        <Fragment key={l.to}>
          <NavLink to={l.to} className={navClass} onClick={close}>
            {l.label}
          </NavLink>
          {session && l.to === '/features' && <Guides mobile={mobile} onNavigate={close} />}
        </Fragment>
      ))}
      {session ? (
        <>
          {/* In the mobile column the switcher starts where the links' labels start. */}
          <GameSwitcher onNavigate={close} className={mobile ? 'px-3 py-1' : undefined} />
          <button type="button" onClick={doSignOut} className={navClass({ isActive: false })}>
            Sign out
          </button>
        </>
      ) : (
        !isPending && (
          <NavLink to="/auth" className={navClass} onClick={close}>
            Sign in
          </NavLink>
        )
      )}
    </>
  );

  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-30 bg-ink shadow">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3">
          <Link
            to={session ? '/features' : '/homepage.html'}
            className="flex items-center gap-2 text-lg font-bold text-white"
            onClick={close}
          >
            <span aria-hidden className="grid size-8 place-items-center rounded-lg bg-brand-600">
              <PawPrint className="size-5" />
            </span>
            Howl
          </Link>
          <nav aria-label="Main" className="hidden items-center gap-1 xl:flex">
            {items(false)}
          </nav>
          <button
            type="button"
            className="rounded-lg p-2 text-white hover:bg-white/10 xl:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((o) => !o)}
          >
            {menuOpen ? <X aria-hidden className="size-6" /> : <Menu aria-hidden className="size-6" />}
          </button>
        </div>
        {menuOpen && (
          <nav aria-label="Mobile" className="flex flex-col gap-1 border-t border-white/10 px-4 py-3 xl:hidden">
            {items(true)}
          </nav>
        )}
      </header>
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-10">
        <SignOutFailed error={signOut.error} />
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

/** The guides under Features: indented in the mobile menu, a small drop-down in the bar. */
function Guides({ mobile, onNavigate }: { mobile: boolean; onNavigate: () => void }) {
  const menu = useRef<HTMLDetailsElement>(null);
  // Closes on a click elsewhere (and on Escape below), as a menu does.
  useEffect(() => {
    const outside = (e: PointerEvent) => {
      if (menu.current && !menu.current.contains(e.target as Node)) menu.current.open = false;
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, []);
  const links = (className: string) =>
    GUIDES.map((g) => (
      <NavLink
        key={g.to}
        to={g.to}
        className={(state) => `${navClass(state)} ${className}`}
        onClick={() => {
          if (menu.current) menu.current.open = false;
          onNavigate();
        }}
      >
        {g.label}
      </NavLink>
    ));
  if (mobile) return <>{links('pl-8')}</>;
  return (
    <details
      ref={menu}
      className="relative -ml-1"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && menu.current) menu.current.open = false;
      }}
    >
      <summary
        aria-label="Guides"
        className="flex cursor-pointer list-none rounded-lg p-2 [&::-webkit-details-marker]:hidden text-slate-300 hover:bg-white/10 hover:text-white"
      >
        <ChevronDown aria-hidden className="size-4" />
      </summary>
      <div className="absolute left-0 mt-2 flex flex-col gap-1 rounded-lg bg-ink p-2 shadow-lg ring-1 ring-white/10">
        {links('')}
      </div>
    </details>
  );
}

/** The source repository the footer links to, set at build time (`VITE_SOURCE_URL`); none hides the link. */
function sourceUrl(): string | undefined {
  return import.meta.env.VITE_SOURCE_URL?.trim() || undefined;
}

export function Footer() {
  const source = sourceUrl();
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm text-slate-500 sm:flex-row sm:items-center sm:justify-between">
        <nav aria-label="Footer" className="flex flex-wrap gap-x-4 gap-y-1">
          <Link to="/terms" className="hover:text-slate-800">
            Terms of service
          </Link>
          <Link to="/privacy" className="hover:text-slate-800">
            Privacy policy
          </Link>
          <Link to="/blog/godot-4" className="hover:text-slate-800">
            Blog: Howl and Godot 4
          </Link>
          <Link to="/contact" className="hover:text-slate-800">
            Contact
          </Link>
          {source && (
            <a href={source} className="hover:text-slate-800" target="_blank" rel="noopener noreferrer">
              Source code
            </a>
          )}
        </nav>
        <p>© 2019-2023 Howl</p>
      </div>
    </footer>
  );
}
