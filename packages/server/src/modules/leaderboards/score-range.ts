import { MAX_ABS_SCORE } from '@howl/contract';
import { sql, type RawBuilder } from 'kysely';

/** A sum the database works out, held within the score range (clampScore's rule, in SQL). */
export function clampedScore(sum: RawBuilder<unknown>): RawBuilder<number> {
  const most = sql.lit(MAX_ABS_SCORE);
  const least = sql.lit(-MAX_ABS_SCORE);
  return sql<number>`case when ${sum} > ${most} then ${most} when ${sum} < ${least} then ${least} else ${sum} end`;
}
