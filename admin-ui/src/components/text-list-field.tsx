import type { UploadFolder } from '@portfolio/contract/types';
import { useEffect, useId, useRef } from 'react';

import { useUpload } from '../hooks/use-upload';
import { useI18n } from '../i18n/i18n';
import { HiddenText } from './hidden-text';

interface TextListFieldProps {
  label: string;
  addLabel: string;
  values: string[];
  onChange: (values: string[]) => void;
  /** Offer a PDF upload that adds its link as an entry. */
  pdfUpload?: UploadFolder;
}

/** An editable list of texts (awards, documents, reading materials). */
export function TextListField({ label, addLabel, values, onChange, pdfUpload }: TextListFieldProps) {
  const { t } = useI18n();
  const id = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const count = useRef(values.length);

  // A new entry gets focus, so the keyboard user can type it right away.
  useEffect(() => {
    if (values.length > count.current) listRef.current?.querySelector<HTMLInputElement>('li:last-child input')?.focus();
    count.current = values.length;
  }, [values.length]);

  const set = (index: number, value: string) => onChange(values.map((v, i) => (i === index ? value : v)));
  const remove = (index: number) => onChange(values.filter((_, i) => i !== index));

  return (
    <fieldset className="ao-list-field">
      <legend>{label}</legend>
      {values.length ? (
        <ol ref={listRef} className="ao-list-entries">
          {values.map((value, index) => {
            const itemLabel = t('list.item', { label, n: index + 1 });
            return (
              <li key={index} className="ao-list-entry">
                <input className="ao-input" dir="auto" aria-label={itemLabel} value={value} onChange={(e) => set(index, e.target.value)} />
                <button type="button" className="ao-button ao-button-ghost" onClick={() => remove(index)}>
                  {t('common.remove')}
                  <HiddenText>{itemLabel}</HiddenText>
                </button>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="ao-hint">{t('list.empty')}</p>
      )}
      <div className="ao-list-actions">
        <button type="button" className="ao-button ao-button-secondary" onClick={() => onChange([...values, ''])}>
          {addLabel}
        </button>
        {pdfUpload && (
          <PdfUploadButton id={`${id}-pdf`} label={label} contentType={pdfUpload} onUploaded={(url) => onChange([...values, url])} />
        )}
      </div>
    </fieldset>
  );
}

function PdfUploadButton({
  id,
  label,
  contentType,
  onUploaded,
}: {
  id: string;
  label: string;
  contentType: UploadFolder;
  onUploaded: (url: string) => void;
}) {
  const { t, msg } = useI18n();
  const { upload, uploading, problem } = useUpload(contentType, 'pdf');
  return (
    <div className="ao-list-upload">
      <label htmlFor={id} className="ao-file-label">
        {t('list.uploadPdf')}
        <HiddenText>({label})</HiddenText>
      </label>
      <input
        id={id}
        type="file"
        accept="application/pdf"
        className="ao-file"
        disabled={uploading}
        onChange={async (e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          const url = await upload(file);
          input.value = '';
          if (url) onUploaded(url);
        }}
      />
      {uploading && (
        <span role="status" className="ao-hint">
          {t('upload.uploading')}
        </span>
      )}
      {problem && <span className="ao-field-error">{msg(problem)}</span>}
    </div>
  );
}
