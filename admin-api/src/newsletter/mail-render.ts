import { fieldFormat, formattedMailHtml, formattedPlainText } from '@portfolio/contract/formatted-text';
import { KINDS } from '@portfolio/contract/kinds';
import { dirOf, type Lang, LANGUAGE_INFO } from '@portfolio/contract/languages';
import { messageText } from '@portfolio/contract/messages';
import type { MailPreview, NewsletterTopic } from '@portfolio/contract/newsletter';
import { textFor, type Translatable } from '@portfolio/contract/translations';

/** The field under the title of each kind's mail, and its picture (the registry's image field). */
const SUMMARY: Record<NewsletterTopic, string> = { essays: 'excerpt', news: 'excerpt', books: 'description' };

export interface MailFrame {
  siteUrl: string;
  /** The settings' footer line in the reader's language, or null. */
  footer: string | null;
  /** The reader's preferences page (unsubscribe there). */
  manageUrl: string;
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** An address of the site as a link in a mail: absolute, under the reader's language prefix for pages. */
export function absoluteUrl(siteUrl: string, value: string): string {
  if (/^https?:\/\//i.test(value)) return value;
  return `${siteUrl}${value.startsWith('/') ? '' : '/'}${value}`;
}

export function pageUrl(siteUrl: string, kind: NewsletterTopic, id: number, lang: Lang): string {
  return `${siteUrl}${LANGUAGE_INFO[lang].prefix}${KINDS[kind].itemPages[0].path(id)}`;
}

const paragraphs = (text: string) =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);

/** The page around a mail's body: inline styles only (mail programs drop style sheets), no tracking of any kind. */
function page(lang: Lang, title: string, body: string): string {
  const dir = dirOf(lang);
  return [
    '<!doctype html>',
    `<html lang="${lang}" dir="${dir}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>`,
    `<body dir="${dir}" style="margin:0;padding:0;background:#f6f3ee;">`,
    `<div dir="${dir}" lang="${lang}" style="max-width:600px;margin:0 auto;padding:24px;background:#ffffff;color:#222222;font-family:Georgia,'Times New Roman',serif;font-size:17px;line-height:1.6;text-align:${dir === 'rtl' ? 'right' : 'left'};">`,
    body,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}

/** The campaign mail of one item in one reader's language: its translation there, else its own text in its own direction. */
export function renderItemMail(kind: NewsletterTopic, item: Record<string, unknown>, lang: Lang, frame: MailFrame): MailPreview {
  const translatable = item as unknown as Translatable;
  const title = textFor(kind, translatable, 'title', lang) ?? { text: '', lang };
  const summary = textFor(kind, translatable, SUMMARY[kind], lang);
  const image = item[KINDS[kind].image];
  const link = pageUrl(frame.siteUrl, kind, item.id as number, lang);
  const label = messageText(`mail.newsletterNew.${kind}`, lang);
  const subject = `${label}: ${title.text}`.replace(/[\r\n]+/g, ' ');
  const readOn = messageText(`mail.newsletterReadOn.${kind}`, lang);
  const manage = messageText('mail.newsletterManage', lang);
  const own = (shown: { lang: Lang }) => `lang="${shown.lang}" dir="${dirOf(shown.lang)}"`;

  const html: string[] = [`<p style="margin:0 0 8px;color:#7a6a55;font-size:14px;">${escapeHtml(label)}</p>`];
  html.push(`<h1 ${own(title)} style="margin:0 0 16px;font-size:26px;line-height:1.3;">${escapeHtml(title.text)}</h1>`);
  if (typeof image === 'string' && image.trim()) {
    const src = escapeHtml(absoluteUrl(frame.siteUrl, image.trim()));
    html.push(
      `<p style="margin:0 0 16px;"><img src="${src}" alt="${escapeHtml(title.text)}" width="552" style="max-width:100%;height:auto;border:0;"></p>`,
    );
  }
  const format = fieldFormat(kind, SUMMARY[kind], item);
  if (summary && format === 'markdown') {
    const footnotes = { heading: '', backLabel: messageText('mail.footnoteBack', summary.lang) };
    html.push(
      formattedMailHtml(summary.text, {
        format,
        layout: 'blank-lines',
        siteUrl: frame.siteUrl,
        lang: summary.lang,
        dir: dirOf(summary.lang),
        reader: lang,
        footnotes,
      }),
    );
  } else if (summary) {
    for (const p of paragraphs(summary.text)) html.push(`<p ${own(summary)} style="margin:0 0 16px;">${escapeHtml(p)}</p>`);
  }
  html.push(
    `<p style="margin:24px 0;"><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#5b3a29;color:#ffffff;text-decoration:none;border-radius:4px;">${escapeHtml(readOn)}</a></p>`,
  );
  html.push('<hr style="border:0;border-top:1px solid #e5ded3;margin:24px 0;">');
  if (frame.footer) html.push(`<p style="margin:0 0 8px;color:#7a6a55;font-size:14px;">${escapeHtml(frame.footer)}</p>`);
  html.push(
    `<p style="margin:0;font-size:14px;"><a href="${escapeHtml(frame.manageUrl)}" style="color:#5b3a29;">${escapeHtml(manage)}</a></p>`,
  );

  const text = [
    label,
    '',
    title.text,
    '',
    ...(summary
      ? [paragraphs(format === 'markdown' ? formattedPlainText(summary.text, format, true) : summary.text).join('\n\n'), '']
      : []),
    `${readOn}: ${link}`,
    '',
    '--',
    ...(frame.footer ? [frame.footer] : []),
    `${manage}: ${frame.manageUrl}`,
    '',
  ].join('\n');
  return { subject, html: page(lang, subject, html.join('\n')), text };
}

/** The double opt-in mail: one link, valid 48 hours; it names the site (the author's name and the address's host). */
export function renderConfirmMail(lang: Lang, confirmUrl: string, site: { name: string; host: string }): MailPreview {
  const subject = messageText('mail.newsletterConfirmSubject', lang);
  const body = messageText('mail.newsletterConfirmBody', lang, site);
  const ignore = messageText('mail.newsletterConfirmIgnore', lang);
  const html = [
    `<h1 style="margin:0 0 16px;font-size:24px;">${escapeHtml(subject)}</h1>`,
    `<p style="margin:0 0 16px;">${escapeHtml(body)}</p>`,
    `<p style="margin:0 0 24px;"><a href="${escapeHtml(confirmUrl)}" style="display:inline-block;padding:10px 18px;background:#5b3a29;color:#ffffff;text-decoration:none;border-radius:4px;">${escapeHtml(subject)}</a></p>`,
    `<p style="margin:0;color:#7a6a55;font-size:14px;">${escapeHtml(ignore)}</p>`,
  ].join('\n');
  return { subject, html: page(lang, subject, html), text: [body, '', confirmUrl, '', ignore, ''].join('\n') };
}
