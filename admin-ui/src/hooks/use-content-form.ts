import { type ContentKind, KINDS } from '@portfolio/contract/kinds';
import type { Translatable } from '@portfolio/contract/translations';
import type { PreviewResponse } from '@portfolio/contract/types';
import { useState } from 'react';

import { ApiError } from '../api/client';
import { previewApi } from '../api/preview';
import { bilingualBody, type BilingualValues, bilingualValues } from '../components/bilingual';
import { useI18n } from '../i18n/i18n';
import type { FormBody } from '../lib/form-values';
import { useErrorHandler } from './use-error-handler';
import { type FormErrors, useForm } from './use-form';
import { useToast } from './use-toast';

interface ContentSaveOptions<Input> {
  /** The API's kind; its tab names the form's words ('gallery.addTitle'). */
  kind: ContentKind;
  /** null: a new item. */
  item: { id: number } | null;
  api: { create: (input: Input) => Promise<unknown>; update: (id: number, input: Input) => Promise<unknown> };
  onSaved: () => void;
  /** A toast of its own when the server cannot be reached (plays: 'Error saving play'). */
  networkError?: { title: string; description: string };
}

/** Saving a content form: POST or PATCH, 'X created/updated successfully', or the failure toast. */
function useContentSave<Input>({ kind, item, api, onSaved, networkError }: ContentSaveOptions<Input>) {
  const { t } = useI18n();
  const { tab } = KINDS[kind];
  const { toast } = useToast();
  const handleError = useErrorHandler();
  return {
    title: t(item ? `${tab}.editTitle` : `${tab}.addTitle`),
    submitLabel: t(item ? 'common.update' : 'common.create'),
    save: async (body: Input) => {
      if (item) await api.update(item.id, body);
      else await api.create(body);
      toast({ title: t(item ? `${tab}.updated` : `${tab}.created`) });
      onSaved();
    },
    onError: (error: unknown) =>
      handleError(error, {
        title: t(`${tab}.saveFailed`),
        networkTitle: networkError?.title,
        networkDescription: networkError?.description,
      }),
  };
}

interface ContentFormOptions<V, Input> extends ContentSaveOptions<Input> {
  /** The form's starting values but the two languages' part, which comes from the item and its kind. */
  initialValues: () => Omit<V, 'bilingual'>;
  validate: (values: V) => FormErrors<V>;
  /** The request body made from the form's values, every field of the contract's input but the two languages' part. */
  toBody: (values: V) => FormBody<Input>;
}

/** The form's Preview: what FormModal needs to show the button and the pages. */
export interface PreviewControl {
  run: () => void;
  busy: boolean;
  result: PreviewResponse | null;
  close: () => void;
}

/**
 * A content form: its state and validation (the item's text in its own language and the other
 * language's version side by side), saving as POST or PATCH with the right toasts, the Preview of
 * the item's pages with the form's values, and the props its FormModal needs.
 */
export function useContentForm<V extends { bilingual: BilingualValues }, Input>(options: ContentFormOptions<V, Input>) {
  const { initialValues, validate, toBody, ...saveOptions } = options;
  const { t, lang } = useI18n();
  const { kind, item } = saveOptions;
  const handleError = useErrorHandler();
  const saving = useContentSave(saveOptions);
  const body = (values: V) => ({ ...toBody(values), ...bilingualBody(kind, values.bilingual) }) as Input;
  const form = useForm({
    initialValues: () => ({ ...initialValues(), bilingual: bilingualValues(kind, item as Translatable | null, lang) }) as V,
    validate,
    onSubmit: (current: V) => saving.save(body(current)),
    onError: saving.onError,
  });
  const [previewBusy, setPreviewBusy] = useState(false);
  const [previewResult, setPreviewResult] = useState<PreviewResponse | null>(null);

  /** The form's values as they are (saved or not) → the item's pages; the same checks as a save first. */
  const runPreview = async () => {
    if (previewBusy) return;
    const found = validate(form.values);
    if (Object.values(found).some(Boolean)) {
      form.setErrors(found);
      return;
    }
    setPreviewBusy(true);
    try {
      setPreviewResult(await previewApi.render({ kind, id: item?.id ?? null, item: body(form.values) as Record<string, unknown> }));
    } catch (error) {
      if (error instanceof ApiError) {
        const fromServer: FormErrors<V> = {};
        for (const [field, message] of Object.entries(error.fieldErrors))
          if (field in form.values) fromServer[field as keyof V & string] = message;
        if (Object.keys(fromServer).length) form.setErrors(fromServer);
      }
      handleError(error, { title: t('preview.failed') });
    } finally {
      setPreviewBusy(false);
    }
  };
  const preview: PreviewControl = {
    run: () => void runPreview(),
    busy: previewBusy,
    result: previewResult,
    close: () => setPreviewResult(null),
  };

  return {
    ...form,
    modal: { title: saving.title, submitLabel: saving.submitLabel, onSubmit: form.handleSubmit, isSubmitting: form.isSubmitting, preview },
  };
}
