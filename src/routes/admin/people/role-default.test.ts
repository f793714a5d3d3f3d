import { describe, expect, it } from 'vitest';
import type { RoleRow } from '../../../../contract/auth';
import { leastPrivilegedRole } from './role-default';

const role = (name: string, permissions: RoleRow['permissions']): RoleRow => ({
  role_id: name.length,
  name,
  permissions,
  built_in: false,
  user_count: 0,
});

describe('the role a new user starts with', () => {
  it('is the one that may do least, never the owner when another exists', () => {
    const roles = [
      role('owner', ['jobs.manage', 'blog.manage', 'users.manage', 'audit.read']),
      role('editor', ['blog.manage']),
      role('recruiter', ['jobs.manage', 'applications.read']),
    ];
    expect(leastPrivilegedRole(roles)).toBe('editor');
    expect(leastPrivilegedRole([...roles, role('viewer', [])])).toBe('viewer');
    expect(leastPrivilegedRole([role('b', ['audit.read']), role('a', ['blog.manage'])])).toBe('a');
    expect(leastPrivilegedRole([])).toBe('');
  });
});
