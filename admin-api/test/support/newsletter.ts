import type { ParsedMail } from 'mailparser';

import type { SmtpServer } from './mail.js';

/** A request that does not follow redirects (the newsletter's form posts and mail links answer 303). */
export async function rawRequest(
  base: string,
  method: string,
  path: string,
  options: { body?: string | FormData | URLSearchParams; headers?: Record<string, string> } = {},
) {
  const res = await fetch(base + path, { method, body: options.body, headers: options.headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export const form = (fields: Record<string, string | string[]>) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) params.append(name, v);
  return params;
};

export const recipientOf = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address ?? '';

/** The mails the server accepted for `address`, in order. */
export const mailsTo = (smtp: SmtpServer, address: string) => smtp.accepted.filter((m) => recipientOf(m) === address);

/** Waits for the `n`th accepted mail to `address` (1-based) and answers it. */
export async function nthMailTo(smtp: SmtpServer, address: string, n = 1): Promise<ParsedMail> {
  await smtp.until(() => mailsTo(smtp, address).length >= n, `mail #${n} to ${address}`);
  return mailsTo(smtp, address)[n - 1];
}

export function linkIn(text: string, pattern: RegExp): string {
  const match = text.match(pattern);
  if (!match) throw new Error(`no link ${pattern} in:\n${text}`);
  return match[0];
}

/** Polls a condition over HTTP (a campaign's progress): no sleep stands in for it. */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
