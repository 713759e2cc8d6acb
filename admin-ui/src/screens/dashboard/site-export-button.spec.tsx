import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { keyedApiError, mockApi, signIn } from '../../test/api-mock';
import { renderWithProviders } from '../../test/render';
import { SiteExportButton } from './site-export-button';

/** A body that arrives in two parts, the second only when `release` is called (the busy state can be seen meanwhile). */
function slowZip() {
  let release = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(1024 * 1024 + 300 * 1024));
      release = () => {
        controller.enqueue(new Uint8Array([0x50, 0x4b, 0x05, 0x06]));
        controller.close();
      };
    },
  });
  const response = new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="site-2026-11-23.zip"' },
  });
  return { response, release: () => release() };
}

describe('Download the site', () => {
  let saved: { name: string; size: number; type: string }[];
  beforeEach(() => {
    saved = [];
    let blob: Blob | null = null;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => ((blob = b), 'blob:site'), revokeObjectURL: () => {} }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, size: blob?.size ?? -1, type: blob?.type ?? '' });
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('is busy with the megabytes received while the ZIP arrives, then hands it over as a download', async () => {
    const api = mockApi();
    signIn(api);
    const zip = slowZip();
    api.routes['GET /api/admin/site-export'] = zip.response;
    const { user } = renderWithProviders(<SiteExportButton />);
    await user.click(screen.getByRole('button', { name: 'Download the site' }));
    const busy = await screen.findByRole('button', { name: 'Preparing the copy… 1.3 MB' });
    expect(busy).toHaveProperty('disabled', true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    expect(api.callsTo('GET', '/api/admin/site-export')[0].headers.get('Authorization')).toBe('Bearer session-token');
    zip.release();
    expect(await screen.findByText('The site is downloaded')).toBeTruthy();
    expect(saved).toEqual([{ name: 'site-2026-11-23.zip', size: 1024 * 1024 + 300 * 1024 + 4, type: 'application/zip' }]);
    expect(screen.getByRole('button', { name: 'Download the site' })).toHaveProperty('disabled', false);
  });

  it('in Arabic: the button, the busy state and a refusal (no site built yet) in Arabic', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const api = mockApi();
    signIn(api);
    const zip = slowZip();
    api.routes['GET /api/admin/site-export'] = zip.response;
    const { user } = renderWithProviders(<SiteExportButton />);
    await user.click(screen.getByRole('button', { name: 'تنزيل الموقع' }));
    expect(await screen.findByRole('button', { name: 'جارٍ إعداد النسخة… 1.3 ميغابايت' })).toHaveProperty('disabled', true);
    zip.release();
    expect(await screen.findByText('تم تنزيل الموقع')).toBeTruthy();

    api.routes['GET /api/admin/site-export'] = () => keyedApiError(409, 'error.siteNotBuilt');
    await user.click(screen.getByRole('button', { name: 'تنزيل الموقع' }));
    expect(await screen.findByText('تعذر تنزيل الموقع')).toBeTruthy();
    expect(screen.getByText('409: لم يُبنَ الموقع بعد، فلا يوجد ما يمكن تنزيله. حاول مرة أخرى بعد أن يصبح أول نشر متاحًا.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'تنزيل الموقع' })).toHaveProperty('disabled', false));
    expect(saved).toHaveLength(1);
  });
});
