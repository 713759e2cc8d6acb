import type { Contact } from '@portfolio/contract/types';
import { useCallback, useState } from 'react';
import { contactsApi } from '../../api/contacts';
import { Badge } from '../../components/badge';
import { DataTable } from '../../components/data-table';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useList } from '../../hooks/use-list';
import { useToast } from '../../hooks/use-toast';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';
import { ContactModal } from './contact-modal';
import { HiddenText } from '../../components/hidden-text';
import { CheckboxField } from '../../components/field';

export function ContactsScreen() {
  const { t, lang } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const [showDeleted, setShowDeleted] = useState(false);
  const load = useCallback(() => contactsApi.list(showDeleted), [showDeleted]);
  const { items: all, isLoading, reload } = useList(load, (error) => handleError(error, { title: t('contacts.loadFailed') }));
  const items = all.filter((contact) => contact.isDeleted === showDeleted);
  const [openId, setOpenId] = useState<number | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const open = items.find((contact) => contact.id === openId) ?? null;

  const run = async (contact: Contact, work: () => Promise<unknown>, success: string, failure: string, after?: () => void) => {
    setBusyId(contact.id);
    try {
      await work();
      toast({ title: success });
      after?.();
      await reload();
    } catch (error) {
      handleError(error, { title: failure });
    } finally {
      setBusyId(null);
    }
  };
  const markRead = (contact: Contact) => run(contact, () => contactsApi.markRead(contact.id), t('contacts.markedRead'), t('contacts.markReadFailed'));
  const remove = (contact: Contact) =>
    run(contact, () => contactsApi.remove(contact.id), t('contacts.deleted'), t('contacts.deleteFailed'), () => setOpenId(null));

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
        columns={[
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
        ]}
        actions={(contact) => {
          const name = <HiddenText>{contact.subject}</HiddenText>;
          const busy = busyId === contact.id;
          return (
            <div className="ao-row-actions">
              <button type="button" className="ao-button ao-button-secondary ao-button-small" onClick={() => setOpenId(contact.id)}>
                {t('contacts.view')}
                {name}
              </button>
              {!contact.read && !contact.isDeleted && (
                <button type="button" className="ao-button ao-button-secondary ao-button-small" disabled={busy} onClick={() => void markRead(contact)}>
                  {t('contacts.markRead')}
                  {name}
                </button>
              )}
              {!contact.isDeleted && (
                <button type="button" className="ao-button ao-button-danger ao-button-small" disabled={busy} onClick={() => void remove(contact)}>
                  {t('common.delete')}
                  {name}
                </button>
              )}
            </div>
          );
        }}
      />
      {open && (
        <ContactModal
          contact={open}
          busy={busyId === open.id}
          onMarkRead={() => void markRead(open)}
          onDelete={() => void remove(open)}
          onClose={() => setOpenId(null)}
        />
      )}
    </section>
  );
}
