import type { FormEvent, ReactNode } from 'react';

import type { PreviewControl } from '../hooks/use-content-form';
import { useI18n } from '../i18n/i18n';
import { PreviewModal } from '../screens/preview/preview-modal';
import { FormPreviewContext } from './format-bar';
import { Modal } from './modal';

interface FormModalProps {
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  isSubmitting: boolean;
  submitLabel: string;
  size?: 'small' | 'medium' | 'large';
  children: ReactNode;
  /** A Preview button beside the submit button (content forms). */
  preview?: PreviewControl;
}

/** A modal holding one form, with Cancel and the submit button at its foot. */
export function FormModal({ title, onClose, onSubmit, isSubmitting, submitLabel, size = 'large', children, preview }: FormModalProps) {
  const { t } = useI18n();
  return (
    <Modal title={title} onClose={onClose} size={size}>
      <form className="ao-form" noValidate onSubmit={onSubmit} aria-busy={isSubmitting || undefined}>
        <div className="ao-form-fields">
          <FormPreviewContext.Provider value={preview}>{children}</FormPreviewContext.Provider>
        </div>
        <div className="ao-form-footer">
          <button type="button" className="ao-button ao-button-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          {preview && (
            <button
              type="button"
              className="ao-button ao-button-secondary"
              onClick={preview.run}
              disabled={preview.busy}
              aria-busy={preview.busy || undefined}
            >
              {preview.busy ? t('preview.rendering') : t('preview.button')}
            </button>
          )}
          <button type="submit" className="ao-button ao-button-primary" disabled={isSubmitting}>
            {isSubmitting ? t('common.saving') : submitLabel}
          </button>
        </div>
      </form>
      {preview?.result && <PreviewModal preview={preview.result} onClose={preview.close} />}
    </Modal>
  );
}
