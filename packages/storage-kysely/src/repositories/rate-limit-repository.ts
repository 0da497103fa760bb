import type { Millis, RateLimitRepository } from '@cartwright/core/storage';
import { sql } from 'kysely';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';

/**
 * One upsert per hit. Every SET expression reads the row as it was, on both engines: a hit for a
 * newer window starts the count over at 1, any other hit adds 1 (and a lagging clock's older
 * window counts in the newer one, never resetting it).
 */
const hit = template(({ db }, p: Slots<'bucket' | 'window_start'>) =>
  db
    .insertInto('rate_limit_counters')
    .values({ bucket: p.bucket, window_start: p.window_start, hits: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        hits: sql<number>`case when excluded.window_start > rate_limit_counters.window_start then 1 else rate_limit_counters.hits + 1 end`,
        window_start: sql<number>`case when excluded.window_start > rate_limit_counters.window_start then excluded.window_start else rate_limit_counters.window_start end`,
      }),
    )
    .returning('hits'),
);

const peek = template(({ db }, p: Slots<'bucket' | 'window_start'>) =>
  db
    .selectFrom('rate_limit_counters')
    .select('hits')
    .where('bucket', '=', p.bucket)
    .where('window_start', '>=', p.window_start),
);

const prune = template(({ db }, p: Slots<'before'>) =>
  db.deleteFrom('rate_limit_counters').where('window_start', '<', p.before),
);

export class KyselyRateLimitRepository implements RateLimitRepository {
  constructor(private readonly q: QueryRunner) {}

  async hit(bucket: string, window_start: Millis): Promise<number> {
    const row = await this.q.first(hit, { bucket, window_start });
    return Number(row?.hits ?? 1);
  }

  async peek(bucket: string, window_start: Millis): Promise<number> {
    const row = await this.q.first(peek, { bucket, window_start });
    return Number(row?.hits ?? 0);
  }

  prune(before: Millis): Promise<number> {
    return this.q.affected(prune, { before });
  }
}
