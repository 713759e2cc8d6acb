import { useState } from 'react';

import { authApi } from '../../api/auth';
import { FormAlert, TextField } from '../../components/field';
import { Modal } from '../../components/modal';
import { describeError } from '../../hooks/use-error-handler';
import { useForm } from '../../hooks/use-form';
import { useI18n } from '../../i18n/i18n';
import { answerMessage, type Message } from '../../i18n/message';
import { compact, isEmail } from '../../lib/validation';

export function validateForgotPassword(values: { email: string }) {
  return compact({ email: isEmail(values.email) ? undefined : 'validation.emailInvalid' });
}

/** Asks for a reset link by e-mail. The answer is the same whether or not the address is an admin's. */
export function ForgotPasswordModal({ onClose, onBack }: { onClose: () => void; onBack: () => void }) {
  const i18n = useI18n();
  const { t, msg } = i18n;
  const [sent, setSent] = useState<Message | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { values, errors, setValue, isSubmitting, handleSubmit } = useForm({
    initialValues: { email: '' },
    validate: validateForgotPassword,
    onSubmit: async ({ email }) => {
      setFailure(null);
      const answer = await authApi.forgotPassword(email.trim());
      setSent(answerMessage(answer));
    },
    onError: (error) => setFailure(describeError(error, i18n)),
  });

  return (
    <Modal title={t('forgot.title')} onClose={onClose} size="small">
      {sent ? (
        <div className="ao-form">
          <FormAlert tone="success">{msg(sent)}</FormAlert>
          <button type="button" className="ao-button ao-button-primary ao-button-block" onClick={onBack}>
            {t('forgot.back')}
          </button>
        </div>
      ) : (
        <form className="ao-form" noValidate onSubmit={handleSubmit}>
          <p className="ao-intro">{t('forgot.intro')}</p>
          {failure && <FormAlert>{failure}</FormAlert>}
          <TextField
            label={t('forgot.email')}
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={(v) => setValue('email', v)}
            error={errors.email}
          />
          <button type="submit" className="ao-button ao-button-primary ao-button-block" disabled={isSubmitting}>
            {isSubmitting ? t('common.saving') : t('forgot.submit')}
          </button>
          <button type="button" className="ao-button ao-button-link" onClick={onBack}>
            {t('forgot.back')}
          </button>
        </form>
      )}
    </Modal>
  );
}
