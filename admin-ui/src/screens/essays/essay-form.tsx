import type { Essay, EssayInput } from '@portfolio/contract/types';

import { essaysApi } from '../../api/essays';
import { BilingualHeader, bilingualProps, BilingualRow } from '../../components/bilingual';
import { CheckboxField, TextAreaField, TextField } from '../../components/field';
import { FormModal } from '../../components/form-modal';
import { PublishAtField } from '../../components/publish-at-field';
import { initialTextFormat, PlainTextNote, turnOnFormatting } from '../../components/text-format';
import { UploadField } from '../../components/upload-field';
import { useContentForm } from '../../hooks/use-content-form';
import type { FormErrors } from '../../hooks/use-form';
import { useI18n } from '../../i18n/i18n';
import { dateInput, type FormBody, type FormValues, isoDate, optionalText, toInput } from '../../lib/form-values';
import { localDateTimeInput, publishAtBody, utcFromLocalInput } from '../../lib/local-time';
import { compact, filePathProblem, isBlank, linkProblem } from '../../lib/validation';
import type { FormProps } from '../content-screen';

type EssayValues = FormValues<EssayInput>;

function initialValues(essay: Essay | null): Omit<EssayValues, 'bilingual'> {
  return {
    title: essay?.title ?? '',
    excerpt: essay?.excerpt ?? '',
    content: essay?.content ?? '',
    publication: toInput(essay?.publication),
    publicationLogoUrl: toInput(essay?.publicationLogoUrl),
    publishedDate: dateInput(essay?.publishedDate),
    essayUrl: toInput(essay?.essayUrl),
    imageUrl: toInput(essay?.imageUrl),
    category: toInput(essay?.category),
    featured: essay?.featured ?? false,
    published: essay?.published ?? true,
    publishAt: localDateTimeInput(essay?.publishAt),
    textFormat: initialTextFormat(essay),
  };
}

export function validateEssay(values: EssayValues): FormErrors<EssayValues> {
  return compact({
    title: isBlank(values.title) ? 'validation.titleRequired' : undefined,
    excerpt: isBlank(values.excerpt) ? 'validation.excerptRequired' : undefined,
    content: isBlank(values.content) ? 'validation.contentRequired' : undefined,
    essayUrl: linkProblem(values.essayUrl),
    publicationLogoUrl: filePathProblem(values.publicationLogoUrl),
    imageUrl: filePathProblem(values.imageUrl),
    publishAt: values.publishAt && !utcFromLocalInput(values.publishAt) ? 'validation.isoDate' : undefined,
  });
}

export function EssayForm({ item, onSaved, onClose }: FormProps<Essay>) {
  const { t } = useI18n();
  const { values, errors, setValue, modal } = useContentForm({
    kind: 'essays',
    item,
    api: essaysApi,
    onSaved,
    initialValues: () => initialValues(item),
    validate: validateEssay,
    toBody: (current): FormBody<EssayInput> => ({
      title: current.title.trim(),
      excerpt: current.excerpt.trim(),
      content: current.content.trim(),
      publication: optionalText(current.publication),
      publicationLogoUrl: optionalText(current.publicationLogoUrl),
      publishedDate: isoDate(current.publishedDate, item?.publishedDate),
      essayUrl: optionalText(current.essayUrl),
      imageUrl: optionalText(current.imageUrl),
      category: optionalText(current.category),
      featured: current.featured,
      published: current.published,
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
      <BilingualRow {...bi.row('excerpt')} label={t('fields.excerpt')} rows={3}>
        <TextAreaField
          label={t('fields.excerpt')}
          required
          rows={3}
          value={values.excerpt}
          onChange={(v) => setValue('excerpt', v)}
          error={errors.excerpt}
        />
      </BilingualRow>
      {values.textFormat === 'plain' && <PlainTextNote onTurnOn={() => turnOnFormatting({ values, setValue }, 'content', 'blank-lines')} />}
      <BilingualRow
        {...bi.row('content')}
        label={t('fields.content')}
        rows={10}
        format={values.textFormat === 'markdown' ? 'essays' : undefined}
      >
        <TextAreaField
          format={values.textFormat === 'markdown' ? 'essays' : undefined}
          label={t('fields.content')}
          required
          rows={10}
          value={values.content}
          onChange={(v) => setValue('content', v)}
          error={errors.content}
        />
      </BilingualRow>
      <BilingualRow {...bi.row('category')} label={t('fields.category')}>
        <TextField label={t('fields.category')} value={values.category} onChange={(v) => setValue('category', v)} error={errors.category} />
      </BilingualRow>
      <BilingualRow {...bi.row('publication')} label={t('fields.publication')}>
        <TextField
          label={t('fields.publication')}
          value={values.publication}
          onChange={(v) => setValue('publication', v)}
          error={errors.publication}
        />
      </BilingualRow>
      <div className="ao-grid">
        <TextField
          label={t('fields.publishedDate')}
          type="date"
          value={values.publishedDate}
          onChange={(v) => setValue('publishedDate', v)}
          error={errors.publishedDate}
        />
        <TextField
          label={t('fields.essayUrl')}
          type="url"
          value={values.essayUrl}
          onChange={(v) => setValue('essayUrl', v)}
          error={errors.essayUrl}
        />
      </div>
      <UploadField
        label={t('fields.publicationLogoUrl')}
        contentType="essays"
        value={values.publicationLogoUrl}
        onChange={(v) => setValue('publicationLogoUrl', v)}
        error={errors.publicationLogoUrl}
        toasts={{ failure: { title: t('upload.logoFailed'), description: t('upload.tryAgainOrUrl') } }}
      />
      <UploadField
        label={t('fields.image')}
        contentType="essays"
        value={values.imageUrl}
        onChange={(v) => setValue('imageUrl', v)}
        error={errors.imageUrl}
        toasts={{ failure: { title: t('upload.essayImageFailed'), description: t('upload.tryAgainOrUrl') } }}
      />
      <div className="ao-checks">
        <CheckboxField label={t('fields.featured')} checked={values.featured} onChange={(v) => setValue('featured', v)} />
        <CheckboxField label={t('fields.published')} checked={values.published} onChange={(v) => setValue('published', v)} />
      </div>
      <PublishAtField
        value={values.publishAt}
        onChange={(v) => setValue('publishAt', v)}
        error={errors.publishAt}
        published={values.published}
      />
    </FormModal>
  );
}
