import { type FormErrors, useForm } from './use-form';
import { useErrorHandler } from './use-error-handler';
import { useToast } from './use-toast';
import { useI18n } from '../i18n/i18n';

/**
 * The overlay's tabs with a content list and form, also the prefix of their UI strings ('gallery.added').
 * Not the API's names: the Gallery tab edits the API's 'artworks' (ContentKind in @portfolio/contract/types).
 */
export type ContentTab = 'books' | 'essays' | 'gallery' | 'news' | 'plays';

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
}

/**
 * A content form: its state and validation, saving as POST or PATCH with the right toasts, and
 * the props its FormModal needs (title, submit label, submit handler, busy flag).
 */
export function useContentForm<V extends object, Input>({ initialValues, validate, toBody, ...saveOptions }: ContentFormOptions<V, Input>) {
  const saving = useContentSave(saveOptions);
  const form = useForm({
    initialValues,
    validate,
    onSubmit: (current: V) => saving.save(toBody(current)),
    onError: saving.onError,
  });
  return {
    ...form,
    modal: { title: saving.title, submitLabel: saving.submitLabel, onSubmit: form.handleSubmit, isSubmitting: form.isSubmitting },
  };
}
