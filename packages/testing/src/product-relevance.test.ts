import { CommerceError } from '@cartwright/core';
import { compareRelevance, relevanceTier } from '@cartwright/core/storage-rules';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * `sort=relevance` through the engine's in-process API (decisions §17; the HTTP and SDK suites
 * assert the wire on every engine): the four tiers, newest first within a tier, a rename moving a
 * product between tiers at once, cursor pages, and the refusals.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('products.listStorefront({ q, sort: relevance })', () => {
  test('ranks as core’s rule; pages with starting_after; a rename re-ranks at once', async () => {
    t = await createTestEngine();
    const store = t.store;
    const made: Array<{ id: string; name: string; created_at: number }> = [];
    for (const name of ['Overshirt', 'T-Shirt', 'Shirt dress', 'Blue shirt', 'SHIRT', 'Mug', 'shirt-2']) {
      t.clock.advance(1000);
      const product = await store.products.create({ name, status: 'active', variants: [{ price: 1000 }] });
      made.push({ id: product.id, name, created_at: Date.parse(product.created_at) });
    }
    const expected = made
      .filter((p) => relevanceTier(p.name, 'shirt') !== null)
      .sort(compareRelevance('shirt'))
      .map((p) => p.id);
    const byName = (name: string) => made.find((p) => p.name === name)?.id;
    expect(expected).toEqual(
      ['SHIRT', 'shirt-2', 'Shirt dress', 'Blue shirt', 'T-Shirt', 'Overshirt'].map(byName),
    );
    const list = await store.products.listStorefront({ q: 'shirt', sort: 'relevance', limit: 100 });
    expect(list.data.map((p) => p.id)).toEqual(expected);
    expect(list.total_count).toBe(6);

    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.products.listStorefront({
        q: 'shirt',
        sort: 'relevance',
        limit: 4,
        ...(cursor && { starting_after: cursor }),
      });
      expect(page.total_count).toBe(6);
      walked.push(...page.data.map((p) => p.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    expect(walked).toEqual(expected);

    await store.products.update(byName('Overshirt') as string, { name: 'Shirt' });
    const after = await store.products.listStorefront({ q: 'shirt', sort: 'relevance' });
    // Now tier 0 beside `SHIRT`, which is newer.
    expect(after.data.slice(0, 2).map((p) => p.id)).toEqual([byName('SHIRT'), byName('Overshirt')]);
  });

  test('needs a q, and ranks most relevant first only', async () => {
    t = await createTestEngine();
    const refused = async (input: Record<string, unknown>) => {
      const error = await t?.store.products.listStorefront(input as never).then(
        () => null,
        (e: unknown) => e,
      );
      expect(CommerceError.is(error)).toBe(true);
      return error as CommerceError;
    };
    expect((await refused({ sort: 'relevance' })).code).toBe('parameter_invalid');
    expect((await refused({ sort: 'relevance', q: ' ' })).code).toBe('parameter_invalid');
    expect((await refused({ sort: 'relevance', q: 'x', order: 'asc' })).code).toBe('parameter_invalid');
    await expect(
      t.store.products.listStorefront({ q: 'x', sort: 'relevance', order: 'desc' }),
    ).resolves.toMatchObject({
      data: [],
      total_count: 0,
    });
  });
});
