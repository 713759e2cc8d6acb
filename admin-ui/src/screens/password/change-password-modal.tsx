import { authApi } from '../../api/auth';
import { PasswordField } from '../../components/field';
import { FormModal } from '../../components/form-modal';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useForm } from '../../hooks/use-form';
import { useToast } from '../../hooks/use-toast';
import { useI18n } from '../../i18n/i18n';
import { answerMessage } from '../../i18n/message';
import { validateChangePassword } from './password-rules';

/** The signed-in admin's own password. The API ends the admin's other sessions. */
export function ChangePasswordModal({ onClose }: { onClose: () => void }) {
  const { t, msg } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const { values, errors, setValue, isSubmitting, handleSubmit } = useForm({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: validateChangePassword,
    onSubmit: async (current) => {
      const answer = await authApi.changePassword(current);
      toast({ title: msg(answerMessage(answer)) });
      onClose();
    },
    onError: (error) => handleError(error, { title: t('password.failed') }),
  });

  return (
    <FormModal
      title={t('password.title')}
      onClose={onClose}
      onSubmit={handleSubmit}
      isSubmitting={isSubmitting}
      submitLabel={t('password.title')}
      size="small"
    >
      <PasswordField
        label={t('password.current')}
        autoComplete="current-password"
        value={values.currentPassword}
        onChange={(v) => setValue('currentPassword', v)}
        error={errors.currentPassword}
      />
      <PasswordField
        label={t('password.new')}
        autoComplete="new-password"
        value={values.newPassword}
        onChange={(v) => setValue('newPassword', v)}
        error={errors.newPassword}
      />
      <PasswordField
        label={t('password.confirm')}
        autoComplete="new-password"
        value={values.confirmPassword}
        onChange={(v) => setValue('confirmPassword', v)}
        error={errors.confirmPassword}
      />
    </FormModal>
  );
}
