import type { UploadFolder } from '@portfolio/contract/types';
import { createContext, type KeyboardEvent, memo, type ReactNode, type RefObject, useContext, useRef, useState } from 'react';

import type { PreviewControl } from '../hooks/use-content-form';
import { useI18n } from '../i18n/i18n';
import { type Edit, footnote, image, link, prefixLines, type Selection, wrap } from '../lib/formatting';
import { TextField } from './field';
import { StrokeIcon } from './icon';
import { Modal } from './modal';
import { Tooltip } from './tooltip';
import { UploadField } from './upload-field';

/** The form's Preview (the site's own pages), for the bar's Preview button; FormModal provides it. */
export const FormPreviewContext = createContext<PreviewControl | undefined>(undefined);

/**
 * Applies an edit as typing would: `insertText` keeps the browser's undo stack (Chromium); where it
 * is missing, setRangeText and an input event, which React reads as a change.
 */
export function applyEdit(area: HTMLTextAreaElement, edit: Edit) {
  area.focus();
  area.setSelectionRange(edit.start, edit.end);
  let inserted: boolean;
  try {
    inserted = typeof document.execCommand === 'function' && document.execCommand('insertText', false, edit.text);
  } catch {
    inserted = false;
  }
  if (!inserted || area.value.slice(edit.start, edit.start + edit.text.length) !== edit.text) {
    area.setRangeText(edit.text, edit.start, edit.end, 'end');
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }
  area.setSelectionRange(edit.select.start, edit.select.end);
}

const selectionOf = (area: HTMLTextAreaElement): Selection => ({ start: area.selectionStart, end: area.selectionEnd });

type Action = 'bold' | 'italic' | 'link' | 'heading' | 'quote' | 'bullet' | 'numbered' | 'footnote';

const isMac = () => {
  if (typeof navigator === 'undefined') return false;
  const platform =
    (navigator as { userAgentData?: { platform?: string } }).userAgentData?.platform || navigator.platform || navigator.userAgent;
  return /Mac|iPhone|iPad/i.test(platform);
};

const SHORTCUTS = { b: 'bold', i: 'italic', k: 'link' } as const;

/**
 * ⌘ + B, I, K on a Mac (where Ctrl+B, I, K are the system's own text keys), Ctrl elsewhere. The
 * letter is the key's own when it is a Latin one (Dvorak, AZERTY), else the key's place on the
 * keyboard (an Arabic layout's ب… is where B is on a Latin one).
 */
export function formatShortcut(event: KeyboardEvent<HTMLTextAreaElement>, run: (action: Action) => void) {
  const modifier = isMac() ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  if (!modifier || event.altKey || event.shiftKey) return;
  const key = event.key.toLowerCase();
  const letter = /^[a-z]$/.test(key) ? key : /^Key[A-Z]$/.test(event.code) ? event.code.slice(3).toLowerCase() : '';
  const action = SHORTCUTS[letter as keyof typeof SHORTCUTS];
  if (!action) return;
  event.preventDefault();
  run(action);
}

export function useFormatting(area: RefObject<HTMLTextAreaElement | null>) {
  const { t } = useI18n();
  return (action: Action) => {
    const el = area.current;
    if (!el) return;
    const value = el.value;
    const selection = selectionOf(el);
    const edit =
      action === 'bold'
        ? wrap(value, selection, '**')
        : action === 'italic'
          ? wrap(value, selection, '*')
          : action === 'link'
            ? link(value, selection, t('format.linkText'))
            : action === 'footnote'
              ? footnote(value, selection)
              : prefixLines(value, selection, action);
    applyEdit(el, edit);
  };
}

const ICONS: Record<Action | 'image' | 'preview', ReactNode> = {
  bold: <b>B</b>,
  italic: <i>I</i>,
  heading: <b>H</b>,
  link: <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />,
  quote: <path d="M7 7h4v4c0 3-1.5 5-4 6M14 7h4v4c0 3-1.5 5-4 6" />,
  bullet: <path d="M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01" />,
  numbered: <path d="M10 6h10M10 12h10M10 18h10M4 4v4M3 14h3l-3 4h3" />,
  footnote: <path d="M4 17h9M4 12h9M16 5h2v6M15.5 11h3.5" />,
  image: <path d="M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15 9h.01" />,
  preview: <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z" />,
};

function Icon({ name }: { name: keyof typeof ICONS }) {
  const glyph = ICONS[name];
  if (name === 'bold' || name === 'italic' || name === 'heading') return <span aria-hidden="true">{glyph}</span>;
  return <StrokeIcon size={18}>{glyph}</StrokeIcon>;
}

function BarButton({
  label,
  icon,
  onClick,
  disabled,
}: {
  label: string;
  icon: keyof typeof ICONS;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <Tooltip label={label}>
      {(trigger) => (
        <button
          type="button"
          className="ao-format-button"
          {...trigger}
          disabled={disabled}
          // The text area keeps focus and its selection while the bar is clicked.
          onMouseDown={(event) => event.preventDefault()}
          onClick={onClick}
        >
          <Icon name={icon} />
        </button>
      )}
    </Tooltip>
  );
}

interface ImageDialogProps {
  folder: UploadFolder;
  onInsert: (alt: string, url: string) => void;
  onClose: () => void;
}

/** A picture from the site's uploads (chosen and uploaded here, or an /uploads/ address) and its alt text. */
function ImageDialog({ folder, onInsert, onClose }: ImageDialogProps) {
  const { t } = useI18n();
  const [url, setUrl] = useState('');
  const [alt, setAlt] = useState('');
  const ready = url.trim().startsWith('/uploads/') && alt.trim() !== '';
  return (
    <Modal title={t('format.imageTitle')} onClose={onClose} size="small">
      <div className="ao-form-fields">
        <UploadField
          label={t('format.imageFile')}
          contentType={folder}
          value={url}
          onChange={setUrl}
          hint={t('format.imageHint')}
          required
        />
        <TextField label={t('format.imageAlt')} value={alt} onChange={setAlt} required hint={t('format.imageAltHint')} />
      </div>
      <div className="ao-form-footer">
        <button type="button" className="ao-button ao-button-secondary" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="ao-button ao-button-primary" disabled={!ready} onClick={() => onInsert(alt, url)}>
          {t('format.insert')}
        </button>
      </div>
    </Modal>
  );
}

interface FormatBarProps {
  area: RefObject<HTMLTextAreaElement | null>;
  /** where a picture uploaded from the bar is stored */
  folder: UploadFolder;
  /** the field's label, to name the bar */
  label: string;
}

/** The form's Preview button, in the bar: the pages as the site renders them, formatting included. */
function PreviewButton() {
  const { t } = useI18n();
  const preview = useContext(FormPreviewContext);
  return preview ? <BarButton label={t('format.preview')} icon="preview" onClick={preview.run} disabled={preview.busy} /> : null;
}

/**
 * Bold, italic, link, heading, quote, lists, footnote, a picture from the uploads, and the form's
 * Preview. Memoised: its props do not change as the text is typed, so a keystroke does not render it.
 */
export const FormatBar = memo(function FormatBar({ area, folder, label }: FormatBarProps) {
  const { t } = useI18n();
  const run = useFormatting(area);
  const [picking, setPicking] = useState(false);
  const saved = useRef<Selection>({ start: 0, end: 0 });
  const key = isMac() ? '⌘' : 'Ctrl+';
  const openImage = () => {
    if (area.current) saved.current = selectionOf(area.current);
    setPicking(true);
  };
  const insertImage = (alt: string, url: string) => {
    setPicking(false);
    const el = area.current;
    if (el) applyEdit(el, image(el.value, saved.current, alt, url));
  };
  return (
    <div className="ao-format-bar" role="toolbar" aria-label={t('format.toolbar', { field: label })}>
      <BarButton label={t('format.bold', { key })} icon="bold" onClick={() => run('bold')} />
      <BarButton label={t('format.italic', { key })} icon="italic" onClick={() => run('italic')} />
      <BarButton label={t('format.link', { key })} icon="link" onClick={() => run('link')} />
      <BarButton label={t('format.heading')} icon="heading" onClick={() => run('heading')} />
      <BarButton label={t('format.quote')} icon="quote" onClick={() => run('quote')} />
      <BarButton label={t('format.bullet')} icon="bullet" onClick={() => run('bullet')} />
      <BarButton label={t('format.numbered')} icon="numbered" onClick={() => run('numbered')} />
      <BarButton label={t('format.footnote')} icon="footnote" onClick={() => run('footnote')} />
      <BarButton label={t('format.image')} icon="image" onClick={openImage} />
      <PreviewButton />
      {picking && <ImageDialog folder={folder} onInsert={insertImage} onClose={() => setPicking(false)} />}
    </div>
  );
});
