import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { ADMIN, type Api, startApi } from './support/harness.js';

const newUser = (over: Record<string, unknown> = {}) => ({
  username: 'editor',
  email: 'editor@example.test',
  name: 'Editor',
  password: 'secret1',
  ...over,
});

describe('/api/admin/users', () => {
  let api: Api;
  let token: string;
  before(async () => {
    api = await startApi();
    token = await api.login();
  });
  after(() => api.close());

  it('needs an admin session', async () => {
    assert.equal((await api.request('GET', '/api/admin/users')).status, 401);
    assert.equal((await api.request('POST', '/api/admin/users', { body: newUser() })).status, 401);
    assert.equal((await api.request('PATCH', '/api/admin/users/1', { body: { isActive: false } })).status, 401);
  });

  it('hides the superadmin from the list', async () => {
    const res = await api.request('GET', '/api/admin/users', { token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, []);
  });

  it('validates a new user with the specification messages', async () => {
    const res = await api.request('POST', '/api/admin/users', { token, body: { username: '', email: 'bad', name: '', password: '12345' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors, {
      username: 'Username is required',
      email: 'Please enter a valid email address',
      name: 'Name is required',
      password: 'Password must be at least 6 characters',
    });
  });

  it('creates a user who can sign in, and refuses a clashing username or e-mail with 409', async () => {
    const res = await api.request('POST', '/api/admin/users', { token, body: newUser() });
    assert.equal(res.status, 201);
    assert.equal(res.body.username, 'editor');
    assert.equal(res.body.isActive, true);
    assert.equal(res.body.passwordHash, undefined);
    await api.login('editor', 'secret1');

    const sameName = await api.request('POST', '/api/admin/users', {
      token,
      body: newUser({ username: 'EDITOR', email: 'other@example.test' }),
    });
    assert.equal(sameName.status, 409);
    assert.equal(sameName.body.errors.username, 'This username is already taken');
    assert.equal(sameName.body.messageKey, 'validation.usernameTaken');
    assert.deepEqual(sameName.body.errorKeys, { username: { key: 'validation.usernameTaken' } });
    const sameMail = await api.request('POST', '/api/admin/users', { token, body: newUser({ username: 'other', email: ADMIN.email }) });
    assert.equal(sameMail.status, 409);
    assert.equal(sameMail.body.errors.email, 'This email address is already in use');

    const list = await api.request('GET', '/api/admin/users', { token });
    assert.deepEqual(
      list.body.map((u: { username: string }) => u.username),
      ['editor'],
    );
  });

  it('deactivating a user ends their sessions and stops their logins; activating lets them back', async () => {
    const created = await api.request('POST', '/api/admin/users', {
      token,
      body: newUser({ username: 'temp', email: 'temp@example.test' }),
    });
    const theirToken = await api.login('temp', 'secret1');
    const off = await api.request('PATCH', `/api/admin/users/${created.body.id}`, { token, body: { isActive: false } });
    assert.equal(off.status, 200);
    assert.equal(off.body.isActive, false);
    assert.equal((await api.request('GET', '/api/admin/me', { token: theirToken })).status, 401);
    const login = await api.request('POST', '/api/admin/login', { body: { username: 'temp', password: 'secret1' } });
    assert.equal(login.status, 401);
    assert.equal(login.body.message, 'Invalid username or password');

    const on = await api.request('PATCH', `/api/admin/users/${created.body.id}`, { token, body: { isActive: true } });
    assert.equal(on.body.isActive, true);
    await api.login('temp', 'secret1');
  });

  it('nobody deactivates the superadmin or themselves', async () => {
    const editorToken = await api.login('editor', 'secret1');
    const me = await api.request('GET', '/api/admin/me', { token });
    const superadmin = await api.request('PATCH', `/api/admin/users/${me.body.id}`, { token: editorToken, body: { isActive: false } });
    assert.equal(superadmin.status, 403);
    assert.equal(superadmin.body.message, 'The main administrator cannot be deactivated');

    const editor = await api.request('GET', '/api/admin/me', { token: editorToken });
    const self = await api.request('PATCH', `/api/admin/users/${editor.body.id}`, { token: editorToken, body: { isActive: false } });
    assert.equal(self.status, 400);
    assert.equal(self.body.message, 'You cannot deactivate your own account');
  });

  it('requires a boolean isActive and answers 404 for unknown ids', async () => {
    const bad = await api.request('PATCH', '/api/admin/users/2', { token, body: { isActive: 'maybe' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors.isActive, 'Must be true or false');
    assert.equal((await api.request('PATCH', '/api/admin/users/9999', { token, body: { isActive: true } })).status, 404);
    assert.equal((await api.request('PATCH', '/api/admin/users/abc', { token, body: { isActive: true } })).status, 404);
  });
});
