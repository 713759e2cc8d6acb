import { dirOf, type Lang, LANGUAGES } from '@portfolio/contract/languages';
import { NEWSLETTER_TOPICS } from '@portfolio/contract/newsletter';

import { type Key, t } from '../i18n';
import { escapeHtml } from './lang';

/** Where the form posts (a plain form: the API answers 303 to the check-inbox or error page of `lang`). */
export const SUBSCRIBE_ACTION = '/api/newsletter/subscribe';

/** The form in one language: its texts, the mail language preselected, and `lang` naming the page's language. */
function formIn(lang: Lang, id: string, shownBy: boolean, title: Key): string {
  const p = `${id}-${lang}`;
  const x = (key: Key) => escapeHtml(t(lang, key));
  const languages = LANGUAGES.map(
    (l) => `<option value="${l}"${l === lang ? ' selected' : ''}>${x(`newsletter.language.${l}`)}</option>`,
  ).join('');
  const topics = NEWSLETTER_TOPICS.map(
    (topic) =>
      `<label class="newsletter-topic"><input type="checkbox" name="topics" value="${topic}" checked> ${x(`newsletter.topic.${topic}`)}</label>`,
  ).join('');
  return (
    `<form class="newsletter-form" method="post" action="${SUBSCRIBE_ACTION}" aria-labelledby="${p}-title"` +
    `${shownBy ? ` data-lang="${lang}"` : ''} lang="${lang}" dir="${dirOf(lang)}">` +
    `<div class="newsletter-intro"><h2 class="newsletter-title" id="${p}-title">${x(title)}</h2>` +
    `<p class="newsletter-lead">${x('newsletter.lead')}</p></div>` +
    `<div class="newsletter-fields">` +
    `<div class="newsletter-field newsletter-email"><label for="${p}-email">${x('newsletter.email')}</label>` +
    `<input id="${p}-email" type="email" name="email" required maxlength="254" autocomplete="email" dir="auto"></div>` +
    `<div class="newsletter-field"><label for="${p}-language">${x('newsletter.language')}</label>` +
    `<select id="${p}-language" name="language">${languages}</select></div>` +
    `<fieldset class="newsletter-topics"><legend>${x('newsletter.topics')}</legend>${topics}</fieldset>` +
    // A trap for bots: people never see it, screen readers skip it; a bot that fills it is answered as if subscribed.
    `<div class="newsletter-website" aria-hidden="true"><label for="${p}-website">${x('newsletter.website')}</label>` +
    `<input id="${p}-website" type="text" name="website" tabindex="-1" autocomplete="off"></div>` +
    `<input type="hidden" name="lang" value="${lang}">` +
    `<button class="button newsletter-submit" type="submit">${x('newsletter.subscribe')}</button>` +
    `</div></form>`
  );
}

/**
 * The subscribe form: a plain HTML form that works without JavaScript and adds none. A page in a
 * fixed language (/ar/…) has one form in that language. On the specification's addresses the reader's
 * language is chosen in the browser, so there is one form per language, CSS showing the one that
 * matches <html lang> (as for every UI text): only the shown form can be sent, so its preselected mail
 * language and its `lang` are the shown language's, without a script. `id` makes its ids unique on the page;
 * `title` names the form (two forms on one page need different names: each is a landmark).
 */
export function newsletterFormHtml(fixed: Lang | null, id: string, title: Key = 'newsletter.title'): string {
  return fixed ? formIn(fixed, id, false, title) : LANGUAGES.map((lang) => formIn(lang, id, true, title)).join('');
}
