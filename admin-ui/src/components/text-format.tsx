import type { TextFormat } from '@portfolio/contract/formatted-text';
import { plainAsMarkdown, type PlainLayout } from '@portfolio/contract/plain-text';

import { useI18n } from '../i18n/i18n';
import type { BilingualValues } from './bilingual';

/** A new item is written with the formatting bar; an item from the API keeps its format (plain when it has none). */
export const initialTextFormat = (item: { textFormat?: TextFormat | null } | null): TextFormat =>
  item ? (item.textFormat ?? 'plain') : 'markdown';

interface FormattedForm<F extends string> {
  values: { textFormat: TextFormat; bilingual: BilingualValues<F> } & Record<F, string>;
  setValue: (name: never, value: never) => void;
}

/**
 * Turns on formatting for a text written as plain: its field and the field's translation become the
 * Markdown that shows the same (plainAsMarkdown), and the form's textFormat 'markdown'. Only the form
 * changes; the item changes when the form is saved.
 */
export function turnOnFormatting<F extends string>({ values, setValue }: FormattedForm<F>, field: F, layout: PlainLayout) {
  const set = setValue as (name: string, value: unknown) => void;
  const { bilingual } = values;
  set(field, plainAsMarkdown(values[field], layout));
  set('bilingual', {
    ...bilingual,
    translation: { ...bilingual.translation, [field]: plainAsMarkdown(bilingual.translation[field] ?? '', layout) },
  });
  set('textFormat', 'markdown');
}

/** In place of the formatting bar, for a text written as plain: that it shows as typed, and the switch to formatting. */
export function PlainTextNote({ onTurnOn }: { onTurnOn: () => void }) {
  const { t } = useI18n();
  return (
    <div className="ao-plain-text">
      <p>{t('format.plainText')}</p>
      <button type="button" className="ao-button ao-button-secondary" onClick={onTurnOn}>
        {t('format.turnOn')}
      </button>
    </div>
  );
}
