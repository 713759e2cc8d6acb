import { useState } from 'react';

import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import { FormAlert, PasswordField } from '../../components/field';
import { Modal } from '../../components/modal';
import { describeError } from '../../hooks/use-error-handler';
import { useForm } from '../../hooks/use-form';
import { useI18n } from '../../i18n/i18n';
import { answerMessage, type Message } from '../../i18n/message';
import { validateResetPassword } from './password-rules';

interface ResetPasswordModalProps {
  token: string;
  onClose: () => void;
  /** The password was reset; `message` says so. */
  onDone: (message: Message) => void;
  onRequestNewLink: () => void;
}

/** Opened from the e-mailed link (#reset-password=<token>). */
export function ResetPasswordModal({ token, onClose, onDone, onRequestNewLink }: ResetPasswordModalProps) {
  const i18n = useI18n();
  const { t, msg } = i18n;
  const [failure, setFailure] = useState<{ message: Message; badLink: boolean } | null>(null);
  const { values, errors, setValue, isSubmitting, handleSubmit } = useForm({
    initialValues: { token, password: '', confirmPassword: '' },
    validate: validateResetPassword,
    onSubmit: async (current) => {
      setFailure(null);
      const answer = await authApi.resetPassword({
        token: current.token.trim(),
        password: current.password,
        confirmPassword: current.confirmPassword,
      });
      onDone(answerMessage(answer));
    },
    onError: (error) => {
      const badLink = error instanceof ApiError && Boolean(error.fieldErrors.token);
      setFailure({ message: badLink ? (error as ApiError).fieldErrors.token : { text: describeError(error, i18n) }, badLink });
    },
  });
  // The token has no input of its own: its problem is the form's.
  const tokenProblem = errors.token ? msg(errors.token) : null;

  return (
    <Modal title={t('reset.title')} onClose={onClose} size="small">
      <form className="ao-form" noValidate onSubmit={handleSubmit}>
        {(failure || tokenProblem) && (
          <FormAlert>
            <p>{tokenProblem ?? (failure && msg(failure.message))}</p>
            {(tokenProblem || failure?.badLink) && (
              <button type="button" className="ao-button ao-button-link" onClick={onRequestNewLink}>
                {t('reset.requestNew')}
              </button>
            )}
          </FormAlert>
        )}
        <PasswordField
          label={t('reset.password')}
          autoComplete="new-password"
          value={values.password}
          onChange={(v) => setValue('password', v)}
          error={errors.password}
        />
        <PasswordField
          label={t('reset.confirm')}
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(v) => setValue('confirmPassword', v)}
          error={errors.confirmPassword}
        />
        <button type="submit" className="ao-button ao-button-primary ao-button-block" disabled={isSubmitting}>
          {isSubmitting ? t('common.saving') : t('reset.submit')}
        </button>
      </form>
    </Modal>
  );
}
