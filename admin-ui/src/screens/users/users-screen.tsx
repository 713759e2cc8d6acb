import type { AdminUserListItem } from '@portfolio/contract/types';
import { useState } from 'react';

import { twoFactorApi } from '../../api/two-factor';
import { usersApi } from '../../api/users';
import { Badge } from '../../components/badge';
import { type Column, DataTable } from '../../components/data-table';
import { HiddenText } from '../../components/hidden-text';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useList } from '../../hooks/use-list';
import { useRowAction } from '../../hooks/use-row-action';
import { useSession } from '../../hooks/use-session';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';
import { UserForm } from './user-form';

// The API leaves the superadmin out already; the screen hides it too, as the specification asks.
const listUsers = async () => (await usersApi.list()).filter((user) => !user.isSuperadmin);

/** Name (and 'You'), username, e-mail, active or not, two-factor sign-in, created. */
function useUserColumns(): Column<AdminUserListItem>[] {
  const { t, lang } = useI18n();
  const { user: me } = useSession();
  return [
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
      render: (user) =>
        user.isActive ? <Badge tone="success">{t('users.active')}</Badge> : <Badge tone="danger">{t('users.inactive')}</Badge>,
    },
    {
      header: t('users.twoFactor'),
      render: (user) =>
        user.twoFactorEnabled ? <Badge tone="success">{t('users.twoFactorOn')}</Badge> : <Badge>{t('users.twoFactorOff')}</Badge>,
    },
    { header: t('fields.createdAt'), render: (user) => formatDate(user.createdAt, lang) },
  ];
}

interface UserActionsProps {
  user: AdminUserListItem;
  busy: boolean;
  onResetTwoFactor: () => void;
  onToggle: () => void;
}

/** Another admin's row: reset their two-factor sign-in (when on), deactivate or activate. */
function UserActions({ user, busy, onResetTwoFactor, onToggle }: UserActionsProps) {
  const { t } = useI18n();
  return (
    <div className="ao-row-actions">
      {user.twoFactorEnabled && (
        <button type="button" className="ao-button ao-button-small ao-button-secondary" disabled={busy} onClick={onResetTwoFactor}>
          {t('users.resetTwoFactor')}
          <HiddenText>{user.username}</HiddenText>
        </button>
      )}
      <button
        type="button"
        className={`ao-button ao-button-small ${user.isActive ? 'ao-button-danger' : 'ao-button-secondary'}`}
        disabled={busy}
        onClick={onToggle}
      >
        {t(user.isActive ? 'users.deactivate' : 'users.activate')}
        <HiddenText>{user.username}</HiddenText>
      </button>
    </div>
  );
}

export function UsersScreen() {
  const { t } = useI18n();
  const { user: me } = useSession();
  const handleError = useErrorHandler();
  const { items, isLoading, reload } = useList(listUsers, (error) => handleError(error, { title: t('users.loadFailed') }));
  const columns = useUserColumns();
  const [adding, setAdding] = useState(false);
  const { busyId, run } = useRowAction(reload);

  const resetTwoFactor = (user: AdminUserListItem) => {
    if (!window.confirm(t('users.resetTwoFactorConfirm', { name: user.name }))) return;
    const { id, name } = user;
    void run(id, () => twoFactorApi.resetFor(id), t('users.twoFactorReset', { name }), t('users.twoFactorResetFailed'));
  };
  const toggle = (user: AdminUserListItem) =>
    void run(user.id, () => usersApi.setActive(user.id, !user.isActive), t('users.statusUpdated'), t('users.statusFailed'));

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
        columns={columns}
        actions={(user) =>
          user.id === me?.id ? null : (
            <UserActions
              user={user}
              busy={busyId === user.id}
              onResetTwoFactor={() => resetTwoFactor(user)}
              onToggle={() => toggle(user)}
            />
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
