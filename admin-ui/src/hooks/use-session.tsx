import type { AdminUser, LoginResponse, TwoFactorRequiredBody } from '@portfolio/contract/types';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';

import { authApi } from '../api/auth';
import { ApiError } from '../api/client';
import { sessionStore } from '../api/session-store';
import { twoFactorApi, twoFactorChallenge } from '../api/two-factor';

/** The password step: signed in, refused, or a code is needed (the admin has two-factor sign-in). */
export type LoginOutcome = boolean | { twoFactor: TwoFactorRequiredBody };

interface SessionState {
  user: AdminUser | null;
  sessionId: string | null;
  /** True until the stored session has been checked with the server. */
  isLoading: boolean;
}

export interface Session extends SessionState {
  isAuthenticated: boolean;
  /** false for a wrong username or password, `{twoFactor}` when a code is needed; throws for any other failure. */
  login: (username: string, password: string) => Promise<LoginOutcome>;
  /** The code step of a two-factor sign-in; throws the API's refusal (wrong, used or expired code). */
  completeTwoFactor: (challenge: string, code: string) => Promise<void>;
  logout: () => Promise<void>;
  /** The server no longer accepts the session (expired, deactivated): forget it without a call. */
  expire: () => void;
  setUser: (user: AdminUser) => void;
}

const SessionContext = createContext<Session | null>(null);

/** Specification, section 4: the admin session's life cycle. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>(() => ({ user: null, sessionId: sessionStore.get(), isLoading: true }));

  useEffect(() => {
    const stored = sessionStore.get();
    if (!stored) {
      setState({ user: null, sessionId: null, isLoading: false });
      return;
    }
    let current = true;
    authApi.me().then(
      (user) => current && setState({ user, sessionId: stored, isLoading: false }),
      () => {
        if (!current) return;
        sessionStore.clear();
        setState({ user: null, sessionId: null, isLoading: false });
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const signedIn = useCallback((result: LoginResponse) => {
    sessionStore.set(result.sessionId);
    setState({ user: result.user, sessionId: result.sessionId, isLoading: false });
  }, []);

  const login = useCallback(
    async (username: string, password: string): Promise<LoginOutcome> => {
      let result;
      try {
        result = await authApi.login(username, password);
      } catch (error) {
        const twoFactor = twoFactorChallenge(error);
        if (twoFactor) return { twoFactor };
        if (error instanceof ApiError && error.status === 401) return false;
        throw error;
      }
      signedIn(result);
      return true;
    },
    [signedIn],
  );

  const completeTwoFactor = useCallback(
    async (challenge: string, code: string) => signedIn(await twoFactorApi.login(challenge, code)),
    [signedIn],
  );

  const expire = useCallback(() => {
    sessionStore.clear();
    setState({ user: null, sessionId: null, isLoading: false });
  }, []);

  const logout = useCallback(async () => {
    try {
      await authApi.logout();
    } catch {
      // Logging out locally matters more than the server hearing about it.
    } finally {
      expire();
    }
  }, [expire]);

  const setUser = useCallback((user: AdminUser) => setState((current) => ({ ...current, user })), []);

  const value = useMemo<Session>(
    () => ({ ...state, isAuthenticated: Boolean(state.user && state.sessionId), login, completeTwoFactor, logout, expire, setUser }),
    [state, login, completeTwoFactor, logout, expire, setUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession needs a SessionProvider');
  return value;
}
