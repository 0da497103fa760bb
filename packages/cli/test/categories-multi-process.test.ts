import { describe, expect, test } from 'vitest';
import { call, DATABASE_TARGETS, tally, useServers } from './support/serve-process';

/**
 * Category moves across processes (decisions §17): two `cartwright serve` processes on one
 * database, each sent one of two moves that together would make a cycle (A under B, B under A)
 * at the same moment, round after round. The tree lock (`categories.lockTree`, a row of
 * `category_trees` locked in the moving transaction) makes the second move see the first: one
 * succeeds, the other is 422 `invalid_parent`, and the tree never holds a cycle.
 */
const SECRET = 'sk_test_categoryMovesSecret000000000001';
const SERVERS = 2;
const ROUNDS = 20;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field.
type Body = any;

for (const target of DATABASE_TARGETS) {
  describe(`category moves over ${SERVERS} processes on one ${target} database`, () => {
    const { at } = useServers(target, SERVERS, { COMMERCE_API_KEYS: SECRET }, 'cartwright-category-moves-');

    async function category(name: string): Promise<Body> {
      const res = await call(at(0), 'POST', '/v1/admin/categories', SECRET, { name });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    }

    test('A→under B on one process and B→under A on the other, at once: one wins, the other is 422, never a cycle', async () => {
      const outcomes: { status: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const a = await category(`A ${target} ${round}`);
        const b = await category(`B ${target} ${round}`);
        const [ab, ba] = await Promise.all([
          call(at(0), 'PATCH', `/v1/admin/categories/${a.id}`, SECRET, { parent_id: b.id }),
          call(at(1), 'PATCH', `/v1/admin/categories/${b.id}`, SECRET, { parent_id: a.id }),
        ]);
        outcomes.push(ab, ba);
        expect([ab.status, ba.status].sort(), JSON.stringify([ab.body, ba.body])).toEqual([200, 422]);
        for (const res of [ab, ba])
          if (res.status === 422) expect(res.body.error.code).toBe('invalid_parent');
      }
      expect(tally(outcomes)).toEqual({ 200: ROUNDS, 422: ROUNDS });

      // Every category hangs from a root: the tree (one request) holds them all, each once.
      const tree = (await call(at(1), 'GET', '/v1/storefront/categories', SECRET)).body;
      const seen = new Set<string>();
      const walk = (nodes: Body[]) => {
        for (const node of nodes) {
          expect(seen.has(node.id)).toBe(false);
          seen.add(node.id);
          walk(node.children);
        }
      };
      walk(tree.data);
      const listed = (await call(at(0), 'GET', '/v1/admin/categories?limit=1', SECRET)).body;
      expect(seen.size).toBe(listed.total_count);
      expect(seen.size).toBe(2 * ROUNDS);
    }, 120_000);
  });
}
