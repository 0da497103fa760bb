import type { Storage } from '@cartwright/core/storage';
import { expect } from 'vitest';
import type { SuiteContext } from './suite-context';

/**
 * Runs `writes` at once, spread over several storages on the shared database (one storage when
 * the target has no shared database), and expects none to fail.
 */
export async function writeConcurrently(
  ctx: SuiteContext,
  writes: ReadonlyArray<(storage: Storage) => Promise<unknown>>,
): Promise<void> {
  const pool = await ctx.openStorages(ctx.options.sharedDatabase ? (ctx.options.concurrentStorages ?? 4) : 1);
  try {
    const results = await Promise.allSettled(
      writes.map((write, i) => write(pool.storages[i % pool.storages.length] as Storage)),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
  } finally {
    await pool.close();
  }
}
