import {
  GAME_STATE_PLAYER,
  PLAYERS_PAGE,
  type PlayerAuthSettings,
  type PlayerEmailSettings,
  type PlayerSession,
  type PlayersPage,
  type UpdatePlayerEmailBody,
} from '@howl/contract';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { GameRow } from '../games/games.table.js';
import { gameErrors } from '../games/errors.js';
import { playerPoolId, type GameHold, type Games } from '../games/service.js';
import type { ImportedAccount } from '../identity/admin.js';
import type { IdentityUser } from '../identity/identity.table.js';
import type { Identity, SessionUser } from '../identity/service.js';
import type { Mailer } from '../mail/mailer.js';
import { playerDataErrors } from '../player-data/errors.js';
import type { PlayerData } from '../player-data/service.js';
import { playerErrors as E, asPlayerError } from './errors.js';
import { effectiveTemplate, normalizeBody, playerCodeMail } from './mail.js';
import * as store from './store.js';

export interface PlayersDeps {
  db: Kysely<DB>;
  /** The players list shows each player's data; deleting a player deletes it. */
  playerData: Pick<PlayerData, 'ownDocs' | 'deletePlayer' | 'dropKept'>;
  identity: Identity;
  mailer: Mailer;
  clock: Clock;
  /** A new account holds its game's row; the settings live on it. */
  games: GameHold & Pick<Games, 'savePlayerSettings'>;
}

const emailAddress = z.email().max(254);
/** The longest saved session the spec allows. */
const MAX_SAVED_SESSION_DAYS = 365;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Whether the developer has turned player accounts on for this game. */
const playerAuthOn = (game: GameRow) => game.player_auth_enabled === 1;

/** The game API's player calls refuse to run while the developer has not turned them on. */
function requireAuthOn(game: GameRow): void {
  if (!playerAuthOn(game)) throw E.authDisabled();
}

function settingsOf(game: GameRow): PlayerAuthSettings {
  return {
    enabled: playerAuthOn(game),
    reg_type: game.reg_type,
    email_confirmation: game.email_conf_enabled === 1,
    session_duration_seconds: game.session_duration_seconds,
    saved_session_days: game.saved_session_days,
    require_player_session: game.require_player_session === 1,
  };
}

/** The token of an `Authorization: Bearer …` header; undefined for none or another scheme. */
export const bearerToken = (authorization: string | undefined): string | undefined =>
  /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

const profile = (user: Pick<IdentityUser, 'username' | 'email' | 'status'>) => ({
  player_name: user.username,
  email: user.email,
  state: user.status,
});

/**
 * A game's players: its user pool in the identity module, with the game's settings and mails.
 * Every call comes with a game already checked: the developer's own (the console's ownership hook,
 * `requireOwnerOnGameRoutes`) or the one the game API's front door let in.
 */
export function createPlayers({ db, identity, mailer, clock, games, playerData }: PlayersDeps) {
  async function emailSettings(game: GameRow): Promise<PlayerEmailSettings> {
    return effectiveTemplate(game.name, await store.findTemplate(db, game.id));
  }

  /** The game's pool, with its session lifetime and its own code mails. */
  function poolOf(game: GameRow) {
    return identity.pool({
      poolId: playerPoolId(game.id),
      // Players may log in from SilentWolf's Godot 4 plugin, which sends every `.` of the password as `*`.
      passwordForm: 'dots-as-stars',
      sessionTtlMs: () => (game.session_duration_seconds === 0 ? null : game.session_duration_seconds * 1000),
      sendCode: async (user, purpose, code) => {
        if (!user.email) throw new Error('a code mail needs an address');
        await mailer.send(playerCodeMail(await emailSettings(game), user.email, user.username, purpose, code));
      },
    });
  }

  function enabledPool(game: GameRow) {
    requireAuthOn(game);
    return poolOf(game);
  }

  /** Identity's errors, in the game API's words for players. */
  async function inPlayerTerms<T>(work: () => Promise<T>, atLogin = false): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw asPlayerError(err, atLogin);
    }
  }

  /** The player behind a Bearer token of this game, or undefined. */
  async function authenticate(game: GameRow, authorization: string | undefined): Promise<SessionUser | undefined> {
    const token = bearerToken(authorization);
    return token ? poolOf(game).authenticate(token) : undefined;
  }

  async function mustFind(game: GameRow, playerName: string): Promise<IdentityUser> {
    const user = await poolOf(game).admin.find(playerName);
    if (!user) throw E.notFound();
    return user;
  }

  return {
    settingsOf,
    requireAuthOn,
    emailSettings,

    getSettings: (game: GameRow): PlayerAuthSettings => settingsOf(game),

    async updateSettings(game: GameRow, changes: Partial<PlayerAuthSettings>): Promise<PlayerAuthSettings> {
      const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
      const patch = Object.fromEntries(
        Object.entries({
          player_auth_enabled: flag(changes.enabled),
          reg_type: changes.reg_type,
          email_conf_enabled: flag(changes.email_confirmation),
          session_duration_seconds: changes.session_duration_seconds,
          saved_session_days: changes.saved_session_days,
          require_player_session: flag(changes.require_player_session),
        }).filter(([, v]) => v !== undefined),
      );
      if (Object.keys(patch).length > 0) await games.savePlayerSettings(game.id, patch);
      return settingsOf({ ...game, ...patch });
    },

    getEmails: (game: GameRow): Promise<PlayerEmailSettings> => emailSettings(game),

    async updateEmails(game: GameRow, changes: UpdatePlayerEmailBody) {
      const stored = await store.findTemplate(db, game.id);
      // Left out: unchanged. Null or empty: back to the default.
      const pick = <T>(value: T | null | undefined, old: T | null | undefined) =>
        value === undefined ? (old ?? null) : value === '' ? null : value;
      const next = {
        game_id: game.id,
        confirmation_subject: pick(changes.confirmation_subject, stored?.confirmation_subject),
        confirmation_body: pick(normalizeBody(changes.confirmation_body), stored?.confirmation_body),
        reset_subject: pick(changes.reset_subject, stored?.reset_subject),
        reset_body: pick(normalizeBody(changes.reset_body), stored?.reset_body),
        reply_to: pick(changes.reply_to, stored?.reply_to),
        updated_at: clock.now(),
      };
      await db.transaction().execute(async (trx) => {
        // A game deleted meanwhile takes its templates with it; none is left behind.
        if (!(await games.hold(trx, game.id))) throw gameErrors.notFound();
        await store.saveTemplate(trx, next);
      });
      return effectiveTemplate(game.name, next);
    },

    // The game API (`/v1/players`).

    async register(
      game: GameRow,
      input: { player_name: string; email?: string | undefined; password: string; confirm_password: string },
    ) {
      const pool = enabledPool(game);
      if (input.player_name === GAME_STATE_PLAYER) throw E.reservedName();
      const withEmail = game.reg_type === 'email_un_pwd';
      const email = withEmail ? (input.email ?? '').trim().toLowerCase() : null;
      if (email !== null && !emailAddress.safeParse(email).success) throw E.invalidEmail();
      if (input.password !== input.confirm_password) throw E.passwordMismatch();
      const confirmed = !withEmail || game.email_conf_enabled !== 1;
      const signUp = confirmed ? pool.createConfirmed : pool.signUp;
      const user = await inPlayerTerms(() =>
        signUp(
          { username: input.player_name, email, password: input.password },
          // In the account's own transaction: a game deleted meanwhile gets no account left behind.
          async (trx) => {
            if (!(await games.hold(trx, game.id))) throw playerDataErrors.gameGone();
          },
        ),
      );
      return { player: profile(user), confirmation_required: !confirmed };
    },

    async confirm(game: GameRow, playerName: string, code: string) {
      const pool = enabledPool(game);
      const { user } = await inPlayerTerms(() => pool.confirmSignUp(playerName, code));
      return { player: profile(user) };
    },

    async resendCode(game: GameRow, playerName: string): Promise<void> {
      const pool = enabledPool(game);
      await inPlayerTerms(() => pool.resendCode(playerName));
    },

    async login(
      game: GameRow,
      input: { player_name: string; password: string; remember_me: boolean; saved_session_days?: number | undefined },
      ip: string,
    ): Promise<PlayerSession> {
      const pool = enabledPool(game);
      // The game's setting unless the caller names a life of its own (SilentWolf's plugin does), up to the spec's 365 days.
      const days = Math.min(input.saved_session_days ?? game.saved_session_days, MAX_SAVED_SESSION_DAYS);
      const session = await inPlayerTerms(
        () =>
          pool.signIn(input.player_name, input.password, {
            ip,
            ...(input.remember_me ? { savedSessionTtlMs: days * 86_400_000 } : {}),
          }),
        true,
      );
      return {
        access_token: session.token,
        expires_at: iso(session.expiresAt),
        ...(session.saved
          ? { saved_session: { token: session.saved.token, expires_at: iso(session.saved.expiresAt)! } }
          : {}),
        player: profile(session.user),
      };
    },

    async resume(game: GameRow, savedToken: string): Promise<PlayerSession> {
      const pool = enabledPool(game);
      const session = await inPlayerTerms(() => pool.resumeSession(savedToken));
      return { access_token: session.token, expires_at: iso(session.expiresAt), player: profile(session.user) };
    },

    /** The player of a live saved session, which stays as it is (SilentWolf's plugin keeps its pair for good). */
    async checkSavedSession(game: GameRow, savedToken: string) {
      const pool = enabledPool(game);
      return profile(await inPlayerTerms(() => pool.checkSavedSession(savedToken)));
    },

    authenticate,

    async logout(game: GameRow, session: SessionUser, all: boolean): Promise<void> {
      const pool = enabledPool(game);
      await (all ? pool.signOutEverywhere(session.userId) : pool.signOut(session));
    },

    async requestPasswordReset(game: GameRow, playerName: string): Promise<void> {
      const pool = enabledPool(game);
      const user = await mustFind(game, playerName);
      if (!user.email) throw E.noEmail();
      await inPlayerTerms(() => pool.requestResetLockingOut(playerName));
    },

    async confirmPasswordReset(
      game: GameRow,
      input: { player_name: string; code: string; password: string; confirm_password: string },
    ): Promise<void> {
      const pool = enabledPool(game);
      if (input.password !== input.confirm_password) throw E.passwordMismatch();
      await inPlayerTerms(() => pool.confirmReset(input.player_name, input.code, input.password, 'password'));
    },

    async me(game: GameRow, session: SessionUser) {
      return profile(await mustFind(game, session.username));
    },

    /**
     * With `require_player_session` on, a registered player's name can only be written under with
     * that player's own session; names nobody registered stay open to every client.
     */
    async requireWriter(game: GameRow, playerName: string, authorization: string | undefined): Promise<void> {
      if (game.require_player_session !== 1 || !playerAuthOn(game)) return;
      const owner = await poolOf(game).admin.find(playerName);
      if (!owner) return;
      const session = await authenticate(game, authorization);
      if (session?.userId !== owner.id) throw E.sessionRequired();
    },

    // The console (`/api/games/:gameId/players…`), with the game its ownership check found.

    /** Accounts and names that only have player data, in name order, 50 a page. */
    async list({ id: gameId }: GameRow, cursor: string | undefined, limit = PLAYERS_PAGE): Promise<PlayersPage> {
      const poolId = playerPoolId(gameId);
      const names = await store.listNames(db, {
        poolId,
        gameId,
        limit: limit + 1,
        after: cursor === undefined ? '' : decodeCursor(cursor),
        reserved: GAME_STATE_PLAYER,
      });
      const page = names.slice(0, limit);
      const [users, docs] = await Promise.all([store.usersNamed(db, poolId, page), playerData.ownDocs(gameId, page)]);
      const accounts = new Map(users.map((u) => [u.username, u]));
      return {
        players: page.map((name) => {
          const u = accounts.get(name);
          const doc = docs.get(name);
          return {
            id: u?.id ?? null,
            player_name: name,
            email: u?.email ?? null,
            enabled: u ? u.enabled === 1 : false,
            state: u?.status ?? null,
            created_at: u ? Math.floor(u.created_at / 1000) : null,
            player_data: doc === undefined ? null : (JSON.parse(doc) as unknown),
          };
        }),
        cursor: names.length > limit ? encodeCursor(page.at(-1)!) : null,
      };
    },

    /** Accounts brought from another service (the import): no password, RESET_REQUIRED; names already taken are skipped. */
    importAccounts(game: GameRow, accounts: ImportedAccount[]) {
      return poolOf(game).admin.importWithoutPasswords(accounts, async (trx) => {
        if (!(await games.hold(trx, game.id))) throw playerDataErrors.gameGone();
      });
    },

    async setEnabled(game: GameRow, playerName: string, enabled: boolean) {
      const user = await inPlayerTerms(() => poolOf(game).admin.setEnabled(playerName, enabled));
      return { player_name: user.username, enabled };
    },

    async setPassword(game: GameRow, playerName: string, password: string): Promise<void> {
      if (password === '') throw E.emptyPassword();
      await inPlayerTerms(() => poolOf(game).admin.setPassword(playerName, password));
    },

    async remove(game: GameRow, playerName: string): Promise<void> {
      const gameId = game.id;
      const pool = poolOf(game);
      // A name with data but no account is listed too; deleting it deletes its data.
      if (!(await pool.admin.find(playerName))) {
        const deleted = await db
          .transaction()
          .execute((trx) => playerData.deletePlayer(trx, gameId, playerName))
          .finally(playerData.dropKept);
        if (deleted === 0) throw E.notFound();
        return;
      }
      await inPlayerTerms(() =>
        pool.admin.remove(playerName, async (trx) => {
          await playerData.deletePlayer(trx, gameId, playerName);
        }),
      ).finally(playerData.dropKept);
    },
  };
}

export type Players = ReturnType<typeof createPlayers>;

const encodeCursor = (name: string) => Buffer.from(name, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const name = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!name || encodeCursor(name) !== cursor) {
    throw E.badCursor();
  }
  return name;
}
