import type { Artwork, ArtworkInput } from '@portfolio/contract/types';

import { artworksApi } from '../../api/artworks';
import { BilingualHeader, bilingualProps, BilingualRow } from '../../components/bilingual';
import { CheckboxField, TextAreaField, TextField } from '../../components/field';
import { FormModal } from '../../components/form-modal';
import { UploadField } from '../../components/upload-field';
import { useContentForm } from '../../hooks/use-content-form';
import type { FormErrors } from '../../hooks/use-form';
import { useI18n } from '../../i18n/i18n';
import { type FormBody, type FormValues, optionalText, toInput } from '../../lib/form-values';
import { compact, filePathProblem, isBlank, wholeNumberProblem } from '../../lib/validation';
import type { FormProps } from '../content-screen';

type ArtworkValues = FormValues<ArtworkInput>;

function initialValues(artwork: Artwork | null): Omit<ArtworkValues, 'bilingual'> {
  return {
    title: artwork?.title ?? '',
    medium: artwork?.medium ?? '',
    year: toInput(artwork?.year ?? new Date().getFullYear()),
    image: artwork?.image ?? '',
    description: toInput(artwork?.description),
    featured: artwork?.featured ?? false,
  };
}

export function validateArtwork(values: ArtworkValues): FormErrors<ArtworkValues> {
  return compact({
    title: isBlank(values.title) ? 'validation.titleRequired' : undefined,
    medium: isBlank(values.medium) ? 'validation.mediumRequired' : undefined,
    year: isBlank(values.year) ? 'validation.yearRequired' : wholeNumberProblem(values.year, 'label.year'),
    image: isBlank(values.image) ? 'validation.imageRequired' : filePathProblem(values.image),
  });
}

export function ArtworkForm({ item, onSaved, onClose }: FormProps<Artwork>) {
  const { t } = useI18n();
  const { values, errors, setValue, modal } = useContentForm({
    kind: 'artworks',
    item,
    api: artworksApi,
    onSaved,
    initialValues: () => initialValues(item),
    validate: validateArtwork,
    toBody: (current): FormBody<ArtworkInput> => ({
      title: current.title.trim(),
      medium: current.medium.trim(),
      year: Number(current.year),
      image: current.image.trim(),
      description: optionalText(current.description),
      featured: current.featured,
    }),
  });
  const bi = bilingualProps(values.bilingual, (v) => setValue('bilingual', v));

  return (
    <FormModal {...modal} onClose={onClose} size="medium">
      <BilingualHeader {...bi.header} />
      <BilingualRow {...bi.row('title')} label={t('fields.title')}>
        <TextField label={t('fields.title')} required value={values.title} onChange={(v) => setValue('title', v)} error={errors.title} />
      </BilingualRow>
      <BilingualRow {...bi.row('medium')} label={t('fields.medium')}>
        <TextField
          label={t('fields.medium')}
          required
          value={values.medium}
          onChange={(v) => setValue('medium', v)}
          error={errors.medium}
        />
      </BilingualRow>
      <BilingualRow {...bi.row('description')} label={t('fields.description')} rows={4}>
        <TextAreaField
          label={t('fields.description')}
          rows={4}
          value={values.description}
          onChange={(v) => setValue('description', v)}
          error={errors.description}
        />
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
      </div>
      <UploadField
        label={t('fields.image')}
        required
        contentType="artworks"
        value={values.image}
        onChange={(v) => setValue('image', v)}
        error={errors.image}
      />
      <CheckboxField label={t('fields.featured')} checked={values.featured} onChange={(v) => setValue('featured', v)} />
    </FormModal>
  );
}
