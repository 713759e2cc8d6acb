import type { Revision, RevisionSummary } from '@portfolio/contract/types';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { keyedApiError, mockApi, signIn } from '../../test/api-mock';
import { play } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { PlaysScreen } from '../plays/plays-screen';
import { HistoryModal } from './history-modal';

const BASE = '/api/admin/revisions/essays/7';

const summary = (revision: number, over: Partial<RevisionSummary> = {}): RevisionSummary => ({
  kind: 'essays',
  entityId: 7,
  revision,
  action: 'update',
  userId: 1,
  username: 'rana',
  createdAt: `2025-03-0${revision}T10:00:00.000Z`,
  changedFields: [],
  restoredFrom: null,
  ...over,
});

const snapshot = (over: Record<string, unknown>) =>
  ({
    id: 7,
    title: 'The Sea',
    excerpt: 'Short',
    content: 'The sea at Gaza is grey today.\nSecond line.',
    published: true,
    featured: false,
    isDeleted: false,
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
    ...over,
  }) as unknown as Revision['snapshot'];

function setup(onRestored = vi.fn()) {
  const api = mockApi({
    [`GET ${BASE}`]: {
      kind: 'essays',
      entityId: 7,
      exists: true,
      total: 2,
      revisions: [
        summary(2, { changedFields: ['title', 'content'] }),
        summary(1, { action: 'create', changedFields: ['title', 'excerpt', 'content'] }),
      ],
    },
    [`GET ${BASE}/1`]: { ...summary(1, { action: 'create' }), snapshot: snapshot({}) },
    [`GET ${BASE}/2`]: {
      ...summary(2),
      snapshot: snapshot({ title: 'The Blue Sea', content: 'The sea at Gaza is blue today.\nSecond line.' }),
    },
    [`POST ${BASE}/1/restore`]: {
      item: snapshot({}),
      revision: summary(3, { action: 'revert', restoredFrom: 1, changedFields: ['title', 'content'] }),
    },
  });
  signIn(api);
  const view = renderWithProviders(<HistoryModal kind="essays" id={7} name="The Blue Sea" onClose={() => {}} onRestored={onRestored} />);
  return { api, onRestored, ...view };
}

describe('HistoryModal', () => {
  it('lists the versions newest first with who, when, what was done and which fields changed', async () => {
    setup();
    const dialog = await screen.findByRole('dialog', { name: 'History: The Blue Sea' });
    const versions = await within(dialog).findAllByRole('button', { pressed: undefined, name: /^Version \d/ });
    expect(versions.map((v) => v.textContent)).toEqual([expect.stringContaining('Version 2current'), expect.stringContaining('Version 1')]);
    expect(versions[0].textContent).toContain('Edited');
    expect(versions[0].textContent).toContain('by rana');
    expect(versions[0].textContent).toContain('Changed: Title, Content');
    expect(versions[1].textContent).toContain('Created');
    expect(versions[0].getAttribute('aria-pressed')).toBe('true');
    expect(within(versions[0]).getByText(/2025/).tagName).toBe('TIME');
  });

  it('compares the newest version with the one before: old and new title, the changed words of the text marked', async () => {
    setup();
    const title = await screen.findByRole('region', { name: 'Title' });
    expect(within(title).getByText('The Sea')).toBeTruthy();
    expect(within(title).getByText('The Blue Sea')).toBeTruthy();
    const content = screen.getByRole('region', { name: 'Content' });
    expect(content.querySelector('del')?.textContent).toBe('Removed text: grey');
    expect(content.querySelector('ins')?.textContent).toBe('Added text: blue');
    expect(screen.queryByRole('region', { name: 'Excerpt' })).toBeNull();
    // The current version cannot be restored over itself.
    expect((screen.getByRole('button', { name: 'Restore this version' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('restores a chosen version after a confirmation, says so and reloads the history', async () => {
    const { api, user, onRestored } = setup();
    await user.click(await screen.findByRole('button', { name: /^Version 1/ }));
    await user.click(screen.getByRole('button', { name: 'Restore this version' }));
    const confirm = await screen.findByRole('dialog', { name: 'Restore version 1?' });
    expect(confirm.textContent).toContain('The item will be saved as it was in version 1, and the site updated to match');
    // Cancel is focused first: Enter does not restore by accident.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.click(within(confirm).getByRole('button', { name: 'Restore version 1' }));
    expect(await screen.findByText('Version 1 restored')).toBeTruthy();
    expect(api.callsTo('POST', `${BASE}/1/restore`)).toHaveLength(1);
    expect(onRestored).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(api.callsTo('GET', BASE)).toHaveLength(2));
  });

  it('shows a failed restore in a toast by its message and keeps the dialog', async () => {
    const { api, user } = setup();
    api.routes[`POST ${BASE}/1/restore`] = keyedApiError(404, 'error.revisionNotFound');
    await user.click(await screen.findByRole('button', { name: /^Version 1/ }));
    await user.click(screen.getByRole('button', { name: 'Restore this version' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Restore version 1?' })).getByRole('button', { name: 'Restore version 1' }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to restore the version');
    expect(alert.textContent).toContain('404: Revision not found');
  });

  it('speaks Arabic, right to left', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    setup();
    const dialog = await screen.findByRole('dialog', { name: 'سجل النسخ: The Blue Sea' });
    const title = await within(dialog).findByRole('region', { name: 'العنوان' });
    expect(within(title).getByText('قبل')).toBeTruthy();
    expect(within(title).getByText('بعد')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: /^النسخة 2/ }).textContent).toContain('الحقول المعدلة: العنوان، المحتوى');
    expect(within(dialog).getByRole('button', { name: 'استعادة هذه النسخة' })).toBeTruthy();
    const content = within(dialog).getByRole('region', { name: 'المحتوى' });
    expect(content.querySelector('del')?.textContent).toBe('نص محذوف: grey');
  });
});

describe('Plays: deleted for good', () => {
  it('lists the plays deleted for good and opens the history of one, which says it is gone', async () => {
    const api = mockApi({
      'GET /api/plays': [play(1, 'The Siege')],
      'GET /api/admin/revisions/plays/removed': [
        {
          kind: 'plays',
          entityId: 9,
          title: 'Gone Play',
          removedAt: '2025-04-01T09:00:00.000Z',
          removedByUserId: 1,
          removedByUsername: 'rana',
          revision: 3,
        },
      ],
      'GET /api/admin/revisions/plays/9': {
        kind: 'plays',
        entityId: 9,
        exists: false,
        total: 1,
        revisions: [{ ...summary(1, { action: 'remove' }), kind: 'plays', entityId: 9 }],
      },
      'GET /api/admin/revisions/plays/9/1': {
        ...summary(1, { action: 'remove' }),
        kind: 'plays',
        entityId: 9,
        snapshot: { id: 9, title: 'Gone Play' },
      },
    });
    signIn(api);
    const { user } = renderWithProviders(<PlaysScreen />);
    await user.click(await screen.findByRole('button', { name: 'Deleted for good' }));
    const list = await screen.findByRole('dialog', { name: 'Permanently deleted plays' });
    expect(await within(list).findByText('Gone Play', { selector: '.ao-history-entry-title' })).toBeTruthy();
    expect(within(list).getByText(/^Deleted .* by rana$/)).toBeTruthy();
    await user.click(within(list).getByRole('button', { name: 'History Gone Play' }));
    const history = await screen.findByRole('dialog', { name: 'History: Gone Play' });
    expect(within(history).getByText('This item was deleted permanently. Restore a version to bring it back.')).toBeTruthy();
    expect(within(history).getByRole('button', { name: /^Version 1/ }).textContent).toContain('Deleted permanently');
    // A removed play's last version can be restored: that brings it back.
    await waitFor(() =>
      expect((within(history).getByRole('button', { name: 'Restore this version' }) as HTMLButtonElement).disabled).toBe(false),
    );
  });
});
