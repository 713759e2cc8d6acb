import type { ErrorBody } from '@portfolio/contract/types';

import { answerMessage, type Message, serverMessage } from '../i18n/message';
import { sessionStore } from './session-store';

/**
 * A non-OK answer. `message` is the specification's format: the status, a colon and a space, then
 * the response body text (or the status text when the body is empty).
 */
export class ApiError extends Error {
  readonly body: ErrorBody | null;

  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.body = parseErrorBody(bodyText);
  }

  /** What went wrong, for people (the raw body is JSON): by its key when the answer names one. */
  get serverMessage(): Message | null {
    return this.body ? answerMessage(this.body) : null;
  }

  /** Field name → problem, as the API's validation reports it: by key where it names one. */
  get fieldErrors(): Record<string, Message> {
    const errors = this.body?.errors ?? {};
    const keys: Record<string, unknown> = this.body?.errorKeys ?? {};
    return Object.fromEntries(Object.entries(errors).map(([field, text]) => [field, serverMessage(String(text), keys[field])]));
  }
}

function parseErrorBody(text: string): ErrorBody | null {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && typeof (parsed as ErrorBody).message === 'string' ? (parsed as ErrorBody) : null;
  } catch {
    return null;
  }
}

type Query = Record<string, string | number | boolean | undefined>;

interface RequestOptions {
  query?: Query;
  /** A JSON body. */
  body?: unknown;
  /** A multipart body (uploads). */
  form?: FormData;
}

/** The one way the overlay talks to the API: same origin, credentials, bearer header when signed in. */
export async function request<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const sessionId = sessionStore.get();
  if (sessionId) headers.Authorization = `Bearer ${sessionId}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(path + queryString(options.query), { method, headers, body, credentials: 'include' });
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new ApiError(response.status, text, response.statusText);
  }
  const text = response.status === 204 ? '' : await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * A file the API sends (the site's ZIP), read as it arrives: `onProgress` gets the bytes received
 * so far. Same origin, credentials and bearer header as request(); a non-OK answer is an ApiError.
 */
export async function download(path: string, onProgress?: (received: number) => void): Promise<{ blob: Blob; filename: string | null }> {
  const headers: Record<string, string> = {};
  const sessionId = sessionStore.get();
  if (sessionId) headers.Authorization = `Bearer ${sessionId}`;
  const response = await fetch(path, { method: 'GET', headers, credentials: 'include' });
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new ApiError(response.status, text, response.statusText);
  }
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  const filename = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? null;
  if (!response.body) return { blob: await response.blob(), filename };
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.byteLength;
    onProgress?.(received);
  }
  return { blob: new Blob(parts as BlobPart[], { type }), filename };
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }),
  delete: (path: string) => request<void>('DELETE', path),
  upload: <T>(path: string, form: FormData) => request<T>('POST', path, { form }),
};
