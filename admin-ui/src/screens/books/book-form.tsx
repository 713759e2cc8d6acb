import type { Book, BookInput } from '@portfolio/contract/types';

import { booksApi } from '../../api/books';
import { BilingualHeader, bilingualProps, BilingualRow } from '../../components/bilingual';
import { CheckboxField, TextAreaField, TextField } from '../../components/field';
import { FormModal } from '../../components/form-modal';
import { PublishAtField } from '../../components/publish-at-field';
import { initialTextFormat, PlainTextNote, turnOnFormatting } from '../../components/text-format';
import { TextListField } from '../../components/text-list-field';
import { UploadField } from '../../components/upload-field';
import { useContentForm } from '../../hooks/use-content-form';
import type { FormErrors } from '../../hooks/use-form';
import { useI18n } from '../../i18n/i18n';
import { cleanList, type FormBody, type FormValues, optionalInt, optionalText, toInput } from '../../lib/form-values';
import { localDateTimeInput, publishAtBody, utcFromLocalInput } from '../../lib/local-time';
import { reviewEntries, type ReviewFields, reviewFields, reviewProblem } from '../../lib/reviews';
import { compact, filePathProblem, isBlank, linkProblem, wholeNumberProblem } from '../../lib/validation';
import type { FormProps } from '../content-screen';
import { ReviewsEditor } from './reviews-editor';

/** Specification, sections 3 and 9: a book's language is Arabic unless said otherwise. */
export const DEFAULT_BOOK_LANGUAGE = 'Arabic';

type BookValues = FormValues<BookInput, { reviews: ReviewFields[] }>;

function initialValues(book: Book | null): Omit<BookValues, 'bilingual'> {
  return {
    title: book?.title ?? '',
    description: book?.description ?? '',
    year: toInput(book?.year ?? new Date().getFullYear()),
    publisher: book?.publisher ?? '',
    isbn: toInput(book?.isbn),
    pages: toInput(book?.pages),
    genre: toInput(book?.genre),
    language: book?.language ?? DEFAULT_BOOK_LANGUAGE,
    awards: book?.awards ?? [],
    goodreadsUrl: toInput(book?.goodreadsUrl),
    purchaseUrl: toInput(book?.purchaseUrl),
    youtubeUrl: toInput(book?.youtubeUrl),
    googleDriveUrl: toInput(book?.googleDriveUrl),
    downloadCount: toInput(book?.downloadCount ?? 0),
    coverImage: toInput(book?.coverImage),
    documents: book?.documents ?? [],
    reviews: (book?.reviews ?? []).map(reviewFields),
    readingMaterials: book?.readingMaterials ?? [],
    published: book?.published ?? true,
    publishAt: localDateTimeInput(book?.publishAt),
    textFormat: initialTextFormat(book),
  };
}

export function validateBook(values: BookValues): FormErrors<BookValues> {
  return compact({
    title: isBlank(values.title) ? 'validation.titleRequired' : undefined,
    description: isBlank(values.description) ? 'validation.descriptionRequired' : undefined,
    year: isBlank(values.year) ? 'validation.yearRequired' : wholeNumberProblem(values.year, 'label.year'),
    publisher: isBlank(values.publisher) ? 'validation.publisherRequired' : undefined,
    pages: wholeNumberProblem(values.pages, 'label.pages'),
    downloadCount: wholeNumberProblem(values.downloadCount, 'label.downloadCount'),
    goodreadsUrl: linkProblem(values.goodreadsUrl),
    purchaseUrl: linkProblem(values.purchaseUrl),
    youtubeUrl: linkProblem(values.youtubeUrl),
    googleDriveUrl: linkProblem(values.googleDriveUrl),
    coverImage: filePathProblem(values.coverImage),
    publishAt: values.publishAt && !utcFromLocalInput(values.publishAt) ? 'validation.isoDate' : undefined,
    // Each card shows its own problem (ReviewsEditor); this one keeps the form from sending.
    reviews: values.reviews.map(reviewProblem).find(Boolean),
  });
}

function toInputBody(values: BookValues): Omit<FormBody<BookInput>, 'publishAt'> {
  return {
    title: values.title.trim(),
    description: values.description.trim(),
    year: Number(values.year),
    publisher: values.publisher.trim(),
    isbn: optionalText(values.isbn),
    pages: optionalInt(values.pages),
    genre: optionalText(values.genre),
    language: values.language.trim() || DEFAULT_BOOK_LANGUAGE,
    awards: cleanList(values.awards),
    goodreadsUrl: optionalText(values.goodreadsUrl),
    purchaseUrl: optionalText(values.purchaseUrl),
    youtubeUrl: optionalText(values.youtubeUrl),
    googleDriveUrl: optionalText(values.googleDriveUrl),
    downloadCount: optionalInt(values.downloadCount) ?? 0,
    coverImage: optionalText(values.coverImage),
    documents: cleanList(values.documents),
    reviews: reviewEntries(values.reviews),
    readingMaterials: cleanList(values.readingMaterials),
    published: values.published,
    textFormat: values.textFormat,
  };
}

export function BookForm({ item, onSaved, onClose }: FormProps<Book>) {
  const { t } = useI18n();
  const { values, errors, setValue, modal } = useContentForm({
    kind: 'books',
    item,
    api: booksApi,
    onSaved,
    initialValues: () => initialValues(item),
    validate: validateBook,
    toBody: (current) => ({ ...toInputBody(current), publishAt: publishAtBody(current.publishAt, item?.publishAt) }),
  });
  const bi = bilingualProps(values.bilingual, (v) => setValue('bilingual', v));

  return (
    <FormModal {...modal} onClose={onClose}>
      <BilingualHeader {...bi.header} />
      <BilingualRow {...bi.row('title')} label={t('fields.title')}>
        <TextField label={t('fields.title')} required value={values.title} onChange={(v) => setValue('title', v)} error={errors.title} />
      </BilingualRow>
      {values.textFormat === 'plain' && (
        <PlainTextNote onTurnOn={() => turnOnFormatting({ values, setValue }, 'description', 'blank-lines')} />
      )}
      <BilingualRow
        {...bi.row('description')}
        label={t('fields.description')}
        rows={5}
        format={values.textFormat === 'markdown' ? 'books' : undefined}
      >
        <TextAreaField
          format={values.textFormat === 'markdown' ? 'books' : undefined}
          label={t('fields.description')}
          required
          rows={5}
          value={values.description}
          onChange={(v) => setValue('description', v)}
          error={errors.description}
        />
      </BilingualRow>
      <BilingualRow {...bi.row('publisher')} label={t('fields.publisher')}>
        <TextField
          label={t('fields.publisher')}
          required
          value={values.publisher}
          onChange={(v) => setValue('publisher', v)}
          error={errors.publisher}
        />
      </BilingualRow>
      <BilingualRow {...bi.row('genre')} label={t('fields.genre')}>
        <TextField label={t('fields.genre')} value={values.genre} onChange={(v) => setValue('genre', v)} error={errors.genre} />
      </BilingualRow>
      <div className="ao-grid">
        <TextField
          label={t('fields.year')}
          required
          inputMode="numeric"
          value={values.year}
          onChange={(v) => setValue('year', v)}
          error={errors.year}
        />
        <TextField label={t('fields.isbn')} value={values.isbn} onChange={(v) => setValue('isbn', v)} error={errors.isbn} />
        <TextField
          label={t('fields.pages')}
          inputMode="numeric"
          value={values.pages}
          onChange={(v) => setValue('pages', v)}
          error={errors.pages}
        />
        <TextField label={t('fields.language')} value={values.language} onChange={(v) => setValue('language', v)} error={errors.language} />
      </div>
      <UploadField
        label={t('fields.coverImage')}
        contentType="books"
        value={values.coverImage}
        onChange={(v) => setValue('coverImage', v)}
        error={errors.coverImage}
      />
      <div className="ao-grid">
        <TextField
          label={t('fields.purchaseUrl')}
          type="url"
          value={values.purchaseUrl}
          onChange={(v) => setValue('purchaseUrl', v)}
          error={errors.purchaseUrl}
        />
        <TextField
          label={t('fields.goodreadsUrl')}
          type="url"
          value={values.goodreadsUrl}
          onChange={(v) => setValue('goodreadsUrl', v)}
          error={errors.goodreadsUrl}
        />
        <TextField
          label={t('fields.youtubeUrl')}
          type="url"
          value={values.youtubeUrl}
          onChange={(v) => setValue('youtubeUrl', v)}
          error={errors.youtubeUrl}
        />
        <TextField
          label={t('fields.googleDriveUrl')}
          type="url"
          value={values.googleDriveUrl}
          onChange={(v) => setValue('googleDriveUrl', v)}
          error={errors.googleDriveUrl}
        />
        <TextField
          label={t('fields.downloadCount')}
          inputMode="numeric"
          value={values.downloadCount}
          onChange={(v) => setValue('downloadCount', v)}
          error={errors.downloadCount}
        />
      </div>
      <TextListField
        label={t('fields.awards')}
        addLabel={t('list.addAward')}
        values={values.awards}
        onChange={(v) => setValue('awards', v)}
      />
      <TextListField
        label={t('fields.documents')}
        addLabel={t('list.addDocument')}
        values={values.documents}
        onChange={(v) => setValue('documents', v)}
        pdfUpload="books"
      />
      <TextListField
        label={t('fields.readingMaterials')}
        addLabel={t('list.addReadingMaterial')}
        values={values.readingMaterials}
        onChange={(v) => setValue('readingMaterials', v)}
        pdfUpload="books"
      />
      <ReviewsEditor reviews={values.reviews} onChange={(v) => setValue('reviews', v)} error={errors.reviews} />
      <CheckboxField label={t('fields.published')} checked={values.published} onChange={(v) => setValue('published', v)} />
      <PublishAtField
        value={values.publishAt}
        onChange={(v) => setValue('publishAt', v)}
        error={errors.publishAt}
        published={values.published}
      />
    </FormModal>
  );
}
