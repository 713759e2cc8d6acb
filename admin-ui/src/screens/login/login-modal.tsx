import type { TwoFactorRequiredBody } from '@portfolio/contract/types';
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

type LoginFailure = { invalid: boolean; detail?: Message };

/** The password step: a wrong password or a refusal, or the challenge of the code step for admins with two-factor sign-in. */
function usePasswordStep() {
  const { login } = useSession();
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const [twoFactor, setTwoFactor] = useState<TwoFactorRequiredBody | null>(null);
  const [startOverNotice, setStartOverNotice] = useState<Message | null>(null);
  const form = useForm<LoginValues>({
    initialValues: { username: '', password: '' },
    validate: validateLogin,
    onSubmit: async ({ username, password }) => {
      setFailure(null);
      setStartOverNotice(null);
      let ok: Awaited<ReturnType<typeof login>>;
      try {
        ok = await login(username.trim(), password);
      } catch (error) {
        // Too many attempts: say when to try again, besides the specification's sentence.
        const detail = error instanceof ApiError && error.status === 429 && error.serverMessage ? error.serverMessage : undefined;
        setFailure({ invalid: false, detail });
        return;
      }
      if (!ok) setFailure({ invalid: true });
      else if (typeof ok === 'object') setTwoFactor(ok.twoFactor);
    },
  });
  /** Back from the code step: the password typed again, with why when the sign-in expired. */
  const startOver = (message?: Message) => {
    setTwoFactor(null);
    form.setValue('password', '');
    setStartOverNotice(message ?? null);
  };
  return { ...form, failure, twoFactor, startOverNotice, startOver };
}

/** Above the fields: the failure, else why the sign-in starts over, else the greeting (after a password reset). */
interface LoginAlertsProps {
  failure: LoginFailure | null;
  startOverNotice: Message | null;
  notice?: Message | null;
}

function LoginAlerts({ failure, startOverNotice, notice }: LoginAlertsProps) {
  const { t, msg } = useI18n();
  return (
    <>
      {notice && !failure && !startOverNotice && <FormAlert tone="success">{msg(notice)}</FormAlert>}
      {startOverNotice && !failure && (
        <FormAlert>
          <p>{msg(startOverNotice)}</p>
        </FormAlert>
      )}
      {failure && (
        <FormAlert>
          <p>{failure.invalid ? msg('error.invalidCredentials') : t('login.error')}</p>
          {failure.detail && <p>{msg(failure.detail)}</p>}
        </FormAlert>
      )}
    </>
  );
}

/** 'Admin Login' (specification, sections 2, 5 and 8), then the code step for admins with two-factor sign-in. */
export function LoginModal({ onClose, onForgotPassword, notice }: LoginModalProps) {
  const { t } = useI18n();
  const { values, errors, setValue, isSubmitting, handleSubmit, failure, twoFactor, startOverNotice, startOver } = usePasswordStep();

  if (twoFactor) return <TwoFactorStep challenge={twoFactor.challenge} onClose={onClose} onStartOver={startOver} />;

  return (
    <Modal title={t('login.title')} onClose={onClose} size="small">
      <form className="ao-form" noValidate onSubmit={handleSubmit}>
        <LoginAlerts failure={failure} startOverNotice={startOverNotice} notice={notice} />
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

interface TwoFactorStepProps {
  challenge: string;
  onClose: () => void;
  /** Back to the password step; with a message when the sign-in expired. */
  onStartOver: (message?: Message) => void;
}

/** The code from the authenticator app, or a recovery code: the second step of a two-factor sign-in. */
function TwoFactorStep({ challenge, onClose, onStartOver }: TwoFactorStepProps) {
  const { t, msg } = useI18n();
  const { completeTwoFactor } = useSession();
  const [failure, setFailure] = useState<Message | null>(null);
  const { values, errors, setValue, isSubmitting, handleSubmit } = useForm<{ code: string }>({
    initialValues: { code: '' },
    validate: ({ code }) => compact({ code: isBlank(code) ? 'validation.codeRequired' : undefined }),
    onSubmit: async ({ code }) => {
      setFailure(null);
      try {
        await completeTwoFactor(challenge, code.trim());
      } catch (error) {
        if (error instanceof ApiError && error.body?.messageKey === 'error.twoFactorChallengeInvalid') {
          onStartOver(error.serverMessage ?? undefined);
          return;
        }
        const field = error instanceof ApiError ? error.fieldErrors.code : undefined;
        if (field) setFailure(field);
        else if (error instanceof ApiError && error.serverMessage) setFailure(error.serverMessage);
        else setFailure({ text: t('login.error') });
      }
    },
  });

  return (
    <Modal title={t('login.title')} onClose={onClose} size="small">
      <form className="ao-form" noValidate onSubmit={handleSubmit}>
        <h3 className="ao-subheading">{t('login.codeTitle')}</h3>
        <p className="ao-hint">{t('login.codeIntro')}</p>
        {failure && (
          <FormAlert>
            <p>{msg(failure)}</p>
          </FormAlert>
        )}
        <TextField
          label={t('login.code')}
          name="one-time-code"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          dir="ltr"
          autoFocus
          value={values.code}
          onChange={(v) => setValue('code', v)}
          error={errors.code}
        />
        <button type="submit" className="ao-button ao-button-primary ao-button-block" disabled={isSubmitting}>
          {isSubmitting ? t('login.verifying') : t('login.verify')}
        </button>
        <button type="button" className="ao-button ao-button-link" onClick={() => onStartOver()}>
          {t('login.startOver')}
        </button>
      </form>
    </Modal>
  );
}
