import type { TwoFactorStatus } from '@portfolio/contract/types';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { keyedApiError, mockApi, noticeAnswer, signIn } from '../../test/api-mock';
import { renderWithProviders } from '../../test/render';
import { TwoFactorModal } from './two-factor-modal';

const off: TwoFactorStatus = { enabled: false, enabledAt: null, pendingSetup: false, recoveryCodesLeft: 0 };
const on: TwoFactorStatus = { enabled: true, enabledAt: '2026-11-20T10:00:00.000Z', pendingSetup: false, recoveryCodesLeft: 9 };
const codes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jkmn-pq${String(i).padStart(2, '2')}`.slice(0, 19));
const setup = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUrl: 'otpauth://totp/Portfolio:admin?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Portfolio',
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h1v1H0z"/></svg>',
};

function open(status: TwoFactorStatus) {
  const api = mockApi({ 'GET /api/admin/two-factor': status });
  signIn(api);
  const onClose = vi.fn();
  return { api, onClose, ...renderWithProviders(<TwoFactorModal onClose={onClose} />) };
}

afterEach(() => {
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('Two-factor sign-in', () => {
  it('sets up: QR code and setup key, a wrong code on its field, then the recovery codes once', async () => {
    const { api, user } = open(off);
    expect(await screen.findByText('Two-factor sign-in is off.')).toBeTruthy();
    api.routes['POST /api/admin/two-factor/setup'] = setup;
    await user.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));

    const qr = await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' });
    expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`);
    expect(screen.getByTestId('setup-key').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');

    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(screen.getByText('Enter the 6-digit code from your authenticator app')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/two-factor/confirm')).toHaveLength(0);

    api.routes['POST /api/admin/two-factor/confirm'] = keyedApiError(400, 'error.twoFactorCodeInvalid', {
      code: 'error.twoFactorCodeInvalid',
    });
    await user.type(screen.getByLabelText('Code from the app'), '111111');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('This code is not correct. Check your authenticator app and try again.')).toBeTruthy();

    api.routes['POST /api/admin/two-factor/confirm'] = { recoveryCodes: codes };
    await user.clear(screen.getByLabelText('Code from the app'));
    await user.type(screen.getByLabelText('Code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(api.callsTo('POST', '/api/admin/two-factor/confirm').at(-1)!.body).toEqual({ code: '123456' });
    expect(screen.getByText('Two-factor sign-in is on')).toBeTruthy();

    api.routes['GET /api/admin/two-factor'] = { ...on, recoveryCodesLeft: 10 };
    await user.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(await screen.findByText('Recovery codes left: 10 of 10.')).toBeTruthy();
    expect(screen.queryByText(codes[0])).toBeNull();
  });

  it('copies the recovery codes', async () => {
    const { api, user } = open(on);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    api.routes['POST /api/admin/two-factor/recovery-codes'] = { recoveryCodes: codes };
    await user.type(await screen.findByLabelText('Code from the app'), '654321');
    await user.click(screen.getByRole('button', { name: 'New recovery codes' }));
    expect(api.callsTo('POST', '/api/admin/two-factor/recovery-codes')[0].body).toEqual({ code: '654321' });
    await user.click(await screen.findByRole('button', { name: 'Copy codes' }));
    expect(writeText).toHaveBeenCalledWith(codes.join('\n'));
    expect(await screen.findByText('Recovery codes copied')).toBeTruthy();
  });

  it('turns off with the password; a wrong password goes on its field', async () => {
    const { api, user } = open(on);
    expect(await screen.findByText('Recovery codes left: 9 of 10.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor sign-in' }));
    expect(screen.getByText('Enter the 6-digit code from your authenticator app')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Use my password instead' }));
    api.routes['POST /api/admin/two-factor/disable'] = keyedApiError(400, 'validation.currentIncorrect', {
      password: 'validation.currentIncorrect',
    });
    await user.type(screen.getByLabelText('Password'), 'wrong-one');
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor sign-in' }));
    expect(await screen.findByText('Current password is incorrect')).toBeTruthy();

    api.routes['POST /api/admin/two-factor/disable'] = noticeAnswer('notice.twoFactorDisabled');
    api.routes['GET /api/admin/two-factor'] = off;
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'right-one');
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor sign-in' }));
    expect(await screen.findByText('Two-factor sign-in is off.', { selector: '.ao-toast *' })).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/two-factor/disable').at(-1)!.body).toEqual({ password: 'right-one' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Set up two-factor sign-in' })).toBeTruthy());
  });

  it('speaks Arabic, right to left, with the API’s messages in Arabic', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const { api, user } = open(on);
    expect(await screen.findByRole('dialog', { name: 'التحقق بخطوتين' })).toBeTruthy();
    api.routes['POST /api/admin/two-factor/disable'] = keyedApiError(400, 'error.twoFactorCodeUsed', { code: 'error.twoFactorCodeUsed' });
    await user.type(screen.getByLabelText('الرمز من التطبيق'), '123456');
    await user.click(screen.getByRole('button', { name: 'إيقاف التحقق بخطوتين' }));
    expect(await screen.findByText('استُخدم هذا الرمز من قبل. انتظر الرمز التالي في تطبيق المصادقة.')).toBeTruthy();
  });
});
