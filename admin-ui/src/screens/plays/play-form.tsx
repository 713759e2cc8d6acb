import type { Play, PlayInput, PlayStatus, PlayType } from '@portfolio/contract/types';

import { playsApi } from '../../api/plays';
import { BilingualHeader, bilingualProps, BilingualRow } from '../../components/bilingual';
import { SelectField, TextAreaField, TextField } from '../../components/field';
import { FormModal } from '../../components/form-modal';
import { PublishAtField } from '../../components/publish-at-field';
import { initialTextFormat, PlainTextNote, turnOnFormatting } from '../../components/text-format';
import { UploadField } from '../../components/upload-field';
import { useContentForm } from '../../hooks/use-content-form';
import type { FormErrors } from '../../hooks/use-form';
import { useI18n } from '../../i18n/i18n';
import { type FormBody, type FormValues, optionalInt, optionalText, toInput } from '../../lib/form-values';
import { localDateTimeInput, publishAtBody, utcFromLocalInput } from '../../lib/local-time';
import { compact, filePathProblem, isBlank, linkProblem, wholeNumberProblem } from '../../lib/validation';
import type { FormProps } from '../content-screen';

export const PLAY_TYPES: PlayType[] = ['original', 'translated'];
export const PLAY_STATUSES: PlayStatus[] = ['draft', 'published', 'performed'];

type PlayValues = FormValues<PlayInput>;

function initialValues(play: Play | null): Omit<PlayValues, 'bilingual'> {
  return {
    title: play?.title ?? '',
    arabicTitle: toInput(play?.arabicTitle),
    description: toInput(play?.description),
    content: toInput(play?.content),
    year: toInput(play ? play.year : new Date().getFullYear()),
    type: play?.type ?? 'original',
    genre: toInput(play?.genre),
    image: toInput(play?.image),
    pdfUrl: toInput(play?.pdfUrl),
    youtubeUrl: toInput(play?.youtubeUrl),
    status: play?.status ?? 'draft',
    publishAt: localDateTimeInput(play?.publishAt),
    textFormat: initialTextFormat(play),
  };
}

export function validatePlay(values: PlayValues): FormErrors<PlayValues> {
  return compact({
    title: isBlank(values.title) ? 'validation.titleRequired' : undefined,
    year: wholeNumberProblem(values.year, 'label.year'),
    youtubeUrl: linkProblem(values.youtubeUrl),
    image: filePathProblem(values.image),
    pdfUrl: filePathProblem(values.pdfUrl, 'pdf'),
    publishAt: values.publishAt && !utcFromLocalInput(values.publishAt) ? 'validation.isoDate' : undefined,
  });
}

export function PlayForm({ item, onSaved, onClose }: FormProps<Play>) {
  const { t } = useI18n();
  const { values, errors, setValue, modal } = useContentForm({
    kind: 'plays',
    item,
    api: playsApi,
    onSaved,
    networkError: { title: t('plays.saveError'), description: t('common.tryAgain') },
    initialValues: () => initialValues(item),
    validate: validatePlay,
    toBody: (current): FormBody<PlayInput> => ({
      title: current.title.trim(),
      arabicTitle: optionalText(current.arabicTitle),
      description: optionalText(current.description),
      content: optionalText(current.content),
      year: optionalInt(current.year),
      type: current.type,
      genre: optionalText(current.genre),
      image: optionalText(current.image),
      pdfUrl: optionalText(current.pdfUrl),
      youtubeUrl: optionalText(current.youtubeUrl),
      status: current.status,
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
      <div className="ao-grid">
        <TextField
          label={t('fields.arabicTitle')}
          value={values.arabicTitle}
          onChange={(v) => setValue('arabicTitle', v)}
          error={errors.arabicTitle}
        />
        <SelectField
          label={t('fields.type')}
          value={values.type}
          onChange={(v) => setValue('type', v as PlayType)}
          options={PLAY_TYPES.map((type) => ({ value: type, label: t(`plays.type.${type}`) }))}
        />
        <SelectField
          label={t('fields.status')}
          value={values.status}
          onChange={(v) => setValue('status', v as PlayStatus)}
          options={PLAY_STATUSES.map((status) => ({ value: status, label: t(`plays.status.${status}`) }))}
        />
        <TextField
          label={t('fields.year')}
          inputMode="numeric"
          value={values.year}
          onChange={(v) => setValue('year', v)}
          error={errors.year}
        />
      </div>
      <BilingualRow {...bi.row('genre')} label={t('fields.genre')}>
        <TextField label={t('fields.genre')} value={values.genre} onChange={(v) => setValue('genre', v)} error={errors.genre} />
      </BilingualRow>
      {values.textFormat === 'plain' && (
        <PlainTextNote onTurnOn={() => turnOnFormatting({ values, setValue }, 'description', 'blank-lines')} />
      )}
      <BilingualRow
        {...bi.row('description')}
        label={t('fields.description')}
        rows={4}
        format={values.textFormat === 'markdown' ? 'plays' : undefined}
      >
        <TextAreaField
          format={values.textFormat === 'markdown' ? 'plays' : undefined}
          label={t('fields.description')}
          rows={4}
          value={values.description}
          onChange={(v) => setValue('description', v)}
          error={errors.description}
        />
      </BilingualRow>
      <UploadField
        label={t('fields.image')}
        contentType="plays"
        value={values.image}
        onChange={(v) => setValue('image', v)}
        error={errors.image}
      />
      <UploadField
        label={t('fields.pdfUrl')}
        kind="pdf"
        contentType="plays"
        hint={t('plays.driveHint')}
        value={values.pdfUrl}
        onChange={(v) => setValue('pdfUrl', v)}
        error={errors.pdfUrl}
      />
      <TextField
        label={t('fields.youtubeUrl')}
        type="url"
        value={values.youtubeUrl}
        onChange={(v) => setValue('youtubeUrl', v)}
        error={errors.youtubeUrl}
      />
      <BilingualRow {...bi.row('content')} label={t('fields.fullText')} rows={12}>
        <TextAreaField
          label={t('fields.fullText')}
          rows={12}
          value={values.content}
          onChange={(v) => setValue('content', v)}
          error={errors.content}
        />
      </BilingualRow>
      <PublishAtField
        value={values.publishAt}
        onChange={(v) => setValue('publishAt', v)}
        error={errors.publishAt}
        published={values.status !== 'draft'}
      />
    </FormModal>
  );
}
