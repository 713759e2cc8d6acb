import { PASSWORD_MIN_LENGTH } from '@portfolio/contract/rules';

import { type NewAdminUser, usersApi } from '../../api/users';
import { PasswordField, TextField } from '../../components/field';
import { FormModal } from '../../components/form-modal';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { type FormErrors, useForm } from '../../hooks/use-form';
import { useToast } from '../../hooks/use-toast';
import { useI18n } from '../../i18n/i18n';
import { compact, isBlank, isEmail } from '../../lib/validation';

export function validateNewUser(values: NewAdminUser): FormErrors<NewAdminUser> {
  return compact({
    username: isBlank(values.username) ? 'validation.usernameRequired' : undefined,
    email: isBlank(values.email) ? 'validation.emailRequired' : !isEmail(values.email) ? 'validation.emailInvalid' : undefined,
    name: isBlank(values.name) ? 'validation.nameRequired' : undefined,
    password: values.password.length < PASSWORD_MIN_LENGTH ? 'validation.passwordMin' : undefined,
  });
}

export function UserForm({ onSaved, onClose }: { onSaved: () => void; onClose: () => void }) {
  const { t } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const { values, errors, setValue, isSubmitting, handleSubmit } = useForm<NewAdminUser>({
    initialValues: { username: '', email: '', name: '', password: '' },
    validate: validateNewUser,
    onSubmit: async (current) => {
      await usersApi.create({
        username: current.username.trim(),
        email: current.email.trim(),
        name: current.name.trim(),
        password: current.password,
      });
      toast({ title: t('users.added') });
      onSaved();
    },
    onError: (error) => handleError(error, { title: t('users.addFailed') }),
  });

  return (
    <FormModal
      title={t('users.addTitle')}
      onClose={onClose}
      onSubmit={handleSubmit}
      isSubmitting={isSubmitting}
      submitLabel={t('users.add')}
      size="small"
    >
      <TextField
        label={t('fields.username')}
        required
        autoComplete="off"
        value={values.username}
        onChange={(v) => setValue('username', v)}
        error={errors.username}
      />
      <TextField
        label={t('fields.email')}
        required
        type="email"
        autoComplete="off"
        value={values.email}
        onChange={(v) => setValue('email', v)}
        error={errors.email}
      />
      <TextField label={t('fields.name')} required value={values.name} onChange={(v) => setValue('name', v)} error={errors.name} />
      <PasswordField
        label={t('fields.password')}
        required
        autoComplete="new-password"
        value={values.password}
        onChange={(v) => setValue('password', v)}
        error={errors.password}
      />
    </FormModal>
  );
}
