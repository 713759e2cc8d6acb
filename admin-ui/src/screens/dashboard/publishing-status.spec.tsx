import type { PublishingStatus as Status } from '@portfolio/contract/types';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Toaster } from '../../components/toaster';
import { PUBLISHING_POLL_MS, PublishingProvider, usePublishing } from '../../hooks/use-publishing';
import { SessionProvider } from '../../hooks/use-session';
import { ToastProvider } from '../../hooks/use-toast';
import { I18nProvider } from '../../i18n/i18n';
import { mockApi } from '../../test/api-mock';
import { PublishingStatus } from './publishing-status';

const status = (overrides: Partial<Status>): Status => ({
  state: 'idle',
  pendingChanges: 0,
  lastLiveAt: null,
  lastDurationMs: null,
  lastError: null,
  webhookConfigured: true,
  nextAttemptAt: null,
  liveBuildId: null,
  builderReachable: null,
  lastPublish: null,
  deploy: null,
  ...overrides,
});

function SaveButton() {
  const { notifyChange } = usePublishing();
  return <button onClick={notifyChange}>save</button>;
}

function renderStatus() {
  render(
    <I18nProvider>
      <ToastProvider>
        <SessionProvider>
          <PublishingProvider>
            <SaveButton />
            <PublishingStatus />
            <Toaster />
          </PublishingProvider>
        </SessionProvider>
      </ToastProvider>
    </I18nProvider>,
  );
}

const flush = () => act(() => vi.advanceTimersByTimeAsync(0));
const nextPoll = () => act(() => vi.advanceTimersByTimeAsync(PUBLISHING_POLL_MS));
const text = () => screen.getByRole('status').textContent;

describe('publishing status', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('without the publishing endpoint (404), a change shows as saved', async () => {
    mockApi();
    renderStatus();
    await flush();
    expect(text()).toBe('');
    fireEvent.click(screen.getByText('save'));
    await flush();
    expect(text()).toContain('Changes saved');
  });

  it('after a change: rebuilding, then live; polling stops when live', async () => {
    const answers = [
      status({}),
      status({ state: 'queued', pendingChanges: 1 }),
      status({ state: 'building', pendingChanges: 1 }),
      status({ state: 'live' }),
    ];
    const api = mockApi({ 'GET /api/admin/publishing': () => answers.shift() ?? status({ state: 'live' }) });
    renderStatus();
    await flush();
    expect(text()).toContain('The site is up to date');
    fireEvent.click(screen.getByText('save'));
    await flush();
    expect(text()).toContain('Site rebuild queued...');
    await nextPoll();
    expect(text()).toContain('Rebuilding the site...');
    await nextPoll();
    expect(text()).toContain('Changes are live on the site');
    const calls = api.callsTo('GET', '/api/admin/publishing').length;
    await nextPoll();
    expect(api.callsTo('GET', '/api/admin/publishing')).toHaveLength(calls);
  });

  it('live after a change: how many pages the publish updated and how long after the save, in both languages', async () => {
    const live = status({ state: 'live', lastPublish: { mode: 'targeted', pagesUpdated: 3, liveAfterSaveMs: 420 } });
    mockApi({ 'GET /api/admin/publishing': live });
    renderStatus();
    await flush();
    // Before any change of this visit, the numbers of someone else's save would mean nothing.
    expect(text()).toContain('The site is up to date');
    fireEvent.click(screen.getByText('save'));
    await flush();
    expect(text()).toContain('Changes are live on the site. Pages updated: 3. Live 0.4 s after your save.');
    await act(async () => {
      document.documentElement.lang = 'ar';
      document.documentElement.dir = 'rtl';
    });
    try {
      expect(text()).toContain('التغييرات منشورة على الموقع. الصفحات المحدّثة: 3. نُشرت بعد 0.4 ث من الحفظ.');
    } finally {
      document.documentElement.lang = 'en';
      document.documentElement.dir = 'ltr';
    }
  });

  it('a publish no save caused (Publish now) says only that changes are live', async () => {
    mockApi({
      'GET /api/admin/publishing': status({ state: 'live', lastPublish: { mode: 'full', pagesUpdated: 40, liveAfterSaveMs: null } }),
    });
    renderStatus();
    await flush();
    fireEvent.click(screen.getByText('save'));
    await flush();
    expect(text()).toBe('Public site: Changes are live on the site');
  });

  it('a failed build offers Retry, which publishes again', async () => {
    const api = mockApi({
      'GET /api/admin/publishing': status({ state: 'failed', pendingChanges: 2, lastError: 'astro build: error' }),
      'POST /api/admin/publishing': () => {
        api.routes['GET /api/admin/publishing'] = status({ state: 'building', pendingChanges: 2 });
        return status({ state: 'queued', pendingChanges: 2 });
      },
    });
    renderStatus();
    await flush();
    expect(text()).toContain('Publishing failed');
    expect(screen.getByText('astro build: error')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await flush();
    expect(api.callsTo('POST', '/api/admin/publishing')).toHaveLength(1);
    expect(text()).toContain('Rebuilding the site...');
  });

  it('pending changes can be published now; without a webhook a change is only saved', async () => {
    const api = mockApi({ 'GET /api/admin/publishing': status({ pendingChanges: 3 }) });
    renderStatus();
    await flush();
    expect(text()).toContain('Changes waiting to be published: 3');
    expect(screen.getByRole('button', { name: 'Publish now' })).toBeTruthy();
    api.routes['GET /api/admin/publishing'] = status({ pendingChanges: 4, webhookConfigured: false });
    fireEvent.click(screen.getByText('save'));
    await flush();
    expect(text()).toContain('Changes saved. Publishing to the public site is not set up.');
  });

  it('says when the copy of the site on the CDN lags behind, with the error, in English and Arabic', async () => {
    mockApi({
      'GET /api/admin/publishing': status({
        state: 'live',
        deploy: {
          state: 'retrying',
          target: 's3://site/www/',
          lastDeployedBuildId: 'a',
          lastDeployedAt: '2025-01-01T00:00:00.000Z',
          lastUploaded: 3,
          lastError: 'ServiceUnavailable: Slow down (HTTP 503)',
          retryAt: '2025-01-01T00:01:00.000Z',
        },
      }),
    });
    renderStatus();
    await flush();
    expect(text()).toContain('The site is up to date');
    expect(screen.getByText(/The copy of the site on the CDN is not updated yet/)).toBeTruthy();
    expect(screen.getByText('ServiceUnavailable: Slow down (HTTP 503)')).toBeTruthy();
    await act(async () => {
      document.documentElement.lang = 'ar';
      document.documentElement.dir = 'rtl';
    });
    try {
      expect(screen.getByText(/لم تُحدَّث نسخة الموقع على شبكة توزيع المحتوى بعد/)).toBeTruthy();
    } finally {
      document.documentElement.lang = 'en';
      document.documentElement.dir = 'ltr';
    }
  });

  it('says nothing about a CDN copy that is up to date', async () => {
    mockApi({
      'GET /api/admin/publishing': status({
        state: 'live',
        deploy: {
          state: 'deployed',
          target: 's3://site/www/',
          lastDeployedBuildId: 'a',
          lastDeployedAt: '2025-01-01T00:00:00.000Z',
          lastUploaded: 3,
          lastError: null,
          retryAt: null,
        },
      }),
    });
    renderStatus();
    await flush();
    expect(screen.queryByText(/CDN/)).toBeNull();
  });
});
