import type { ContentTab } from '@portfolio/contract/kinds';
import type { ContentKind, PreviewResponse } from '@portfolio/contract/types';
import { useState } from 'react';
import { ApiError } from '../api/client';
import { previewApi } from '../api/preview';
import { type FormErrors, useForm } from './use-form';
import { useErrorHandler } from './use-error-handler';
import { useToast } from './use-toast';
import { useI18n } from '../i18n/i18n';

/**
 * The overlay's tabs with a content list and form, also the prefix of their UI strings ('gallery.added'):
 * each kind's `tab` in @portfolio/contract/kinds (the Gallery tab edits the API's 'artworks').
 */
export type { ContentTab };

interface ContentSaveOptions<Input> {
  tab: ContentTab;
  /** null: a new item. */
  item: { id: number } | null;
  api: { create: (input: Input) => Promise<unknown>; update: (id: number, input: Input) => Promise<unknown> };
  onSaved: () => void;
  /** A toast of its own when the server cannot be reached (plays: 'Error saving play'). */
  networkError?: { title: string; description: string };
}

/** Saving a content form: POST or PATCH, 'X created/updated successfully', or the failure toast. */
function useContentSave<Input>({ tab, item, api, onSaved, networkError }: ContentSaveOptions<Input>) {
  const { t } = useI18n();
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
      handleError(error, { title: t(`${tab}.saveFailed`), networkTitle: networkError?.title, networkDescription: networkError?.description }),
  };
}

interface ContentFormOptions<V, Input> extends ContentSaveOptions<Input> {
  initialValues: () => V;
  validate: (values: V) => FormErrors<V>;
  /** The request body made from the form's values. */
  toBody: (values: V) => Input;
  /** The API's kind: the form gets a Preview button that shows the item's pages with the form's values. */
  previewKind?: ContentKind;
}

/** The form's Preview: what FormModal needs to show the button and the pages. */
export interface PreviewControl {
  run: () => void;
  busy: boolean;
  result: PreviewResponse | null;
  close: () => void;
}

/**
 * A content form: its state and validation, saving as POST or PATCH with the right toasts, and
 * the props its FormModal needs (title, submit label, submit handler, busy flag).
 */
export function useContentForm<V extends object, Input>({ initialValues, validate, toBody, previewKind, ...saveOptions }: ContentFormOptions<V, Input>) {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  const saving = useContentSave(saveOptions);
  const form = useForm({
    initialValues,
    validate,
    onSubmit: (current: V) => saving.save(toBody(current)),
    onError: saving.onError,
  });
  const [previewBusy, setPreviewBusy] = useState(false);
  const [previewResult, setPreviewResult] = useState<PreviewResponse | null>(null);

  /** The form's values as they are (saved or not) → the item's pages; the same checks as a save first. */
  const runPreview = async () => {
    if (!previewKind || previewBusy) return;
    const found = validate(form.values);
    if (Object.values(found).some(Boolean)) {
      form.setErrors(found);
      return;
    }
    setPreviewBusy(true);
    try {
      setPreviewResult(await previewApi.render({ kind: previewKind, id: saveOptions.item?.id ?? null, item: toBody(form.values) as Record<string, unknown> }));
    } catch (error) {
      if (error instanceof ApiError) {
        const fromServer: FormErrors<V> = {};
        for (const [field, message] of Object.entries(error.fieldErrors)) if (field in form.values) fromServer[field as keyof V & string] = message;
        if (Object.keys(fromServer).length) form.setErrors(fromServer);
      }
      handleError(error, { title: t('preview.failed') });
    } finally {
      setPreviewBusy(false);
    }
  };
  const preview: PreviewControl | undefined = previewKind
    ? { run: () => void runPreview(), busy: previewBusy, result: previewResult, close: () => setPreviewResult(null) }
    : undefined;

  return {
    ...form,
    modal: { title: saving.title, submitLabel: saving.submitLabel, onSubmit: form.handleSubmit, isSubmitting: form.isSubmitting, preview },
  };
}
