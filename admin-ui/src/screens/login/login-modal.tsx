import { useState } from 'react';
import { ApiError } from '../../api/client';
import { FormAlert, PasswordField, TextField } from '../../components/field';
import { Modal } from '../../components/modal';
import { useForm } from '../../hooks/use-form';
import { useSession } from '../../hooks/use-session';
import { useI18n } from '../../i18n/i18n';
import type { Message } from '../../i18n/message';
import { compact, isBlank } from '../../lib/validation';

interface LoginValues {
  username: string;
  password: string;
}

export function validateLogin(values: LoginValues) {
  return compact({
    username: isBlank(values.username) ? 'validation.usernameRequired' : undefined,
    password: values.password === '' ? 'validation.passwordRequired' : undefined,
  });
}

interface LoginModalProps {
  onClose: () => void;
  onForgotPassword: () => void;
  /** A message to greet with (e.g. after a password reset). */
  notice?: Message | null;
}

/** 'Admin Login' (specification, sections 2, 5 and 8). */
export function LoginModal({ onClose, onForgotPassword, notice }: LoginModalProps) {
  const { t, msg } = useI18n();
  const { login } = useSession();
  const [failure, setFailure] = useState<{ invalid: boolean; detail?: Message } | null>(null);
  const { values, errors, setValue, isSubmitting, handleSubmit } = useForm<LoginValues>({
    initialValues: { username: '', password: '' },
    validate: validateLogin,
    onSubmit: async ({ username, password }) => {
      setFailure(null);
      let ok: boolean;
      try {
        ok = await login(username.trim(), password);
      } catch (error) {
        // Too many attempts: say when to try again, besides the specification's sentence.
        const detail = error instanceof ApiError && error.status === 429 && error.serverMessage ? error.serverMessage : undefined;
        setFailure({ invalid: false, detail });
        return;
      }
      if (!ok) setFailure({ invalid: true });
    },
  });

  return (
    <Modal title={t('login.title')} onClose={onClose} size="small">
      <form className="ao-form" noValidate onSubmit={handleSubmit}>
        {notice && !failure && <FormAlert tone="success">{msg(notice)}</FormAlert>}
        {failure && (
          <FormAlert>
            <p>{failure.invalid ? msg('error.invalidCredentials') : t('login.error')}</p>
            {failure.detail && <p>{msg(failure.detail)}</p>}
          </FormAlert>
        )}
        <TextField
          label={t('login.username')}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.username}
          onChange={(v) => setValue('username', v)}
          error={errors.username}
        />
        <PasswordField
          label={t('login.password')}
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(v) => setValue('password', v)}
          error={errors.password}
        />
        <button type="submit" className="ao-button ao-button-primary ao-button-block" disabled={isSubmitting}>
          {isSubmitting ? t('login.submitting') : t('login.submit')}
        </button>
        <button type="button" className="ao-button ao-button-link" onClick={onForgotPassword}>
          {t('login.forgot')}
        </button>
      </form>
    </Modal>
  );
}
