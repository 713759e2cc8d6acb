import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';

import { SESSION_STORAGE_KEY } from '../api/session-store';
import { adminUser, apiError, json, mockApi, signIn } from '../test/api-mock';
import { type LoginOutcome, SessionProvider, useSession } from './use-session';

const wrapper = ({ children }: { children: ReactNode }) => <SessionProvider>{children}</SessionProvider>;

describe('admin session', () => {
  it('without a stored session: not loading, not authenticated, no call', async () => {
    const api = mockApi();
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.isAuthenticated).toBe(false);
    expect(api.calls).toHaveLength(0);
  });

  it('checks a stored session with GET /api/admin/me and loads the user', async () => {
    const api = mockApi();
    const user = signIn(api);
    const { result } = renderHook(() => useSession(), { wrapper });
    expect(result.current.isLoading).toBe(true);
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.isAuthenticated).toBe(true);
    expect(result.current.user).toEqual(user);
    expect(api.callsTo('GET', '/api/admin/me')[0].headers.get('Authorization')).toBe('Bearer session-token');
  });

  it('removes an invalid stored session', async () => {
    mockApi({ 'GET /api/admin/me': apiError(401, 'Unauthorized') });
    localStorage.setItem(SESSION_STORAGE_KEY, 'expired');
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.isAuthenticated).toBe(false);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('removes the stored session when the check fails', async () => {
    mockApi({ 'GET /api/admin/me': () => Promise.reject(new TypeError('Failed to fetch')) });
    localStorage.setItem(SESSION_STORAGE_KEY, 'whatever');
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(result.current.user).toBeNull();
  });

  it('login stores the user and persists the session id', async () => {
    const user = adminUser();
    const api = mockApi({ 'POST /api/admin/login': { user, sessionId: 'new-session' } });
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    let ok: LoginOutcome = false;
    await act(async () => {
      ok = await result.current.login('admin', 'secret1');
    });
    expect(ok).toBe(true);
    expect(api.callsTo('POST', '/api/admin/login')[0].body).toEqual({ username: 'admin', password: 'secret1' });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBe('new-session');
    expect(result.current.isAuthenticated).toBe(true);
    expect(result.current.sessionId).toBe('new-session');
  });

  it('login answers false for a wrong password and throws for other failures', async () => {
    const api = mockApi({ 'POST /api/admin/login': apiError(401, 'Invalid username or password') });
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    await expect(result.current.login('admin', 'wrong')).resolves.toBe(false);
    api.routes['POST /api/admin/login'] = apiError(500, 'Something went wrong on the server. Please try again.');
    await expect(result.current.login('admin', 'x')).rejects.toThrow(/^500: /);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('login hands over a two-factor challenge without a session; the code step signs in', async () => {
    const user = adminUser();
    const challenge = {
      statusCode: 401,
      message: 'Enter the code from your authenticator app to finish signing in.',
      messageKey: 'error.twoFactorRequired',
      challenge: 'challenge-token-from-the-api-0123456789',
      challengeExpiresAt: '2030-01-01T00:05:00.000Z',
    };
    const api = mockApi({
      'POST /api/admin/login': json(401, challenge),
      'POST /api/admin/login/totp': { user, sessionId: 'two-factor-session' },
    });
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    let outcome: LoginOutcome = false;
    await act(async () => {
      outcome = await result.current.login('admin', 'secret1');
    });
    expect(outcome).toEqual({ twoFactor: challenge });
    expect(result.current.isAuthenticated).toBe(false);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    await act(() => result.current.completeTwoFactor(challenge.challenge, '123456'));
    expect(api.callsTo('POST', '/api/admin/login/totp')[0].body).toEqual({ challenge: challenge.challenge, code: '123456' });
    expect(result.current.isAuthenticated).toBe(true);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBe('two-factor-session');
  });

  it('logout clears state and storage even when the call fails', async () => {
    const api = mockApi({ 'POST /api/admin/logout': apiError(500, 'boom') });
    signIn(api);
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.isAuthenticated).toBe(true));
    await act(() => result.current.logout());
    expect(api.callsTo('POST', '/api/admin/logout')).toHaveLength(1);
    expect(result.current.isAuthenticated).toBe(false);
    expect(result.current.user).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });
});
