import { type ContentKind, type ContentTab, KINDS, SITE_ORDER } from '@portfolio/contract/kinds';
import { type ComponentType, useState } from 'react';

import { Modal } from '../../components/modal';
import { tabPanelProps, Tabs } from '../../components/tabs';
import { NewsletterOffersProvider } from '../../hooks/use-newsletter-offers';
import { useSession } from '../../hooks/use-session';
import { useI18n } from '../../i18n/i18n';
import { BooksScreen } from '../books/books-screen';
import { ContactsScreen } from '../contacts/contacts-screen';
import { EssaysScreen } from '../essays/essays-screen';
import { GalleryScreen } from '../gallery/gallery-screen';
import { ImportScreen } from '../import/import-screen';
import { NewsScreen } from '../news/news-screen';
import { NewsletterOffers } from '../newsletter/newsletter-offers';
import { ChangePasswordModal } from '../password/change-password-modal';
import { PlaysScreen } from '../plays/plays-screen';
import { SettingsScreen } from '../settings/settings-screen';
import { SubscribersScreen } from '../subscribers/subscribers-screen';
import { TwoFactorModal } from '../two-factor/two-factor-modal';
import { UsersScreen } from '../users/users-screen';
import { BackupStatus } from './backup-status';
import { PublishingStatus } from './publishing-status';
import { ScheduledList } from './scheduled-list';
import { SiteExportButton } from './site-export-button';

/** Each kind's screen: a kind without one fails to compile. */
const CONTENT_SCREENS: Record<ContentKind, ComponentType> = {
  books: BooksScreen,
  essays: EssaysScreen,
  artworks: GalleryScreen,
  plays: PlaysScreen,
  news: NewsScreen,
};
type Section = ContentTab | 'contacts' | 'subscribers' | 'users' | 'settings' | 'import';
// The content tabs in the site's order (its navigation), then the admin's own.
const SECTIONS = Object.fromEntries([
  ...SITE_ORDER.map((kind) => [KINDS[kind].tab, CONTENT_SCREENS[kind]] as const),
  ['contacts', ContactsScreen],
  ['subscribers', SubscribersScreen],
  ['users', UsersScreen],
  ['settings', SettingsScreen],
  ['import', ImportScreen],
]) as Record<Section, ComponentType>;
const SECTION_IDS = 'ao-sections';

/** 'Content Management': the signed-in admin's workspace. */
export function ContentManagement({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const { user, logout } = useSession();
  const [section, setSection] = useState<Section>(KINDS[SITE_ORDER[0]].tab);
  const [changingPassword, setChangingPassword] = useState(false);
  const [twoFactorOpen, setTwoFactorOpen] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const Screen = SECTIONS[section];

  return (
    <NewsletterOffersProvider>
      <Modal title={t('dashboard.title')} onClose={onClose} size="full">
        <div className="ao-dashboard-bar">
          <p className="ao-welcome" dir="auto">
            {t('dashboard.welcome', { name: user?.name ?? '' })}
          </p>
          <PublishingStatus />
          <BackupStatus />
          <ScheduledList />
          <div className="ao-dashboard-actions">
            <SiteExportButton />
            <button type="button" className="ao-button ao-button-ghost ao-button-small" onClick={() => setChangingPassword(true)}>
              {t('dashboard.changePassword')}
            </button>
            <button type="button" className="ao-button ao-button-ghost ao-button-small" onClick={() => setTwoFactorOpen(true)}>
              {t('twoFactor.open')}
            </button>
            <button
              type="button"
              className="ao-button ao-button-secondary ao-button-small"
              disabled={loggingOut}
              onClick={() => {
                setLoggingOut(true);
                void logout();
              }}
            >
              {t('dashboard.logout')}
            </button>
          </div>
        </div>
        <NewsletterOffers />
        <Tabs
          idPrefix={SECTION_IDS}
          label={t('dashboard.sections')}
          className="ao-section-tabs"
          autoFocus
          items={(Object.keys(SECTIONS) as Section[]).map((value) => ({ value, label: t(`tabs.${value}`) }))}
          value={section}
          onChange={setSection}
        />
        <div {...tabPanelProps(SECTION_IDS, section)} className="ao-section-panel">
          <Screen key={section} />
        </div>
        {changingPassword && <ChangePasswordModal onClose={() => setChangingPassword(false)} />}
        {twoFactorOpen && <TwoFactorModal onClose={() => setTwoFactorOpen(false)} />}
      </Modal>
    </NewsletterOffersProvider>
  );
}
