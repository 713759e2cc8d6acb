import { type Lang, LANGUAGES } from '@portfolio/contract/languages';
import type { Campaign, MailPreview, NewsletterOffer, NewsletterTopic, SubscriberList } from '@portfolio/contract/newsletter';
import { useEffect, useMemo, useState } from 'react';

import { newsletterApi, type NewsletterItem, subscribersApi } from '../../api/newsletter';
import { Modal } from '../../components/modal';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useSession } from '../../hooks/use-session';
import { useToast } from '../../hooks/use-toast';
import { directionOf, useI18n } from '../../i18n/i18n';
import { isolated } from '../../lib/format';
import { MailLinksWarning } from '../subscribers/mail-links-warning';
import { CampaignProgress, CampaignState, useLiveCampaigns } from './campaign-progress';

/** How many confirmed subscribers follow a topic (the ones a campaign would mail), and where the mail's links lead. */
export async function countFollowers(topic: NewsletterTopic): Promise<Pick<SubscriberList, 'total' | 'mailLinks'>> {
  const { total, mailLinks } = await subscribersApi.list({ state: 'confirmed', topic, pageSize: 1 });
  return { total, mailLinks };
}

/** The mail's HTML in its language's direction, unless it sets one itself. */
export function withDirection(html: string, lang: Lang): string {
  if (/<html\b[^>]*\sdir=/i.test(html)) return html;
  const attributes = ` lang="${lang}" dir="${directionOf(lang)}"`;
  return /<html\b/i.test(html) ? html.replace(/<html\b/i, `<html${attributes}`) : `<div${attributes}>${html}</div>`;
}

/** One language's mail: its subject, the HTML in a sandboxed frame (no scripts, no same origin), the text. */
function MailFrame({ lang, mail }: { lang: Lang; mail: MailPreview }) {
  const { t } = useI18n();
  const language = t(`translation.language.${lang}`);
  return (
    <section className="ao-mail-preview" aria-label={t('newsletter.previewIn', { language })}>
      <h3 className="ao-mail-language">{t('newsletter.previewIn', { language })}</h3>
      <p className="ao-mail-subject">{t('newsletter.subject', { subject: isolated(mail.subject) })}</p>
      <iframe
        className="ao-mail-frame"
        title={t('newsletter.previewIn', { language })}
        sandbox=""
        srcDoc={withDirection(mail.html, lang)}
      />
      <details className="ao-mail-text">
        <summary>{t('newsletter.plainText')}</summary>
        <pre lang={lang} dir={directionOf(lang)}>
          {mail.text}
        </pre>
      </details>
    </section>
  );
}

interface SendOfferModalProps {
  offer: NewsletterOffer;
  onClose: () => void;
  /** The offer is gone (sent or dismissed): the offers are asked for again. */
  onSettled: () => void;
}

/** The mail in each language, and how many it would go to; a failed preview says so once. */
function useOfferPreview(item: NewsletterItem) {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  const [preview, setPreview] = useState<Record<Lang, MailPreview> | null>(null);
  const [previewFailed, setPreviewFailed] = useState(false);
  /** null while counting; NaN when the count failed (the API still decides who gets it). */
  const [followers, setFollowers] = useState<number | null>(null);
  const [mailLinks, setMailLinks] = useState<SubscriberList['mailLinks']>();
  useEffect(() => {
    let current = true;
    newsletterApi.preview(item).then(
      (mails) => current && setPreview(mails),
      (error: unknown) => {
        if (!current) return;
        setPreviewFailed(true);
        handleError(error, { title: t('newsletter.previewFailed') });
      },
    );
    countFollowers(item.kind).then(
      (answer) => {
        if (!current) return;
        setFollowers(answer.total);
        setMailLinks(answer.mailLinks);
      },
      () => current && setFollowers(Number.NaN),
    );
    return () => {
      current = false;
    };
    // Asked once per offer; the handler and words do not make it ask again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [item]);
  return { preview, previewFailed, followers, mailLinks };
}

/** The dialog's three choices: a test, the campaign (then its live progress), or dismissing the offer. */
function useOfferActions(item: NewsletterItem, { onClose, onSettled }: Pick<SendOfferModalProps, 'onClose' | 'onSettled'>) {
  const { t } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const { user } = useSession();
  const [busy, setBusy] = useState<'test' | 'send' | 'dismiss' | null>(null);
  const [started, setStarted] = useState<Campaign[]>([]);
  const [live] = useLiveCampaigns(started);

  const act = async (which: 'test' | 'send' | 'dismiss', work: () => Promise<void>, failure: string) => {
    setBusy(which);
    try {
      await work();
    } catch (error) {
      handleError(error, { title: failure });
    } finally {
      setBusy(null);
    }
  };
  const sendTest = () =>
    act(
      'test',
      async () => {
        await newsletterApi.test(item);
        toast({ title: t('newsletter.testSent'), description: user ? t('newsletter.testSentHint', { email: user.email }) : undefined });
      },
      t('newsletter.testFailed'),
    );
  const send = () =>
    act(
      'send',
      async () => {
        setStarted([await newsletterApi.send(item)]);
        toast({ title: t('newsletter.started') });
        onSettled();
      },
      t('newsletter.sendFailed'),
    );
  const dismiss = () =>
    act(
      'dismiss',
      async () => {
        await newsletterApi.dismiss(item);
        toast({ title: t('newsletter.dismissed') });
        onSettled();
        onClose();
      },
      t('newsletter.dismissFailed'),
    );
  return { busy, live, sendTest, send, dismiss };
}

/**
 * 'Send to subscribers': the mail in each language, a test to the signed-in admin, then the
 * campaign only on 'Send to N subscribers' (and its progress), or 'Not this one' (dismiss).
 */
export function SendOfferModal({ offer, onClose, onSettled }: SendOfferModalProps) {
  const { t } = useI18n();
  const item = useMemo(() => ({ kind: offer.kind, id: offer.id }), [offer.kind, offer.id]);
  const { preview, previewFailed, followers, mailLinks } = useOfferPreview(item);
  const { busy, live, sendTest, send, dismiss } = useOfferActions(item, { onClose, onSettled });
  const sendLabel =
    followers === null
      ? t('newsletter.counting')
      : Number.isNaN(followers)
        ? t('newsletter.offerOpen')
        : followers === 1
          ? t('newsletter.sendOne')
          : t('newsletter.send', { count: followers });

  return (
    <Modal title={t('newsletter.modalTitle', { title: isolated(offer.title) })} onClose={onClose} size="large">
      {live ? (
        <div className="ao-campaign-live">
          <CampaignState campaign={live} />
          <CampaignProgress campaign={live} />
        </div>
      ) : (
        <>
          <MailLinksWarning mailLinks={mailLinks} />
          <p className="ao-note">{t('newsletter.note')}</p>
        </>
      )}
      {preview ? (
        <div className="ao-mail-previews">
          {LANGUAGES.map((lang) => preview[lang] && <MailFrame key={lang} lang={lang} mail={preview[lang]} />)}
        </div>
      ) : (
        !previewFailed && (
          <p role="status" className="ao-loading">
            {t('common.loading')}
          </p>
        )
      )}
      {!live && (
        <div className="ao-form-footer ao-newsletter-actions">
          {followers === 0 && <p className="ao-hint">{t('newsletter.nobody', { topic: t(`tabs.${offer.kind}`) })}</p>}
          <button type="button" className="ao-button ao-button-ghost" disabled={busy !== null} onClick={() => void dismiss()}>
            {t('newsletter.dismiss')}
          </button>
          <button type="button" className="ao-button ao-button-secondary" disabled={busy !== null} onClick={() => void sendTest()}>
            {busy === 'test' ? t('newsletter.testing') : t('newsletter.test')}
          </button>
          <button
            type="button"
            className="ao-button ao-button-primary"
            disabled={busy !== null || followers === null || followers === 0}
            onClick={() => void send()}
          >
            {busy === 'send' ? t('newsletter.sending') : sendLabel}
          </button>
        </div>
      )}
    </Modal>
  );
}
