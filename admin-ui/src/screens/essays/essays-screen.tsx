import { essaysApi } from '../../api/essays';
import { Badge } from '../../components/badge';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';
import { ContentScreen } from '../content-screen';
import { EssayForm } from './essay-form';

export function EssaysScreen() {
  const { t, lang } = useI18n();
  return (
    <ContentScreen
      kind="essays"
      load={essaysApi.list}
      setDeleted={essaysApi.setDeleted}
      itemName={(essay) => essay.title}
      columns={[
        { header: t('fields.title'), primary: true, render: (essay) => <span dir="auto">{essay.title}</span> },
        { header: t('fields.category'), render: (essay) => <span dir="auto">{essay.category}</span> },
        { header: t('fields.publishedDate'), render: (essay) => formatDate(essay.publishedDate, lang) },
        {
          header: t('common.status'),
          render: (essay) => (
            <span className="ao-badges">
              {essay.published ? <Badge tone="success">{t('common.published')}</Badge> : <Badge>{t('common.draft')}</Badge>}
              {essay.featured && <Badge tone="info">{t('common.featured')}</Badge>}
            </span>
          ),
        },
      ]}
      renderForm={(props) => <EssayForm {...props} />}
    />
  );
}
