import { describe, expect, it } from 'vitest';

import { apiError, json, keyedApiError, mockApi } from '../test/api-mock';
import { api, ApiError } from './client';
import { SESSION_STORAGE_KEY } from './session-store';

describe('api client', () => {
  it("turns a non-OK answer into an error 'STATUS: body'", async () => {
    mockApi({ 'POST /api/books': apiError(400, 'Title is required', { title: 'Title is required' }) });
    const error = await api.post('/api/books', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      '400: {"statusCode":400,"message":"Title is required","errors":{"title":"Title is required"}}',
    );
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).serverMessage).toEqual({ text: 'Title is required' });
    expect((error as ApiError).fieldErrors).toEqual({ title: { text: 'Title is required' } });
  });

  it('names the messages by their keys when the answer has them, and keeps the English of keys it does not know', async () => {
    const max = { key: 'validation.maxLength', params: { max: 300 } } as const;
    mockApi({ 'POST /api/books': keyedApiError(400, 'validation.failed', { title: max, year: 'validation.yearRequired' }) });
    const error = (await api.post('/api/books', {}).catch((e: unknown) => e)) as ApiError;
    expect(error.serverMessage).toEqual({ key: 'validation.failed' });
    expect(error.fieldErrors).toEqual({ title: max, year: { key: 'validation.yearRequired' } });
    const newer = {
      statusCode: 400,
      message: 'Too blue',
      messageKey: 'validation.tooBlue',
      errors: { colour: 'Too blue' },
      errorKeys: { colour: { key: 'validation.tooBlue' } },
    };
    mockApi({ 'POST /api/books': json(400, newer) });
    const unknown = (await api.post('/api/books', {}).catch((e: unknown) => e)) as ApiError;
    expect(unknown.serverMessage).toEqual({ text: 'Too blue' });
    expect(unknown.fieldErrors).toEqual({ colour: { text: 'Too blue' } });
  });

  it('uses the status text when the body is empty', async () => {
    mockApi({ 'GET /api/books': new Response(null, { status: 503, statusText: 'Service Unavailable' }) });
    await expect(api.get('/api/books')).rejects.toThrow(/^503: Service Unavailable$/);
  });

  it('sends credentials, JSON and the bearer header of the stored session', async () => {
    const mock = mockApi({ 'PATCH /api/books/3': { id: 3 } });
    localStorage.setItem(SESSION_STORAGE_KEY, 'abc');
    await api.patch('/api/books/3', { isDeleted: true });
    const [call] = mock.calls;
    expect(call.credentials).toBe('include');
    expect(call.headers.get('Authorization')).toBe('Bearer abc');
    expect(call.headers.get('Content-Type')).toBe('application/json');
    expect(call.body).toEqual({ isDeleted: true });
  });

  it('sends no bearer header without a session, and builds query strings', async () => {
    const mock = mockApi({ 'GET /api/books': [] });
    await api.get('/api/books', { includeDeleted: true, skip: undefined });
    expect(mock.calls[0].headers.has('Authorization')).toBe(false);
    expect(mock.calls[0].search.toString()).toBe('includeDeleted=true');
  });

  it('answers undefined for 204 No Content', async () => {
    mockApi({ 'DELETE /api/plays/1': null });
    await expect(api.delete('/api/plays/1')).resolves.toBeUndefined();
  });
});
