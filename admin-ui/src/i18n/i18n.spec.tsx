import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ar } from './ar';
import { en } from './en';
import { createI18n, I18nProvider, useI18n } from './i18n';

function Probe() {
  const { t, lang, dir } = useI18n();
  return (
    <p data-testid="probe" lang={lang} dir={dir}>
      {t('dashboard.welcome', { name: 'Rana' })}
    </p>
  );
}

describe('languages', () => {
  it('has every English key in Arabic, none empty', () => {
    expect(Object.keys(ar).sort()).toEqual(Object.keys(en).sort());
    expect(Object.values(ar).every((text) => text.trim() !== '')).toBe(true);
  });

  it('follows <html lang> and dir, also when the site switches language', async () => {
    document.documentElement.lang = 'en';
    render(
      <I18nProvider>
        <Probe />
      </I18nProvider>,
    );
    expect(screen.getByTestId('probe').textContent).toBe('Welcome, Rana');
    expect(screen.getByTestId('probe').getAttribute('dir')).toBe('ltr');
    await act(async () => {
      document.documentElement.lang = 'ar';
      document.documentElement.dir = 'rtl';
    });
    expect(screen.getByTestId('probe').textContent).toBe('مرحبًا، Rana');
    expect(screen.getByTestId('probe').getAttribute('dir')).toBe('rtl');
  });

  it('translates the API’s known English messages and leaves others as they are', () => {
    const { tm } = createI18n('ar');
    expect(tm('Password must be at least 6 characters')).toBe(ar['validation.passwordMin']);
    expect(tm('Something only the server knows')).toBe('Something only the server knows');
    expect(createI18n('en').tm('Required')).toBe('Required');
  });
});
