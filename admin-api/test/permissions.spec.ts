import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { CONTENT_KINDS, KINDS } from '@portfolio/contract/kinds';

import { type Api, sampleOf, startApi } from './support/harness.js';

/** Every route that needs an admin session, with a body that would otherwise be acceptable. */
const ADMIN_ROUTES: [string, string, unknown?][] = [
  ['GET', '/api/admin/me'],
  ['POST', '/api/admin/logout'],
  ['POST', '/api/admin/password', { currentPassword: 'x', newPassword: 'abcdefg', confirmPassword: 'abcdefg' }],
  ['GET', '/api/admin/users'],
  ['POST', '/api/admin/users', { username: 'someone', email: 's@example.test', name: 'S', password: 'secret1' }],
  ['PATCH', '/api/admin/users/1', { isActive: true }],
  // Each kind's writes: create, edit, and remove for good where the kind has it.
  ...CONTENT_KINDS.flatMap((kind): [string, string, unknown?][] => [
    ['POST', `/api/${kind}`, sampleOf[kind]()],
    ['PATCH', `/api/${kind}/1`, { title: 't' }],
    ...(KINDS[kind].softDelete.removable ? [['DELETE', `/api/${kind}/1`] as [string, string]] : []),
  ]),
  ['GET', '/api/contacts'],
  ['PATCH', '/api/contacts/1/read'],
  ['DELETE', '/api/contacts/1'],
  ['POST', '/api/upload'],
  ['GET', '/api/admin/scheduled'],
  ['POST', '/api/admin/preview', { kind: 'books', item: { title: 't', description: 'd', year: 2000, publisher: 'p' } }],
];

describe('admin-only routes', () => {
  let api: Api;
  let loggedOut: string;
  let deactivated: string;
  before(async () => {
    api = await startApi();
    const token = await api.login();
    loggedOut = await api.login();
    await api.request('POST', '/api/admin/logout', { token: loggedOut });
    const user = await api.request('POST', '/api/admin/users', {
      token,
      body: { username: 'leaver', email: 'leaver@example.test', name: 'Leaver', password: 'secret1' },
    });
    deactivated = await api.login('leaver', 'secret1');
    await api.request('PATCH', `/api/admin/users/${user.body.id}`, { token, body: { isActive: false } });
  });
  after(() => api.close());

  for (const [method, path, body] of ADMIN_ROUTES) {
    it(`${method} ${path} answers 401 without a token, with a logged-out one and with a deactivated user's`, async () => {
      for (const token of [undefined, loggedOut, deactivated]) {
        const res = await api.request(method, path, { token, body });
        assert.equal(res.status, 401, `token: ${token ? 'stale' : 'none'}`);
        assert.deepEqual(res.body, {
          statusCode: 401,
          message: 'Authentication required. Please sign in again.',
          messageKey: 'error.authenticationRequired',
        });
      }
    });
  }

  it('lets a fresh session through the same routes', async () => {
    const token = await api.login();
    for (const [method, path, body] of ADMIN_ROUTES.filter(([, p]) => p !== '/api/admin/logout')) {
      const res = await api.request(method, path, { token, body });
      assert.notEqual(res.status, 401, `${method} ${path}`);
    }
  });
});
