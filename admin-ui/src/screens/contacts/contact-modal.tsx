import type { Contact } from '@portfolio/contract/types';

import { Modal } from '../../components/modal';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';

interface ContactModalProps {
  contact: Contact;
  busy: boolean;
  onMarkRead: () => void;
  onDelete: () => void;
  onClose: () => void;
}

/** One message, to read in full. */
export function ContactModal({ contact, busy, onMarkRead, onDelete, onClose }: ContactModalProps) {
  const { t, lang } = useI18n();
  return (
    <Modal title={<span dir="auto">{contact.subject}</span>} onClose={onClose} size="medium">
      <dl className="ao-details">
        <div>
          <dt>{t('fields.name')}</dt>
          <dd dir="auto">{contact.name}</dd>
        </div>
        <div>
          <dt>{t('fields.email')}</dt>
          <dd>
            <a className="ao-link" href={`mailto:${contact.email}`} dir="ltr">
              {contact.email}
            </a>
          </dd>
        </div>
        <div>
          <dt>{t('fields.received')}</dt>
          <dd>{formatDate(contact.createdAt, lang)}</dd>
        </div>
      </dl>
      <p className="ao-message" dir="auto">
        {contact.message}
      </p>
      <div className="ao-form-footer">
        <a
          className="ao-button ao-button-secondary"
          href={`mailto:${contact.email}?subject=${encodeURIComponent(`Re: ${contact.subject}`)}`}
        >
          {t('contacts.reply')}
        </a>
        {!contact.read && (
          <button type="button" className="ao-button ao-button-secondary" disabled={busy} onClick={onMarkRead}>
            {t('contacts.markRead')}
          </button>
        )}
        <button type="button" className="ao-button ao-button-danger" disabled={busy} onClick={onDelete}>
          {t('common.delete')}
        </button>
      </div>
    </Modal>
  );
}
