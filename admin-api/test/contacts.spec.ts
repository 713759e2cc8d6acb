import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { isEmailAddress } from '@portfolio/contract/rules';

import { type Api, startApi } from './support/harness.js';

const message = (over: Record<string, unknown> = {}) => ({
  name: 'Visitor',
  email: 'visitor@example.test',
  subject: 'Hello',
  message: 'I loved the book.',
  ...over,
});

describe('/api/contacts', () => {
  let api: Api;
  let token: string;
  before(async () => {
    api = await startApi();
    token = await api.login();
  });
  after(() => api.close());

  it('lets a visitor send a message that an admin then reads', async () => {
    const sent = await api.request('POST', '/api/contacts', { body: message({ name: 'زائر' }) });
    assert.equal(sent.status, 201);
    const list = await api.request('GET', '/api/contacts', { token });
    assert.equal(list.status, 200);
    const found = list.body.find((c: { id: number }) => c.id === sent.body.id);
    assert.equal(found.name, 'زائر');
    assert.equal(found.read, false);
    assert.equal(found.isDeleted, false);
  });

  it("answers 'Please fill in all fields correctly.' with each field's problem", async () => {
    const res = await api.request('POST', '/api/contacts', { body: { name: '', email: 'nope', subject: ' ' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'Please fill in all fields correctly.');
    assert.deepEqual(res.body.errors, {
      name: 'Name is required',
      email: 'Please enter a valid email address',
      subject: 'Subject is required',
      message: 'Message is required',
    });
    assert.equal(res.body.messageKey, 'validation.fillAllFields');
    assert.deepEqual(res.body.errorKeys.email, { key: 'validation.emailInvalid' });
  });

  it("accepts an e-mail address exactly when the contact form does (the contract's one rule)", async () => {
    for (const email of ['reader@example.org', 'a@b.c', 'reader@example', 'a b@example.org', 'reader@']) {
      const res = await api.request('POST', '/api/contacts', {
        body: { name: 'Demo reader', email, subject: 'Demo', message: 'Demo message' },
      });
      assert.equal(res.status, isEmailAddress(email) ? 201 : 400, email);
      if (res.status === 400) assert.deepEqual(res.body.errors, { email: 'Please enter a valid email address' });
    }
  });

  it("refuses an address in angle brackets or with an empty domain label with the form's e-mail message", async () => {
    for (const email of ['<a@b.org>', 'x@example..org']) {
      const res = await api.request('POST', '/api/contacts', {
        body: { name: 'Demo reader', email, subject: 'Demo', message: 'Demo message' },
      });
      assert.equal(res.status, 400, email);
      assert.equal(res.body.message, 'Please fill in all fields correctly.');
      assert.deepEqual(res.body.errors, { email: 'Please enter a valid email address' });
      assert.deepEqual(res.body.errorKeys, { email: { key: 'validation.emailInvalid' } });
    }
  });

  it('answers 400 in the one error format to JSON nested thousands of levels deep, and keeps serving', async () => {
    for (const nested of ['['.repeat(5000) + ']'.repeat(5000), '{"a":'.repeat(3000) + '1' + '}'.repeat(3000)]) {
      const res = await api.request('POST', '/api/contacts', {
        rawBody: `{"name":${nested}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { statusCode: 400, message: 'The request body is nested too deeply', messageKey: 'error.bodyTooDeep' });
    }
    const fine = await api.request('POST', '/api/contacts', { body: message({ name: 'After the deep one' }) });
    assert.equal(fine.status, 201);
  });

  it('keeps contact messages private', async () => {
    assert.equal((await api.request('GET', '/api/contacts')).status, 401);
    assert.equal((await api.request('PATCH', '/api/contacts/1/read')).status, 401);
    assert.equal((await api.request('DELETE', '/api/contacts/1')).status, 401);
  });

  it('marks a message as read', async () => {
    const sent = await api.request('POST', '/api/contacts', { body: message() });
    const res = await api.request('PATCH', `/api/contacts/${sent.body.id}/read`, { token });
    assert.equal(res.status, 200);
    assert.equal(res.body.read, true);
    const list = await api.request('GET', '/api/contacts', { token });
    assert.equal(list.body.find((c: { id: number }) => c.id === sent.body.id).read, true);
  });

  it('deletes a message: gone from the list, kept in the database with who deleted it', async () => {
    const sent = await api.request('POST', '/api/contacts', { body: message({ subject: 'to delete' }) });
    const res = await api.request('DELETE', `/api/contacts/${sent.body.id}`, { token });
    assert.equal(res.status, 204);
    const list = await api.request('GET', '/api/contacts', { token });
    assert.ok(!list.body.some((c: { id: number }) => c.id === sent.body.id));
    const [row] = await api.dataSource.query('SELECT * FROM contacts WHERE id = ?', [sent.body.id]);
    assert.ok(row.deletedAt);
    assert.ok(row.deletedByUserId);
    const withDeleted = await api.request('GET', '/api/contacts?includeDeleted=true', { token });
    assert.ok(withDeleted.body.some((c: { id: number; isDeleted: boolean }) => c.id === sent.body.id && c.isDeleted));
    assert.equal((await api.request('DELETE', `/api/contacts/${sent.body.id}`, { token })).status, 404);
    assert.equal((await api.request('PATCH', `/api/contacts/${sent.body.id}/read`, { token })).status, 404);
  });

  it('lists newest first', async () => {
    const a = await api.request('POST', '/api/contacts', { body: message({ subject: 'first' }) });
    const b = await api.request('POST', '/api/contacts', { body: message({ subject: 'second' }) });
    const ids = (await api.request('GET', '/api/contacts', { token })).body.map((c: { id: number }) => c.id);
    assert.ok(ids.indexOf(b.body.id) < ids.indexOf(a.body.id));
  });

  it('slows down a client that sends too many messages', async () => {
    let status = 0;
    for (let i = 0; i < 15 && status !== 429; i++) status = (await api.request('POST', '/api/contacts', { body: message() })).status;
    assert.equal(status, 429);
  });
});
