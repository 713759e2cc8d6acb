import type { AdminUser } from '@portfolio/contract/types';
import { vi } from 'vitest';
import { SESSION_STORAGE_KEY } from '../api/session-store';

export interface ApiCall {
  method: string;
  path: string;
  search: URLSearchParams;
  /** Parsed JSON body, or the FormData of an upload. */
  body: unknown;
  headers: Headers;
  credentials: RequestCredentials | undefined;
}

type Reply = Response | object | unknown[] | null;
type Handler = Reply | ((call: ApiCall) => Reply | Promise<Reply>);

export const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export const apiError = (status: number, message: string, errors?: Record<string, string>) =>
  json(status, { statusCode: status, message, ...(errors ? { errors } : {}) });

/**
 * Replaces fetch with a table of routes ('GET /api/books' → answer or handler). Unknown routes
 * answer 404 like the API does. Routes can be changed later through `routes`.
 */
export function mockApi(initial: Record<string, Handler> = {}) {
  const routes: Record<string, Handler> = { ...initial };
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const call: ApiCall = { method, path: url.pathname, search: url.searchParams, body, headers: new Headers(init.headers), credentials: init.credentials };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    if (handler === undefined) return apiError(404, `Cannot ${method} ${url.pathname}`);
    const reply = typeof handler === 'function' ? await handler(call) : handler;
    if (reply instanceof Response) return reply;
    return reply === null ? new Response(null, { status: 204 }) : json(200, reply);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    routes,
    calls,
    fetchMock,
    /** The calls to one route. */
    callsTo: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
  };
}

export const adminUser = (overrides: Partial<AdminUser> = {}): AdminUser => ({
  id: 1,
  username: 'admin',
  email: 'admin@example.invalid',
  name: 'Rana',
  isActive: true,
  isSuperadmin: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

/** A stored session that GET /api/admin/me accepts. */
export function signIn(api: ReturnType<typeof mockApi>, user: AdminUser = adminUser()) {
  localStorage.setItem(SESSION_STORAGE_KEY, 'session-token');
  api.routes['GET /api/admin/me'] = user;
  return user;
}
