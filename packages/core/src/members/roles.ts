import type { StaffRole } from '../ports/storage';
import { CommerceError } from '../shared/errors';

export type { StaffRole };

/**
 * A person of the back office acting through a staff session or an embedding host's `authorize`
 * hook (decisions §23). Secret API keys have no staff actor and keep every right.
 */
export interface StaffActor {
  /** The member's id (`mem_…`), or the host's identity when its `authorize` hook names no member. */
  member_id: string;
  role: StaffRole;
}

/**
 * The groups of operations only an `admin` may call (decisions §23): API keys, webhooks, members,
 * regions (with their prices and the currency rates), locales and store settings. Every other admin operation (catalog, inventory, orders,
 * returns, customers, discounts, shipping methods, translations) is open to a `member`. An
 * operation may say otherwise with its own `role`.
 */
export const ADMIN_ONLY_GROUPS: ReadonlySet<string> = new Set([
  'apiKeys',
  'webhooks',
  'members',
  'regions',
  'regionPrices',
  'currencyRates',
  'locales',
  'settings',
]);

/** What {@link requiredRoleOf} reads of an operation. */
export interface RoleDeclaration {
  /** `products.create` → group `products`. */
  name: string;
  /** Declared on the operation; otherwise from its group. */
  role?: StaffRole | undefined;
}

/** The least role a staff actor needs for the operation: its own `role`, else its group's. */
export function requiredRoleOf(operation: RoleDeclaration): StaffRole {
  if (operation.role !== undefined) return operation.role;
  const group = operation.name.split('.')[0] ?? '';
  return ADMIN_ONLY_GROUPS.has(group) ? 'admin' : 'member';
}

/** Whether `role` carries the rights of `required` (an admin may do what a member may). */
export function roleAllows(role: StaffRole, required: StaffRole): boolean {
  return required === 'member' || role === 'admin';
}

/**
 * Refuses a staff actor whose role does not allow the operation: 403 `forbidden`. A call without a
 * staff actor (a secret API key, the in-process API) is not judged here.
 */
export function assertStaffMay(staff: StaffActor | null | undefined, operation: RoleDeclaration): void {
  if (staff === null || staff === undefined) return;
  if (!roleAllows(staff.role, requiredRoleOf(operation))) {
    throw new CommerceError('forbidden', `Only an admin of the organization may call ${operation.name}.`);
  }
}

/**
 * The last-admin rule (decisions §23): a change that takes the admin role from a member — a
 * demotion, or removing an admin — is refused with 409 `last_admin` when that member is the
 * organization's only admin. `admins` is the count read under the organization's lock.
 */
export function assertAdminRemains(
  member: { role: StaffRole },
  change: { role: StaffRole } | 'delete',
  admins: number,
): void {
  const losesAdmin = member.role === 'admin' && (change === 'delete' || change.role !== 'admin');
  if (losesAdmin && admins <= 1) {
    throw new CommerceError(
      'last_admin',
      change === 'delete'
        ? 'The last admin of the organization cannot be removed.'
        : 'The last admin of the organization cannot be demoted.',
    );
  }
}
