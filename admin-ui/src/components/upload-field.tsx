import { imagePath } from '@portfolio/contract/rules';
import type { UploadFolder } from '@portfolio/contract/types';
import { useEffect, useId, useRef, useState } from 'react';
import { useUpload, type UploadToasts } from '../hooks/use-upload';

export type { UploadToasts };
import { useI18n } from '../i18n/i18n';
import type { Message } from '../i18n/message';
import { Tabs, tabPanelProps } from './tabs';

interface UploadFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  contentType: UploadFolder;
  kind?: 'image' | 'pdf';
  error?: Message;
  hint?: string;
  required?: boolean;
  toasts?: UploadToasts;
}

/**
 * A file reference given as a URL or uploaded here. Images show a preview and PDFs a link, from where
 * the site loads them (imagePath): nothing for a value the site would drop (the form refuses it, see
 * filePathProblem), and a preview that fails to load is hidden.
 */
export function UploadField({ label, value, onChange, contentType, kind = 'image', error, hint, required, toasts }: UploadFieldProps) {
  const { t, msg } = useI18n();
  const idPrefix = useId();
  const [tab, setTab] = useState<'url' | 'upload'>('url');
  const { upload, uploading, problem: uploadProblem } = useUpload(contentType, kind, toasts);
  const [previewFailed, setPreviewFailed] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const urlInput = useRef<HTMLInputElement>(null);
  // After an upload the URL tab shows the stored file; focus follows so it is not lost with the file input.
  const focusUrlInput = useRef(false);

  useEffect(() => setPreviewFailed(false), [value]);
  useEffect(() => {
    if (tab === 'url' && focusUrlInput.current) {
      focusUrlInput.current = false;
      urlInput.current?.focus();
    }
  }, [tab]);

  const onFile = async (file: File) => {
    const url = await upload(file);
    if (fileInput.current) fileInput.current.value = '';
    if (url === null) return;
    onChange(url);
    focusUrlInput.current = true;
    setTab('url');
  };

  const src = imagePath(value);
  const inputId = `${idPrefix}-input`;
  const hintId = hint ? `${idPrefix}-hint` : undefined;
  const problem = tab === 'url' ? error : (uploadProblem ?? undefined);
  const problemId = problem ? `${idPrefix}-error` : undefined;
  const describedBy = [hintId, problemId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="ao-field ao-upload">
      <div className="ao-label-row">
        <label htmlFor={inputId}>{label}</label>
        {required && (
          <span className="ao-required" aria-hidden="true">
            *
          </span>
        )}
      </div>
      <Tabs
        idPrefix={idPrefix}
        label={label}
        className="ao-tabs-small"
        items={[
          { value: 'url', label: t('upload.url') },
          { value: 'upload', label: t('upload.upload') },
        ]}
        value={tab}
        onChange={setTab}
      />
      <div {...tabPanelProps(idPrefix, tab)} tabIndex={-1} className="ao-upload-panel">
        {tab === 'url' ? (
          <input
            key="url"
            ref={urlInput}
            id={inputId}
            className="ao-input"
            type="text"
            inputMode="url"
            dir="auto"
            aria-invalid={error ? true : undefined}
            aria-required={required || undefined}
            aria-describedby={describedBy}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        ) : (
          <>
            <input
              key="file"
              id={inputId}
              ref={fileInput}
              className="ao-file"
              type="file"
              accept={kind === 'pdf' ? 'application/pdf' : 'image/*'}
              aria-describedby={describedBy}
              title={t(kind === 'pdf' ? 'upload.choosePdf' : 'upload.chooseImage')}
              disabled={uploading}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void onFile(file);
              }}
            />
            {uploading && (
              <p role="status" className="ao-hint">
                {t('upload.uploading')}
              </p>
            )}
          </>
        )}
      </div>
      {hint && (
        <p id={hintId} className="ao-hint">
          {hint}
        </p>
      )}
      {problem && (
        <p id={problemId} className="ao-field-error">
          {msg(problem)}
        </p>
      )}
      {src && kind === 'image' && !previewFailed && (
        <img className="ao-preview" src={src} alt={t('upload.preview')} onError={() => setPreviewFailed(true)} />
      )}
      {src && kind === 'pdf' && (
        <a className="ao-link" href={src} target="_blank" rel="noreferrer">
          {t('upload.openFile')}
        </a>
      )}
    </div>
  );
}
