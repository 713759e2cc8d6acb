import { imagePath, isWebLink } from '@portfolio/contract/rules';

/**
 * Small checks shared by the forms; the messages are the specification's (or the API's) English text.
 * The rules the API and the site apply too (web link, image path, review entry, password minimum)
 * come from @portfolio/contract/rules; these only say what is wrong.
 */

export const isBlank = (value: string) => value.trim() === '';

// The same shape the API accepts; the API decides in the end.
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());

export const isWholeNumber = (value: string) => /^-?\d+$/.test(value.trim());

/** An optional link: blank, or a web link (isWebLink). */
export const linkProblem = (value: string) => (isBlank(value) || isWebLink(value) ? undefined : 'Must be a link starting with http:// or https://');

/**
 * An optional image (kind 'image') or file (kind 'pdf') path: blank, or one the site loads
 * (imagePath). `data:`, `//other-host/x.jpg` or `javascript:` would be dropped by the site.
 */
export function filePathProblem(value: string, kind: 'image' | 'pdf' = 'image') {
  if (isBlank(value) || imagePath(value)) return undefined;
  return kind === 'pdf'
    ? 'The site cannot link this file. Use a link starting with http:// or https://, a path starting with /, or a file name.'
    : 'The site cannot show this image. Use a link starting with http:// or https://, a path starting with /, or a file name.';
}

/** Drops the fields without a problem, so `Object.keys(errors).length` counts the real ones. */
export function compact<T extends object>(errors: T): T {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as T;
}
