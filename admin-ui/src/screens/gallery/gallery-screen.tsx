import { artworksApi } from '../../api/artworks';
import { Badge } from '../../components/badge';
import { Thumbnail } from '../../components/thumbnail';
import { useI18n } from '../../i18n/i18n';
import { ContentScreen } from '../content-screen';
import { ArtworkForm } from './artwork-form';

export function GalleryScreen() {
  const { t } = useI18n();
  return (
    <ContentScreen
      kind="artworks"
      load={artworksApi.list}
      setDeleted={artworksApi.setDeleted}
      itemName={(artwork) => artwork.title}
      columns={[
        {
          header: t('fields.title'),
          primary: true,
          render: (artwork) => (
            <span className="ao-title-cell">
              <Thumbnail src={artwork.image} />
              <span dir="auto">{artwork.title}</span>
            </span>
          ),
        },
        { header: t('fields.medium'), render: (artwork) => <span dir="auto">{artwork.medium}</span> },
        { header: t('fields.year'), render: (artwork) => artwork.year },
        { header: t('fields.featured'), render: (artwork) => artwork.featured && <Badge tone="info">{t('common.featured')}</Badge> },
      ]}
      renderForm={(props) => <ArtworkForm {...props} />}
    />
  );
}
