import type { RoleRow } from '../../../../contract/auth';

/**
 * The role "Add a user" starts with: the one that may do least (fewest permissions; on a tie, the
 * first by name), so a slip of the keyboard never makes a new owner. '' when there is no role.
 */
export function leastPrivilegedRole(roles: readonly RoleRow[]): string {
  const [first] = [...roles].sort(
    (a, b) => a.permissions.length - b.permissions.length || a.name.localeCompare(b.name),
  );
  return first?.name ?? '';
}
