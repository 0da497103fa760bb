import { describe, expect, test } from 'vitest';
import { CommerceError } from '../shared/errors';
import { assertAdminRemains, assertStaffMay, requiredRoleOf, roleAllows } from './roles';

function codeOf(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!CommerceError.is(error)) throw error;
    return error.code;
  }
}

describe('staff roles (decisions §23)', () => {
  test('admin-only groups: keys, webhooks, members, regions, locales, store settings', () => {
    for (const name of [
      'apiKeys.create',
      'webhooks.list',
      'members.update',
      'regions.create',
      'locales.delete',
      'settings.update',
    ]) {
      expect(requiredRoleOf({ name })).toBe('admin');
    }
    for (const name of [
      'products.create',
      'inventory.adjust',
      'orders.cancel',
      'returns.approve',
      'customers.update',
      'discounts.create',
      'translations.upsert',
    ]) {
      expect(requiredRoleOf({ name })).toBe('member');
    }
  });

  test("an operation's own role overrides its group's", () => {
    expect(requiredRoleOf({ name: 'settings.get', role: 'member' })).toBe('member');
    expect(requiredRoleOf({ name: 'products.purge', role: 'admin' })).toBe('admin');
  });

  test('an admin may do what a member may; a member not what an admin may', () => {
    expect(roleAllows('admin', 'admin')).toBe(true);
    expect(roleAllows('admin', 'member')).toBe(true);
    expect(roleAllows('member', 'member')).toBe(true);
    expect(roleAllows('member', 'admin')).toBe(false);
  });

  test('assertStaffMay: 403 forbidden for a member on admin-only; no staff actor (a secret key) passes', () => {
    expect(
      codeOf(() => assertStaffMay({ member_id: 'mem_1', role: 'member' }, { name: 'apiKeys.list' })),
    ).toBe('forbidden');
    expect(
      codeOf(() => assertStaffMay({ member_id: 'mem_1', role: 'member' }, { name: 'orders.list' })),
    ).toBe(null);
    expect(
      codeOf(() => assertStaffMay({ member_id: 'mem_1', role: 'admin' }, { name: 'apiKeys.list' })),
    ).toBe(null);
    expect(codeOf(() => assertStaffMay(undefined, { name: 'apiKeys.list' }))).toBe(null);
    expect(codeOf(() => assertStaffMay(null, { name: 'members.delete' }))).toBe(null);
  });

  test('last admin: neither demoted nor removed; another admin, or a member, may go', () => {
    const admin = { role: 'admin' as const };
    const member = { role: 'member' as const };
    expect(codeOf(() => assertAdminRemains(admin, { role: 'member' }, 1))).toBe('last_admin');
    expect(codeOf(() => assertAdminRemains(admin, 'delete', 1))).toBe('last_admin');
    expect(codeOf(() => assertAdminRemains(admin, { role: 'member' }, 2))).toBe(null);
    expect(codeOf(() => assertAdminRemains(admin, 'delete', 2))).toBe(null);
    expect(codeOf(() => assertAdminRemains(admin, { role: 'admin' }, 1))).toBe(null);
    expect(codeOf(() => assertAdminRemains(member, 'delete', 1))).toBe(null);
    expect(codeOf(() => assertAdminRemains(member, { role: 'admin' }, 0))).toBe(null);
  });
});
