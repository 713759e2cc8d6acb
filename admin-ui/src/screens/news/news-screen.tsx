import { newsApi } from '../../api/news';
import { Badge } from '../../components/badge';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';
import { ContentScreen } from '../content-screen';
import { NewsForm } from './news-form';

export function NewsScreen() {
  const { t, lang } = useI18n();
  return (
    <ContentScreen
      kind="news"
      load={newsApi.list}
      setDeleted={newsApi.setDeleted}
      itemName={(news) => news.title}
      columns={[
        { header: t('fields.title'), primary: true, render: (news) => <span dir="auto">{news.title}</span> },
        {
          header: t('fields.category'),
          render: (news) => <span className={`ao-badge ao-category-${news.category}`}>{t(`news.category.${news.category}`)}</span>,
        },
        { header: t('fields.publishedDate'), render: (news) => formatDate(news.publishedDate, lang) },
        {
          header: t('common.status'),
          render: (news) => (news.published ? <Badge tone="success">{t('common.published')}</Badge> : <Badge>{t('common.draft')}</Badge>),
        },
      ]}
      renderForm={(props) => <NewsForm {...props} />}
    />
  );
}
