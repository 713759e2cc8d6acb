import type { Lang } from '@portfolio/contract/languages';
import { useCallback, useEffect, useRef, useState } from 'react';

import type { FieldVersions } from '../lib/lang';
import { Both, eachLanguage } from '../react/both';
import { dirOf, useLang } from '../react/use-lang';

/** The version a reader of `lang` reads (the same for every reader when the artwork has one). */
const versionFor = (v: FieldVersions, lang: Lang) => v.one ?? v[lang] ?? null;

/**
 * A text in its own language: one version as it is, or both (CSS shows the one matching <html lang>,
 * so the first paint is right before hydration), each marked with its language and direction.
 */
function Text({ v }: { v: FieldVersions }) {
  const shown = (t: { text: string; lang: Lang }, only?: Lang) => (
    <span key={t.lang + (only ?? '')} data-lang={only} lang={t.lang} dir={dirOf(t.lang)}>
      {t.text}
    </span>
  );
  if (v.one) return shown(v.one);
  return <>{Object.entries(v).map(([l, t]) => shown(t!, l as Lang))}</>;
}

export interface GalleryItem {
  id: number;
  /** Title, medium and description in the reader's language(s), each with its own language. */
  title: FieldVersions;
  medium: FieldVersions;
  year: number;
  description: FieldVersions;
  /** The card's picture, already server-optimised (srcset per format). */
  src: string;
  sources: { type: string; srcset: string }[];
  /** The largest variant, shown full screen. */
  full: string;
  /** The original's size when known, so the card keeps the artwork's own shape before it loads. */
  width: number | null;
  height: number | null;
}

type Keys = 'gallery.open' | 'lightbox.close' | 'lightbox.previous' | 'lightbox.next' | 'lightbox.position';
type Strings = Record<Lang, Record<Keys, string>>;

const fill = (s: string, vars: Record<string, string | number>) => s.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ''));

/**
 * The gallery grid and its full-screen view. Keyboard: Esc closes; arrow keys move (mirrored in
 * right-to-left); focus stays inside while open and returns to the card that opened it.
 */
export default function Gallery({ items, strings }: { items: GalleryItem[]; strings: Strings }) {
  const lang = useLang();
  const s = strings[lang];
  const [open, setOpen] = useState<number | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);

  const close = useCallback(() => {
    setOpen(null);
    opener.current?.focus();
  }, []);
  const move = useCallback((step: number) => setOpen((i) => (i === null ? i : (i + step + items.length) % items.length)), [items.length]);

  useEffect(() => {
    if (open === null) return;
    closeButton.current?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previousOverflow;
    };
  }, [open === null]); // eslint-disable-line react-hooks/exhaustive-deps

  const onKeyDown = (event: React.KeyboardEvent) => {
    const rtl = document.documentElement.dir === 'rtl';
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const forward = (event.key === 'ArrowRight') !== rtl;
      move(forward ? 1 : -1);
    } else if (event.key === 'Tab') {
      const focusable = dialog.current?.querySelectorAll<HTMLElement>('button');
      if (!focusable?.length) return;
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  };

  const current = open === null ? null : items[open];
  return (
    <>
      <ul className="grid grid-3 gallery-grid">
        {items.map((item, i) => (
          <li key={item.id}>
            <figure className="card">
              {/* No data-image-box here: a picture that fails is hidden on its own (BaseLayout), and the
                  button stays as a placeholder box that still opens the artwork's full-screen view. */}
              <button
                type="button"
                className="gallery-open"
                onClick={(e) => {
                  opener.current = e.currentTarget;
                  setOpen(i);
                }}
              >
                <span className="gallery-media">
                  <picture>
                    {item.sources.map((source) => (
                      <source
                        key={source.type}
                        type={source.type}
                        srcSet={source.srcset}
                        sizes="(max-width: 480px) 100vw, (max-width: 760px) 50vw, 380px"
                      />
                    ))}
                    <img
                      src={item.src}
                      alt=""
                      width={item.width ?? 800}
                      height={item.height ?? 600}
                      loading={i < 3 ? 'eager' : 'lazy'}
                      decoding="async"
                    />
                  </picture>
                </span>
                <span className="visually-hidden">
                  <Both
                    text={eachLanguage(strings, (texts, lang) =>
                      fill(texts['gallery.open'], { title: versionFor(item.title, lang)?.text ?? '' }),
                    )}
                  />
                </span>
              </button>
              <figcaption className="card-body">
                <strong>
                  <Text v={item.title} />
                </strong>
                <span className="meta">
                  <Text v={item.medium} /> · {item.year}
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
      {current && (
        <div
          className="lightbox"
          role="dialog"
          aria-modal="true"
          aria-label={versionFor(current.title, lang)?.text}
          ref={dialog}
          onKeyDown={onKeyDown}
          onClick={(e) => e.target === e.currentTarget && close()}
        >
          <div className="lightbox-bar">
            <span aria-live="polite">{fill(s['lightbox.position'], { i: (open ?? 0) + 1, n: items.length })}</span>
            <button type="button" ref={closeButton} className="lightbox-button" onClick={close} aria-label={s['lightbox.close']}>
              ✕
            </button>
          </div>
          {/* Its own element per artwork: one hidden because its picture failed must not hide the next. */}
          <img
            key={current.id}
            className="lightbox-image"
            src={current.full}
            alt={versionFor(current.title, lang)?.text ?? ''}
            lang={versionFor(current.title, lang)?.lang}
          />
          <div className="lightbox-caption">
            <strong>
              <Text v={current.title} />
            </strong>{' '}
            — <Text v={current.medium} />
            {lang === 'ar' ? '، ' : ', '}
            {current.year}
            {Object.keys(current.description).length > 0 && (
              <p>
                <Text v={current.description} />
              </p>
            )}
          </div>
          {items.length > 1 && (
            <>
              <button type="button" className="lightbox-button lightbox-prev" onClick={() => move(-1)} aria-label={s['lightbox.previous']}>
                <span aria-hidden="true">‹</span>
              </button>
              <button type="button" className="lightbox-button lightbox-next" onClick={() => move(1)} aria-label={s['lightbox.next']}>
                <span aria-hidden="true">›</span>
              </button>
            </>
          )}
        </div>
      )}
    </>
  );
}
