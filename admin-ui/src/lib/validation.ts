import type { MessageKey, MessageRef } from '@portfolio/contract/messages';
import { imagePath, isEmailAddress, isWebLink } from '@portfolio/contract/rules';

import type { Message } from '../i18n/message';

/**
 * Small checks shared by the forms; they answer with keys of @portfolio/contract/messages.
 * The rules the API and the site apply too (web link, image path, review entry, password minimum)
 * come from @portfolio/contract/rules; these only say what is wrong.
 */

export const isBlank = (value: string) => value.trim() === '';

// The same shape the API accepts; the API decides in the end.
export const isEmail = (value: string) => isEmailAddress(value);

export const isWholeNumber = (value: string) => /^-?\d+$/.test(value.trim());

/** An optional whole number: blank, or digits. Says so as the API does: '{field} must be a whole number'. */
export const wholeNumberProblem = (value: string, label: Extract<MessageKey, `label.${string}`>): MessageRef | undefined =>
  isBlank(value) || isWholeNumber(value) ? undefined : { key: 'validation.wholeNumber', params: { field: { key: label } } };

/** An optional link: blank, or a web link (isWebLink). */
export const linkProblem = (value: string): MessageKey | undefined => (isBlank(value) || isWebLink(value) ? undefined : 'validation.link');

/**
 * An optional image (kind 'image') or file (kind 'pdf') path: blank, or one the site loads
 * (imagePath). `data:`, `//other-host/x.jpg` or `javascript:` would be dropped by the site.
 */
export function filePathProblem(value: string, kind: 'image' | 'pdf' = 'image'): MessageKey | undefined {
  if (isBlank(value) || imagePath(value)) return undefined;
  return kind === 'pdf' ? 'validation.filePath' : 'validation.imagePath';
}

/** Drops the fields without a problem, so `Object.keys(errors).length` counts the real ones. */
export function compact<T extends Partial<Record<string, Message>>>(errors: T): T {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as T;
}
