import { createContext, useContext } from 'react';
import type { Permission, SessionUser } from '../../../../contract/auth';

/**
 * What every admin screen may use: the signed-in user and what it may do. An ended session (any
 * answer 401) is reported by the transport itself (`onSessionEnded` in src/api/client.ts).
 */
export interface AdminSession {
  user: SessionUser;
  can(permission: Permission): boolean;
  userUpdated(user: SessionUser): void;
  signOut(): void;
}

export const AdminSessionContext = createContext<AdminSession | null>(null);

export function useAdminSession(): AdminSession {
  const session = useContext(AdminSessionContext);
  if (!session) throw new Error('useAdminSession outside the signed-in admin');
  return session;
}

export const messageOf = (error: unknown, fallback: string): string => {
  const e = error as { status?: number; message?: string } | null;
  // network errors and unexpected shapes get the friendly fallback
  return e && typeof e.message === 'string' && e.message && e.status !== 0 && e.status !== 500
    ? e.message
    : fallback;
};
