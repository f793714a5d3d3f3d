import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Permission } from '../../contract/auth';
import { createRole, createUser, ensureBuiltInRoles, roleIdByName } from '../db/auth.repo';
import { hashPassword } from './passwords';

/**
 * For server tests (app.inject): a signed-in user with a built-in role or exactly the given
 * permissions, and the headers an admin request needs (session cookie + same-origin Origin).
 *
 *   const { headers } = await signInAs(app, { permissions: ['blog.manage'] });
 *   await app.inject({ method: 'POST', url: '/api/manage-company-blog', headers, payload });
 *
 * The owner role requires a second factor on a new install (docs/decisions/024); tests of other
 * rules sign in on a site whose owners turned that off, unless `keepFactorRule` is set (the
 * second-factor tests: services/factors.test.ts).
 */
export async function signInAs(
  app: FastifyInstance,
  who: ({ role: 'owner' | 'editor' | 'recruiter' } | { permissions: Permission[] }) & { keepFactorRule?: boolean },
): Promise<{
  userId: number;
  email: string;
  password: string;
  cookie: string;
  headers: Record<string, string>;
}> {
  await ensureBuiltInRoles(app.db);
  const tag = randomBytes(4).toString('hex');
  const roleId =
    'role' in who
      ? (await roleIdByName(app.db, who.role))!
      : await createRole(app.db, `test-role-${tag}`, who.permissions);
  if (!who.keepFactorRule)
    await app.db.updateTable('admin_role').set({ requires_second_factor: 0 }).where('role_id', '=', roleId).execute();
  const email = `user-${tag}@example.test`;
  const password = `Test passphrase ${tag} with length`;
  const userId = await createUser(app.db, {
    email,
    passwordHash: await hashPassword(password),
    roleId,
    mustChangePassword: false,
  });
  const origin = sameOrigin(app);
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { origin },
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`signInAs: login answered ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return { userId, email, password, cookie, headers: { cookie, origin } };
}

/** The Origin header of a same-origin browser request to this app. */
export const sameOrigin = (app: FastifyInstance) => new URL(app.config.PUBLIC_URL).origin;

/**
 * The `If-Match` of a change to a user's access or a role, as a client that has just read it
 * would send (docs/decisions/022); `{}` for any other address.
 */
export async function readVersionOf(app: FastifyInstance, url: string): Promise<Record<string, string>> {
  const match = /^\/api\/admin\/(users|roles)\/(\d+)$/.exec(url);
  if (!match) return {};
  const id = Number(match[2]);
  const row =
    match[1] === 'users'
      ? await app.db.selectFrom('admin_user').select('version').where('user_id', '=', id).executeTakeFirst()
      : await app.db.selectFrom('admin_role').select('version').where('role_id', '=', id).executeTakeFirst();
  return { 'if-match': `"${row?.version ?? 1}"` };
}
