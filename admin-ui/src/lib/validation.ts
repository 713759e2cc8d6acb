/** Small checks shared by the forms; the messages are the specification's (or the API's) English text. */

export const PASSWORD_MIN_LENGTH = 6;

export const isBlank = (value: string) => value.trim() === '';

// The same shape the API accepts; the API decides in the end.
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());

export const isWholeNumber = (value: string) => /^-?\d+$/.test(value.trim());

export const isLink = (value: string) => {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** An optional link: blank, or http(s). */
export const linkProblem = (value: string) => (isBlank(value) || isLink(value) ? undefined : 'Must be a link starting with http:// or https://');

/** Drops the fields without a problem, so `Object.keys(errors).length` counts the real ones. */
export function compact<T extends object>(errors: T): T {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as T;
}
