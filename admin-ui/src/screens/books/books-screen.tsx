import { booksApi } from '../../api/books';
import { Badge } from '../../components/badge';
import { Thumbnail } from '../../components/thumbnail';
import { useI18n } from '../../i18n/i18n';
import { ContentScreen } from '../content-screen';
import { BookForm } from './book-form';

export function BooksScreen() {
  const { t } = useI18n();
  return (
    <ContentScreen
      kind="books"
      load={booksApi.list}
      setDeleted={booksApi.setDeleted}
      itemName={(book) => book.title}
      columns={[
        {
          header: t('fields.title'),
          primary: true,
          render: (book) => (
            <span className="ao-title-cell">
              <Thumbnail src={book.coverImage} />
              <span dir="auto">{book.title}</span>
            </span>
          ),
        },
        { header: t('fields.year'), render: (book) => book.year },
        { header: t('fields.publisher'), render: (book) => <span dir="auto">{book.publisher}</span> },
        {
          header: t('common.status'),
          render: (book) =>
            book.isDeleted ? (
              <Badge tone="danger">{t('common.deleted')}</Badge>
            ) : book.published ? (
              <Badge tone="success">{t('common.published')}</Badge>
            ) : (
              <Badge>{t('common.draft')}</Badge>
            ),
        },
      ]}
      renderForm={(props) => <BookForm {...props} />}
    />
  );
}
