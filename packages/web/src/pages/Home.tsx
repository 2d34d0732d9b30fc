import {
  ArrowRight,
  Code2,
  Database,
  Gamepad2,
  GraduationCap,
  LayoutDashboard,
  Server,
  Trophy,
  Users,
} from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { useCurrentGame } from '../api/session/queries.js';
import { CodeBlock } from '../components/CodeBlock.js';
import { sample } from '../samples/index.js';
import { ButtonLink, Card } from '../components/ui.js';

const FEATURES = [
  {
    title: 'Set up your leaderboard',
    to: '/leaderboard',
    icon: Trophy,
    text: 'Several leaderboards per game, with save modes (all, highest, latest, accumulator), resets by the hour, day, week, month or year, and a size you choose.',
  },
  {
    title: 'Set up player accounts',
    to: '/playerauth',
    icon: Users,
    text: 'Registration, email confirmation, login, password reset, saved sessions and logout for your players, without writing any server code.',
  },
  {
    title: 'Set up player data',
    to: '/playerdata',
    icon: Database,
    text: 'Keep progress, settings and inventories per player and per character, plus game-wide state, as JSON documents of up to 40 KB.',
  },
];

const STUDIO_WORK: { icon: typeof Code2; title: string; text: string }[] = [
  {
    icon: Code2,
    title: 'Custom development for Godot',
    text: 'Gameplay, tools and editor plugins in GDScript and C#, for Godot 3.x and 4.x.',
  },
  {
    icon: Server,
    title: 'Game backend and cloud infrastructure',
    text: 'Online features, services and hosting designed for your game and the players you expect.',
  },
  {
    icon: Gamepad2,
    title: 'Native scripting and console ports',
    text: 'Native extensions where performance or a platform needs them, and ports of Godot games to consoles.',
  },
  {
    icon: GraduationCap,
    title: 'Training',
    text: 'Hands-on sessions that get your team productive with Godot, GDScript and C#.',
  },
];

/** The home page: what Howl is, the three features, the dashboard link and the studio work (spec §1, §2.4). */
export function Home() {
  const game = useCurrentGame();
  return (
    <div className="space-y-16">
      <section className="grid items-center gap-10 overflow-hidden rounded-2xl bg-ink px-6 py-12 text-white shadow-lg sm:px-12 sm:py-16 lg:grid-cols-[1.15fr_1fr]">
        <div>
          <p className="mb-3 text-sm font-semibold tracking-wide text-brand-100 uppercase">
            Open-source backend for Godot
          </p>
          <h1 className="max-w-3xl text-3xl leading-tight font-bold tracking-tight !text-white sm:text-5xl lg:text-[2.75rem]">
            Leaderboards, player accounts and player data for your Godot game
          </h1>
          <p className="mt-5 max-w-2xl text-lg leading-8 text-slate-300">
            Howl gives your game online features without a server of your own: install the Howl plugin, add your API key
            and game id, and configure everything from this site. Howl is open source, so you can also host it yourself.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <ButtonLink to="/download" className="px-5 py-2.5">
              Download the plugin
            </ButtonLink>
            <ButtonLink to="/features" variant="secondary" className="px-5 py-2.5">
              Explore the features
            </ButtonLink>
          </div>
        </div>
        <div className="hidden min-w-0 lg:block">
          <CodeBlock code={sample('home_hero').godot4 ?? ''} language="gdscript" title="Godot 4.x (GDScript)" />
        </div>
      </section>

      {game && (
        <Card className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-center gap-3">
            <span
              aria-hidden
              className="grid size-10 shrink-0 place-items-center rounded-lg bg-brand-50 text-brand-600"
            >
              <LayoutDashboard className="size-5" />
            </span>
            <div>
              <p className="text-sm text-slate-500">Current game</p>
              <p className="font-semibold break-all text-ink">{game.name}</p>
            </div>
          </div>
          <ButtonLink to="/dashboard/game" variant="secondary">
            Go to the dashboard <ArrowRight aria-hidden className="size-4" />
          </ButtonLink>
        </Card>
      )}

      <section aria-labelledby="features">
        <h2 id="features" className="mb-6 text-2xl">
          Everything your game needs online
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {FEATURES.map(({ title, to, icon: Icon, text }) => (
            <li key={to} className="flex">
              <FeatureCard title={title} to={to} icon={<Icon aria-hidden className="size-6" />}>
                {text}
              </FeatureCard>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="studio" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
        <div className="max-w-2xl">
          <h2 id="studio" className="text-2xl">
            Work with the team behind Howl
          </h2>
          <p className="mt-3 leading-7 text-slate-600">
            Besides Howl, we take on custom work for game studios on contract. If your project needs more than a plugin,
            we can help.
          </p>
        </div>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2">
          {STUDIO_WORK.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4">
              <span
                aria-hidden
                className="grid size-10 shrink-0 place-items-center rounded-lg bg-brand-50 text-brand-600"
              >
                <Icon className="size-5" />
              </span>
              <div>
                <h3 className="text-base">{title}</h3>
                <p className="mt-1 text-sm leading-6 text-slate-600">{text}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-8">
          <ButtonLink to="/contact">
            Contact us about your project <ArrowRight aria-hidden className="size-4" />
          </ButtonLink>
        </div>
      </section>
    </div>
  );
}

function FeatureCard({
  title,
  to,
  icon,
  children,
}: {
  title: string;
  to: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Card className="flex w-full flex-col">
      <span aria-hidden className="mb-4 grid size-11 place-items-center rounded-lg bg-brand-50 text-brand-600">
        {icon}
      </span>
      <h3 id={headingId}>{title}</h3>
      <p className="mt-2 flex-1 text-sm leading-6 text-slate-600">{children}</p>
      <ButtonLink to={to} aria-describedby={headingId} className="mt-6 self-start">
        Get started <ArrowRight aria-hidden className="size-4" />
      </ButtonLink>
    </Card>
  );
}
