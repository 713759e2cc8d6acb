import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { apiError, mockApi, signIn } from '../../test/api-mock';
import { play } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { PlaysScreen } from './plays-screen';

function setup() {
  const api = mockApi({ 'GET /api/plays': [play(1, 'The Siege')], 'DELETE /api/plays/1': null });
  signIn(api);
  return { api, ...renderWithProviders(<PlaysScreen />) };
}

describe('Manage Plays', () => {
  it('asks before removing a play for good, and does nothing when cancelled', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Delete The Siege' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this play?');
    expect(api.callsTo('DELETE', '/api/plays/1')).toHaveLength(0);
  });

  it("removes with DELETE after the confirmation: 'Play deleted successfully'", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Delete The Siege' }));
    expect(await screen.findByText('Play deleted successfully')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/plays/1')).toHaveLength(1);
    expect(api.callsTo('PATCH', '/api/plays/1')).toHaveLength(0);
  });

  it("'Failed to delete play'", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { api, user } = setup();
    api.routes['DELETE /api/plays/1'] = apiError(500, 'x');
    await user.click(await screen.findByRole('button', { name: 'Delete The Siege' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to delete play');
  });

  it("'Error loading plays'", async () => {
    const api = mockApi({ 'GET /api/plays': apiError(500, 'x') });
    signIn(api);
    renderWithProviders(<PlaysScreen />);
    expect((await screen.findByRole('alert')).textContent).toContain('Error loading plays');
  });

  it('new play defaults: original, draft; saving failures', async () => {
    const { api, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Add Play' }));
    expect(screen.getByRole('dialog', { name: 'Add New Play' })).toBeTruthy();
    expect((screen.getByLabelText('Type') as HTMLSelectElement).value).toBe('original');
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('draft');
    expect(screen.getByText("A Google Drive shareable link, with sharing set to 'Anyone with the link can view'")).toBeTruthy();
    await user.type(screen.getByLabelText('Title'), 'Return');
    await user.selectOptions(screen.getByLabelText('Status'), 'performed');

    api.routes['POST /api/plays'] = apiError(400, 'Validation failed');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to save play');

    api.routes['POST /api/plays'] = () => Promise.reject(new TypeError('Failed to fetch'));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Error saving play'));
    expect(screen.getByRole('alert').textContent).toContain('Please try again');

    api.routes['POST /api/plays'] = play(2, 'Return');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Play created successfully')).toBeTruthy();
    expect(api.callsTo('POST', '/api/plays').at(-1)!.body).toMatchObject({ title: 'Return', type: 'original', status: 'performed' });
  });
});
