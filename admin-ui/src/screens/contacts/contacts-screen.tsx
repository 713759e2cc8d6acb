import type { Contact } from '@portfolio/contract/types';
import { useCallback, useState } from 'react';

import { contactsApi } from '../../api/contacts';
import { Badge } from '../../components/badge';
import { type Column, DataTable } from '../../components/data-table';
import { CheckboxField } from '../../components/field';
import { HiddenText } from '../../components/hidden-text';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useList } from '../../hooks/use-list';
import { useRowAction } from '../../hooks/use-row-action';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';
import { ContactModal } from './contact-modal';

/** Name and e-mail, subject, received, read or not. */
function useContactColumns(): Column<Contact>[] {
  const { t, lang } = useI18n();
  return [
    {
      header: t('fields.name'),
      primary: true,
      render: (contact) => (
        <span>
          <span dir="auto">{contact.name}</span>
          <span className="ao-secondary-text" dir="ltr">
            {contact.email}
          </span>
        </span>
      ),
    },
    { header: t('fields.subject'), render: (contact) => <span dir="auto">{contact.subject}</span> },
    { header: t('fields.received'), render: (contact) => formatDate(contact.createdAt, lang) },
    {
      header: t('common.status'),
      render: (contact) => (contact.read ? <Badge>{t('contacts.read')}</Badge> : <Badge tone="warning">{t('contacts.unread')}</Badge>),
    },
  ];
}

interface ContactActionsProps {
  contact: Contact;
  busy: boolean;
  onView: () => void;
  onMarkRead: () => void;
  onDelete: () => void;
}

/** A message's row: View; Mark as read and Delete while it is not in the trash. */
function ContactActions({ contact, busy, onView, onMarkRead, onDelete }: ContactActionsProps) {
  const { t } = useI18n();
  const name = <HiddenText>{contact.subject}</HiddenText>;
  return (
    <div className="ao-row-actions">
      <button type="button" className="ao-button ao-button-secondary ao-button-small" onClick={onView}>
        {t('contacts.view')}
        {name}
      </button>
      {!contact.read && !contact.isDeleted && (
        <button type="button" className="ao-button ao-button-secondary ao-button-small" disabled={busy} onClick={onMarkRead}>
          {t('contacts.markRead')}
          {name}
        </button>
      )}
      {!contact.isDeleted && (
        <button type="button" className="ao-button ao-button-danger ao-button-small" disabled={busy} onClick={onDelete}>
          {t('common.delete')}
          {name}
        </button>
      )}
    </div>
  );
}

export function ContactsScreen() {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  const [showDeleted, setShowDeleted] = useState(false);
  const load = useCallback(() => contactsApi.list(showDeleted), [showDeleted]);
  const { items: all, isLoading, reload } = useList(load, (error) => handleError(error, { title: t('contacts.loadFailed') }));
  const items = all.filter((contact) => contact.isDeleted === showDeleted);
  const columns = useContactColumns();
  const [openId, setOpenId] = useState<number | null>(null);
  const open = items.find((contact) => contact.id === openId) ?? null;
  const { busyId, run } = useRowAction(reload);

  const markRead = ({ id }: Contact) =>
    void run(id, () => contactsApi.markRead(id), t('contacts.markedRead'), t('contacts.markReadFailed'));
  // A deleted message's dialog closes.
  const remove = ({ id }: Contact) =>
    void run(id, () => contactsApi.remove(id).then(() => setOpenId(null)), t('contacts.deleted'), t('contacts.deleteFailed'));

  return (
    <section className="ao-screen" aria-labelledby="ao-screen-heading">
      <div className="ao-screen-header">
        <h3 id="ao-screen-heading" className="ao-screen-title">
          {t('contacts.heading')}
        </h3>
        <div className="ao-screen-tools">
          <CheckboxField asSwitch label={t('common.showDeleted')} checked={showDeleted} onChange={setShowDeleted} />
        </div>
      </div>
      <DataTable
        caption={t('contacts.heading')}
        items={items}
        isLoading={isLoading}
        emptyText={showDeleted ? t('contacts.emptyDeleted') : t('contacts.empty')}
        rowClassName={(contact) => (contact.read ? undefined : 'ao-row-unread')}
        columns={columns}
        actions={(contact) => (
          <ContactActions
            contact={contact}
            busy={busyId === contact.id}
            onView={() => setOpenId(contact.id)}
            onMarkRead={() => markRead(contact)}
            onDelete={() => remove(contact)}
          />
        )}
      />
      {open && (
        <ContactModal
          contact={open}
          busy={busyId === open.id}
          onMarkRead={() => markRead(open)}
          onDelete={() => remove(open)}
          onClose={() => setOpenId(null)}
        />
      )}
    </section>
  );
}
