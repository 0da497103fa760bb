import { describe, expect, it } from 'vitest';
import { scoped } from './scoped-args';

describe('scoped', () => {
  it("adds store_id 'store_1' and mode 'test' to { id: 'cart_1' } and returns that same object", () => {
    const extra = { id: 'cart_1' };
    const args = scoped({ store_id: 'store_1', mode: 'test' }, extra);
    expect(args).toBe(extra);
    expect(args).toEqual({ id: 'cart_1', store_id: 'store_1', mode: 'test' });
  });

  it('lets the scope win over keys of the same name, as { ...extra, ...scope } would', () => {
    expect(scoped({ store_id: 'store_1', mode: 'live' }, { mode: 'test', at: 5 })).toEqual({
      mode: 'live',
      at: 5,
      store_id: 'store_1',
    });
  });
});
