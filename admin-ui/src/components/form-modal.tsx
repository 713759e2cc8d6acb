import type { FormEvent, ReactNode } from 'react';
import { useI18n } from '../i18n/i18n';
import { Modal } from './modal';

interface FormModalProps {
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  isSubmitting: boolean;
  submitLabel: string;
  size?: 'small' | 'medium' | 'large';
  children: ReactNode;
}

/** A modal holding one form, with Cancel and the submit button at its foot. */
export function FormModal({ title, onClose, onSubmit, isSubmitting, submitLabel, size = 'large', children }: FormModalProps) {
  const { t } = useI18n();
  return (
    <Modal title={title} onClose={onClose} size={size}>
      <form className="ao-form" noValidate onSubmit={onSubmit} aria-busy={isSubmitting || undefined}>
        <div className="ao-form-fields">{children}</div>
        <div className="ao-form-footer">
          <button type="button" className="ao-button ao-button-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="ao-button ao-button-primary" disabled={isSubmitting}>
            {isSubmitting ? t('common.saving') : submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
