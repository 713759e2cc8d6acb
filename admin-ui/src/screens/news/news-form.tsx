import type { News, NewsCategory, NewsInput } from '@portfolio/contract/types';

import { newsApi } from '../../api/news';
import { BilingualHeader, bilingualProps, BilingualRow } from '../../components/bilingual';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/field';
import { FormModal } from '../../components/form-modal';
import { PublishAtField } from '../../components/publish-at-field';
import { initialTextFormat, PlainTextNote, turnOnFormatting } from '../../components/text-format';
import { UploadField } from '../../components/upload-field';
import { useContentForm } from '../../hooks/use-content-form';
import type { FormErrors } from '../../hooks/use-form';
import { useI18n } from '../../i18n/i18n';
import { dateInput, type FormBody, type FormValues, isoDate, optionalText, today, toInput } from '../../lib/form-values';
import { localDateTimeInput, publishAtBody, utcFromLocalInput } from '../../lib/local-time';
import { compact, filePathProblem, isBlank, linkProblem } from '../../lib/validation';
import type { FormProps } from '../content-screen';

export const NEWS_CATEGORIES: NewsCategory[] = ['exhibition', 'publication', 'award', 'other'];

type NewsValues = FormValues<NewsInput, { category: NewsCategory | '' }>;

function initialValues(news: News | null): Omit<NewsValues, 'bilingual'> {
  return {
    title: news?.title ?? '',
    excerpt: news?.excerpt ?? '',
    content: news?.content ?? '',
    category: news?.category ?? '',
    // Specification, section 4: a new item starts unpublished.
    published: news?.published ?? false,
    publishedDate: news ? dateInput(news.publishedDate) : today(),
    imageUrl: toInput(news?.imageUrl),
    newsUrl: toInput(news?.newsUrl),
    publishAt: localDateTimeInput(news?.publishAt),
    textFormat: initialTextFormat(news),
  };
}

export function validateNews(values: NewsValues): FormErrors<NewsValues> {
  return compact({
    title: isBlank(values.title) ? 'validation.required' : undefined,
    excerpt: isBlank(values.excerpt) ? 'validation.required' : undefined,
    content: isBlank(values.content) ? 'validation.required' : undefined,
    category: values.category ? undefined : 'validation.required',
    newsUrl: linkProblem(values.newsUrl),
    imageUrl: filePathProblem(values.imageUrl),
    publishAt: values.publishAt && !utcFromLocalInput(values.publishAt) ? 'validation.isoDate' : undefined,
  });
}

/** The date to send: a new item dated today is dated now (its default); an unchanged date keeps its time. */
function publishedDate(value: string, original: string | undefined): string {
  if (!original && (value === today() || !value)) return new Date().toISOString();
  return isoDate(value, original) ?? original ?? new Date().toISOString();
}

export function NewsForm({ item, onSaved, onClose }: FormProps<News>) {
  const { t } = useI18n();
  const { values, errors, setValue, modal } = useContentForm({
    kind: 'news',
    item,
    api: newsApi,
    onSaved,
    initialValues: () => initialValues(item),
    validate: validateNews,
    toBody: (current): FormBody<NewsInput> => ({
      title: current.title.trim(),
      excerpt: current.excerpt.trim(),
      content: current.content.trim(),
      category: current.category as NewsCategory,
      published: current.published,
      publishedDate: publishedDate(current.publishedDate, item?.publishedDate),
      imageUrl: optionalText(current.imageUrl),
      newsUrl: optionalText(current.newsUrl),
      publishAt: publishAtBody(current.publishAt, item?.publishAt),
      textFormat: current.textFormat,
    }),
  });
  const bi = bilingualProps(values.bilingual, (v) => setValue('bilingual', v));

  return (
    <FormModal {...modal} onClose={onClose}>
      <BilingualHeader {...bi.header} />
      <BilingualRow {...bi.row('title')} label={t('fields.title')}>
        <TextField label={t('fields.title')} required value={values.title} onChange={(v) => setValue('title', v)} error={errors.title} />
      </BilingualRow>
      <BilingualRow {...bi.row('excerpt')} label={t('fields.excerpt')} rows={2}>
        <TextAreaField
          label={t('fields.excerpt')}
          required
          rows={2}
          value={values.excerpt}
          onChange={(v) => setValue('excerpt', v)}
          error={errors.excerpt}
        />
      </BilingualRow>
      {values.textFormat === 'plain' && <PlainTextNote onTurnOn={() => turnOnFormatting({ values, setValue }, 'content', 'lines')} />}
      <BilingualRow
        {...bi.row('content')}
        label={t('fields.content')}
        rows={6}
        format={values.textFormat === 'markdown' ? 'news' : undefined}
      >
        <TextAreaField
          format={values.textFormat === 'markdown' ? 'news' : undefined}
          label={t('fields.content')}
          required
          rows={6}
          value={values.content}
          onChange={(v) => setValue('content', v)}
          error={errors.content}
        />
      </BilingualRow>
      <div className="ao-grid">
        <SelectField
          label={t('fields.category')}
          required
          placeholder={t('news.categoryPlaceholder')}
          value={values.category}
          onChange={(v) => setValue('category', v as NewsCategory)}
          options={NEWS_CATEGORIES.map((category) => ({ value: category, label: t(`news.category.${category}`) }))}
          error={errors.category}
        />
        <TextField
          label={t('fields.publishedDate')}
          type="date"
          value={values.publishedDate}
          onChange={(v) => setValue('publishedDate', v)}
          error={errors.publishedDate}
        />
      </div>
      <UploadField
        label={t('fields.image')}
        contentType="news"
        value={values.imageUrl}
        onChange={(v) => setValue('imageUrl', v)}
        error={errors.imageUrl}
        toasts={{
          success: { title: t('upload.imageSuccess'), description: null },
          failure: { title: t('upload.failed'), description: t('common.tryAgain') },
          network: { title: t('upload.error'), description: t('common.tryAgain') },
        }}
      />
      <TextField
        label={t('fields.newsUrl')}
        type="url"
        value={values.newsUrl}
        onChange={(v) => setValue('newsUrl', v)}
        error={errors.newsUrl}
      />
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
