import { createContext, useContext } from 'react';
import type { Permission, SessionUser } from '../../api/contract/auth';

/** What every admin screen may use: the signed-in user and a way to report an ended session. */
export interface AdminSession {
  user: SessionUser;
  can(permission: Permission): boolean;
  /** Call when an API answer was 401: the app goes to the sign-in page and comes back. */
  sessionExpired(): void;
  userUpdated(user: SessionUser): void;
  signOut(): void;
}

export const AdminSessionContext = createContext<AdminSession | null>(null);

export function useAdminSession(): AdminSession {
  const session = useContext(AdminSessionContext);
  if (!session) throw new Error('useAdminSession outside the signed-in admin');
  return session;
}

/** An API error's status (ApiError from src/api/client.ts), or undefined. */
export const statusOf = (error: unknown): number | undefined => (error as { status?: number } | null)?.status;
export const messageOf = (error: unknown, fallback: string): string => {
  const e = error as { status?: number; message?: string } | null;
  // network errors and unexpected shapes get the friendly fallback
  return e && typeof e.message === 'string' && e.message && e.status !== 0 && e.status !== 500
    ? e.message
    : fallback;
};
