import { useEffect, useId, useRef, useState } from 'react';

import { TextField } from '../../components/field';
import { HiddenText } from '../../components/hidden-text';
import { tabPanelProps, Tabs } from '../../components/tabs';
import { useI18n } from '../../i18n/i18n';
import type { Message } from '../../i18n/message';
import { type ReviewFields, reviewProblem } from '../../lib/reviews';

interface ReviewsEditorProps {
  reviews: ReviewFields[];
  onChange: (reviews: ReviewFields[]) => void;
  /** The form's problem with the reviews: set, each card the site would leave out says why. */
  error?: Message;
}

/** The book form's Reviews & Press editor. */
export function ReviewsEditor({ reviews, onChange, error }: ReviewsEditorProps) {
  const { t, msg } = useI18n();
  const headingId = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const count = useRef(reviews.length);

  useEffect(() => {
    if (reviews.length > count.current) listRef.current?.querySelector<HTMLInputElement>('li:last-child input')?.focus();
    count.current = reviews.length;
  }, [reviews.length]);

  const add = () => onChange([...reviews, { title: '', url: '' }]);
  const update = (index: number, patch: Partial<ReviewFields>) =>
    onChange(reviews.map((review, i) => (i === index ? { ...review, ...patch } : review)));
  const remove = (index: number) => onChange(reviews.filter((_, i) => i !== index));
  // Shown once the form has found a problem (on submit, then on every change), not while typing.
  const problems = error ? reviews.map(reviewProblem) : [];
  // A problem no card explains (the API's answer about the reviews) is shown over the list.
  const listError = error && !problems.some(Boolean) ? error : undefined;

  return (
    <section className="ao-reviews" aria-labelledby={headingId}>
      <div className="ao-reviews-header">
        <h4 id={headingId} className="ao-subheading">
          {t('reviews.heading')}
        </h4>
        {reviews.length > 0 && (
          <button type="button" className="ao-button ao-button-secondary ao-button-small" onClick={add}>
            <span aria-hidden="true">+ </span>
            {t('reviews.add')}
          </button>
        )}
      </div>
      {listError && <p className="ao-field-error">{msg(listError)}</p>}
      {reviews.length === 0 ? (
        <div className="ao-empty-box">
          <p>{t('reviews.empty')}</p>
          <button type="button" className="ao-button ao-button-secondary" onClick={add}>
            {t('reviews.addFirst')}
          </button>
        </div>
      ) : (
        <ol ref={listRef} className="ao-review-list">
          {reviews.map((review, index) => (
            <ReviewCard
              key={index}
              n={index + 1}
              review={review}
              problem={problems[index]}
              onChange={(patch) => update(index, patch)}
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

interface ReviewCardProps {
  n: number;
  review: ReviewFields;
  /** Why the site would leave this review out. */
  problem?: Message;
  onChange: (patch: Partial<ReviewFields>) => void;
  onRemove: () => void;
}

function ReviewCard({ n, review, problem, onChange, onRemove }: ReviewCardProps) {
  const { t, msg } = useI18n();
  const id = useId();
  const [tab, setTab] = useState<'url' | 'upload'>('url');
  const problemId = `${id}-problem`;
  return (
    <li className={`ao-review-card${problem ? ' ao-review-card-invalid' : ''}`}>
      <fieldset>
        <legend className="ao-review-legend">{t('reviews.item', { n })}</legend>
        <button type="button" className="ao-button ao-button-ghost ao-button-small ao-review-remove" onClick={onRemove}>
          {t('common.remove')}
          <HiddenText>{t('reviews.item', { n })}</HiddenText>
        </button>
        <TextField label={t('reviews.title')} value={review.title} onChange={(title) => onChange({ title })} />
        <div className="ao-field">
          <div className="ao-label-row">
            <label htmlFor={`${id}-url`}>{t('reviews.link')}</label>
          </div>
          <Tabs
            idPrefix={id}
            label={t('reviews.link')}
            className="ao-tabs-small"
            items={[
              { value: 'url', label: t('upload.url') },
              { value: 'upload', label: t('upload.upload') },
            ]}
            value={tab}
            onChange={setTab}
          />
          <div {...tabPanelProps(id, tab)} tabIndex={-1} className="ao-upload-panel">
            {tab === 'url' ? (
              <input
                id={`${id}-url`}
                className="ao-input"
                type="text"
                inputMode="url"
                dir="auto"
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? problemId : undefined}
                value={review.url}
                onChange={(e) => onChange({ url: e.target.value })}
              />
            ) : (
              <p className="ao-hint">{t('reviews.uploadNote')}</p>
            )}
          </div>
          {problem && (
            <p id={problemId} className="ao-field-error">
              {msg(problem)}
            </p>
          )}
        </div>
      </fieldset>
    </li>
  );
}
