import { type MessageKey, type MessageParams, type MessageRef, messageText } from '@portfolio/contract/messages';
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

/** A refusal with English sentences only (an older API, or a message the catalogue does not have). */
export const apiError = (status: number, message: string, errors?: Record<string, string>) =>
  json(status, { statusCode: status, message, ...(errors ? { errors } : {}) });

/** A refusal as the API sends it: the catalogue's English and the keys, for the answer and each field. */
export function keyedApiError(status: number, message: MessageKey | MessageRef, fields?: Record<string, MessageKey | MessageRef>) {
  const ref = (m: MessageKey | MessageRef): MessageRef => (typeof m === 'string' ? { key: m } : m);
  const { key, params } = ref(message);
  const errorKeys = fields && Object.fromEntries(Object.entries(fields).map(([field, m]) => [field, ref(m)]));
  return json(status, {
    statusCode: status,
    message: messageText(key, 'en', params),
    messageKey: key,
    ...(params ? { messageParams: params satisfies MessageParams } : {}),
    ...(errorKeys
      ? { errors: Object.fromEntries(Object.entries(errorKeys).map(([field, r]) => [field, messageText(r, 'en')])), errorKeys }
      : {}),
  });
}

/** A `{ message }` answer as the API sends it, with its key. */
export const noticeAnswer = (key: MessageKey) => ({ message: messageText(key, 'en'), messageKey: key });

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
    const call: ApiCall = {
      method,
      path: url.pathname,
      search: url.searchParams,
      body,
      headers: new Headers(init.headers),
      credentials: init.credentials,
    };
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
