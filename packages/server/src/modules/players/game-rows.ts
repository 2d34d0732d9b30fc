import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { playerPoolId, type GameRows } from '../games/service.js';
import type { Identity } from '../identity/service.js';
import * as store from './store.js';

/** What the players module keeps under a game: the pool of its players' accounts and its mail templates. */
export function playerRows(identity: Pick<Identity, 'removePool'>): GameRows {
  return {
    async removeGame(trx: Kysely<DB>, gameId: string): Promise<undefined> {
      await identity.removePool(trx, playerPoolId(gameId));
      await store.deleteTemplates(trx, gameId);
      return undefined;
    },
  };
}
