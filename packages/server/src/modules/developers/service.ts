import type { DeveloperSession, GamesResponse } from '@howl/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Identity, SessionUser } from '../identity/service.js';
import type { Mailer } from '../mail/mailer.js';
import { developerCodeMail } from './mail.js';
import * as store from './store.js';

const DEVELOPER_POOL = 'developers';

export interface DevelopersDeps {
  db: Kysely<DB>;
  identity: Identity;
  mailer: Mailer;
  supportEmail: string;
  sessionDays: number;
  /** The developer's games and current game, which every session answer carries. */
  gamesOf(userId: string): Promise<GamesResponse>;
}

/** Developer accounts: the developers' user pool plus their names and company. */
export function createDevelopers(deps: DevelopersDeps) {
  const pool = deps.identity.pool({
    poolId: DEVELOPER_POOL,
    sessionTtlMs: () => deps.sessionDays * 86_400_000,
    sendCode: (user, purpose, code) =>
      deps.mailer.send(developerCodeMail(user.email ?? user.username, purpose, code, deps.supportEmail)),
  });

  async function sessionOf(userId: string): Promise<DeveloperSession> {
    const [row, games] = await Promise.all([store.findDeveloper(deps.db, userId), deps.gamesOf(userId)]);
    if (!row) throw new Error(`developer row missing for user ${userId}`);
    return { email: row.email, firstName: row.first_name, lastName: row.last_name, company: row.company, ...games };
  }

  return {
    pool,
    sessionOf,

    async signUp(input: { email: string; password: string; firstName: string; lastName: string; company?: string }) {
      await pool.signUpOrResend({ username: input.email, email: input.email, password: input.password }, (trx, user) =>
        store.saveDeveloper(trx, {
          user_id: user.id,
          first_name: input.firstName,
          last_name: input.lastName,
          company: input.company ? input.company : null,
        }),
      );
      return { email: input.email, confirmed: false as const, codeDeliveryDestination: maskEmail(input.email) };
    },

    async confirmSignUp(email: string, code: string) {
      const { user, token } = await pool.confirmSignUp(email, code);
      return { token, session: await sessionOf(user.id) };
    },

    async signIn(email: string, password: string) {
      const { user, token } = await pool.signIn(email, password);
      return { token, session: await sessionOf(user.id) };
    },

    signOut: (session: SessionUser) => pool.signOutEverywhere(session.userId),
  };
}

export type Developers = ReturnType<typeof createDevelopers>;

/** `a***@example.com`: enough to recognise the address without showing it whole. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
