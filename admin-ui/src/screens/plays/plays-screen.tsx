import { playsApi } from '../../api/plays';
import { Badge } from '../../components/badge';
import { Thumbnail } from '../../components/thumbnail';
import { useI18n } from '../../i18n/i18n';
import { ContentScreen } from '../content-screen';
import { PlayForm } from './play-form';

const STATUS_TONE = { draft: 'neutral', published: 'success', performed: 'info' } as const;

export function PlaysScreen() {
  const { t } = useI18n();
  return (
    <ContentScreen
      kind="plays"
      confirmRemove={t('plays.confirmDelete')}
      load={playsApi.list}
      setDeleted={playsApi.setDeleted}
      remove={playsApi.remove}
      itemName={(play) => play.title}
      columns={[
        {
          header: t('fields.title'),
          primary: true,
          render: (play) => (
            <span className="ao-title-cell">
              <Thumbnail src={play.image} />
              <span>
                <span dir="auto">{play.title}</span>
                {play.arabicTitle && (
                  <span className="ao-secondary-text" dir="auto" lang="ar">
                    {play.arabicTitle}
                  </span>
                )}
              </span>
            </span>
          ),
        },
        { header: t('fields.type'), render: (play) => t(`plays.type.${play.type}`) },
        { header: t('fields.year'), render: (play) => play.year ?? '' },
        { header: t('fields.status'), render: (play) => <Badge tone={STATUS_TONE[play.status]}>{t(`plays.status.${play.status}`)}</Badge> },
      ]}
      renderForm={(props) => <PlayForm {...props} />}
    />
  );
}
