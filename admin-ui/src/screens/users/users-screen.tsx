import type { AdminUser, AdminUserListItem } from '@portfolio/contract/types';
import { useState } from 'react';
import { twoFactorApi } from '../../api/two-factor';
import { usersApi } from '../../api/users';
import { Badge } from '../../components/badge';
import { DataTable } from '../../components/data-table';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useList } from '../../hooks/use-list';
import { useSession } from '../../hooks/use-session';
import { useToast } from '../../hooks/use-toast';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';
import { UserForm } from './user-form';
import { HiddenText } from '../../components/hidden-text';

// The API leaves the superadmin out already; the screen hides it too, as the specification asks.
const listUsers = async () => (await usersApi.list()).filter((user) => !user.isSuperadmin);

export function UsersScreen() {
  const { t, lang } = useI18n();
  const { toast } = useToast();
  const { user: me } = useSession();
  const handleError = useErrorHandler();
  const { items, isLoading, reload } = useList(listUsers, (error) => handleError(error, { title: t('users.loadFailed') }));
  const [adding, setAdding] = useState(false);
  const [busyId, setBusyId] = useState<number | null>(null);

  const resetTwoFactor = async (user: AdminUserListItem) => {
    if (!window.confirm(t('users.resetTwoFactorConfirm', { name: user.name }))) return;
    setBusyId(user.id);
    try {
      await twoFactorApi.resetFor(user.id);
      toast({ title: t('users.twoFactorReset', { name: user.name }) });
      await reload();
    } catch (error) {
      handleError(error, { title: t('users.twoFactorResetFailed') });
    } finally {
      setBusyId(null);
    }
  };

  const toggle = async (user: AdminUser) => {
    setBusyId(user.id);
    try {
      await usersApi.setActive(user.id, !user.isActive);
      toast({ title: t('users.statusUpdated') });
      await reload();
    } catch (error) {
      handleError(error, { title: t('users.statusFailed') });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <section className="ao-screen" aria-labelledby="ao-screen-heading">
      <div className="ao-screen-header">
        <h3 id="ao-screen-heading" className="ao-screen-title">
          {t('users.heading')}
        </h3>
        <div className="ao-screen-tools">
          <button type="button" className="ao-button ao-button-primary" onClick={() => setAdding(true)}>
            <span aria-hidden="true">+ </span>
            {t('users.add')}
          </button>
        </div>
      </div>
      <DataTable
        caption={t('users.heading')}
        items={items}
        isLoading={isLoading}
        emptyText={t('users.empty')}
        rowClassName={(user) => (user.isActive ? undefined : 'ao-row-deleted')}
        columns={[
          {
            header: t('fields.name'),
            primary: true,
            render: (user) => (
              <span>
                <span dir="auto">{user.name}</span>
                {user.id === me?.id && <Badge tone="info">{t('users.you')}</Badge>}
              </span>
            ),
          },
          { header: t('fields.username'), render: (user) => <span dir="auto">{user.username}</span> },
          { header: t('fields.email'), render: (user) => <span dir="ltr">{user.email}</span> },
          {
            header: t('common.status'),
            render: (user) => (user.isActive ? <Badge tone="success">{t('users.active')}</Badge> : <Badge tone="danger">{t('users.inactive')}</Badge>),
          },
          {
            header: t('users.twoFactor'),
            render: (user) => (user.twoFactorEnabled ? <Badge tone="success">{t('users.twoFactorOn')}</Badge> : <Badge>{t('users.twoFactorOff')}</Badge>),
          },
          { header: t('fields.createdAt'), render: (user) => formatDate(user.createdAt, lang) },
        ]}
        actions={(user) =>
          user.id === me?.id ? null : (
            <div className="ao-row-actions">
              {user.twoFactorEnabled && (
                <button type="button" className="ao-button ao-button-small ao-button-secondary" disabled={busyId === user.id} onClick={() => void resetTwoFactor(user)}>
                  {t('users.resetTwoFactor')}
                  <HiddenText>{user.username}</HiddenText>
                </button>
              )}
              <button
                type="button"
                className={`ao-button ao-button-small ${user.isActive ? 'ao-button-danger' : 'ao-button-secondary'}`}
                disabled={busyId === user.id}
                onClick={() => void toggle(user)}
              >
                {t(user.isActive ? 'users.deactivate' : 'users.activate')}
                <HiddenText>{user.username}</HiddenText>
              </button>
            </div>
          )
        }
      />
      {adding && (
        <UserForm
          onClose={() => setAdding(false)}
          onSaved={() => {
            setAdding(false);
            void reload();
          }}
        />
      )}
    </section>
  );
}
