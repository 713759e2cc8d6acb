import { imagePath } from '@portfolio/contract/rules';
import type { UploadFolder } from '@portfolio/contract/types';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';

import { type UploadToasts, useUpload } from '../hooks/use-upload';

export type { UploadToasts };
import { useI18n } from '../i18n/i18n';
import type { Message } from '../i18n/message';
import { tabPanelProps, Tabs } from './tabs';

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

type UploadKind = NonNullable<UploadFieldProps['kind']>;

/** The URL and Upload tabs: an upload fills in the URL and shows it, focus following to the URL input. */
function useUploadTabs(onChange: (value: string) => void, contentType: UploadFolder, kind: UploadKind, toasts: UploadToasts | undefined) {
  const [tab, setTab] = useState<'url' | 'upload'>('url');
  const { upload, uploading, problem } = useUpload(contentType, kind, toasts);
  const fileInput = useRef<HTMLInputElement>(null);
  const urlInput = useRef<HTMLInputElement>(null);
  // After an upload the URL tab shows the stored file; focus follows so it is not lost with the file input.
  const focusUrlInput = useRef(false);
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
  return { tab, setTab, uploading, uploadProblem: problem, fileInput, urlInput, onFile };
}

/** What the site will show: an image's preview (hidden when it fails to load) or a link to the PDF. */
function FilePreview({ value, kind }: { value: string; kind: UploadKind }) {
  const { t } = useI18n();
  const [previewFailed, setPreviewFailed] = useState(false);
  useEffect(() => setPreviewFailed(false), [value]);
  const src = imagePath(value);
  if (!src) return null;
  if (kind === 'pdf') {
    return (
      <a className="ao-link" href={src} target="_blank" rel="noreferrer">
        {t('upload.openFile')}
      </a>
    );
  }
  return previewFailed ? null : <img className="ao-preview" src={src} alt={t('upload.preview')} onError={() => setPreviewFailed(true)} />;
}

interface FileInputProps {
  id: string;
  inputRef: RefObject<HTMLInputElement | null>;
  kind: UploadKind;
  describedBy: string | undefined;
  uploading: boolean;
  onFile: (file: File) => void;
}

/** The Upload tab: the file chooser (an image or a PDF), and 'Uploading...' while it is sent. */
function FileInput({ id, inputRef, kind, describedBy, uploading, onFile }: FileInputProps) {
  const { t } = useI18n();
  return (
    <>
      <input
        id={id}
        ref={inputRef}
        className="ao-file"
        type="file"
        accept={kind === 'pdf' ? 'application/pdf' : 'image/*'}
        aria-describedby={describedBy}
        title={t(kind === 'pdf' ? 'upload.choosePdf' : 'upload.chooseImage')}
        disabled={uploading}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
        }}
      />
      {uploading && (
        <p role="status" className="ao-hint">
          {t('upload.uploading')}
        </p>
      )}
    </>
  );
}

/**
 * A file reference given as a URL or uploaded here. Images show a preview and PDFs a link, from where
 * the site loads them (imagePath): nothing for a value the site would drop (the form refuses it, see
 * filePathProblem), and a preview that fails to load is hidden.
 */
export function UploadField({ label, value, onChange, contentType, kind = 'image', error, hint, required, toasts }: UploadFieldProps) {
  const { t, msg } = useI18n();
  const idPrefix = useId();
  const { tab, setTab, uploading, uploadProblem, fileInput, urlInput, onFile } = useUploadTabs(onChange, contentType, kind, toasts);
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
          <FileInput
            id={inputId}
            inputRef={fileInput}
            kind={kind}
            describedBy={describedBy}
            uploading={uploading}
            onFile={(file) => void onFile(file)}
          />
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
      <FilePreview value={value} kind={kind} />
    </div>
  );
}
