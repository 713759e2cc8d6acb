import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { Inject, Injectable } from '@nestjs/common';
import nodemailer from 'nodemailer';

import { APP_CONFIG, type AppConfig } from '../config/config.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Delivers one mail: through SMTP when SMTP_URL is set, otherwise as a file in $VAR_DIR/mail/.
 * Only the mail queue calls it, never a request handler, so a slow server delays nobody's answer.
 */
@Injectable()
export class MailTransport {
  private readonly transport;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const timeout = config.mail.timeoutMs;
    // Bounded steps, so a hung server cannot outlast the queue's claim on the mail.
    this.transport = config.mail.smtpUrl
      ? nodemailer.createTransport({
          url: config.mail.smtpUrl,
          connectionTimeout: timeout,
          greetingTimeout: timeout,
          socketTimeout: timeout,
          dnsTimeout: timeout,
        })
      : null;
  }

  /** Resolves with where the mail went; throws what the SMTP server or the disk said. */
  async deliver(mail: Mail): Promise<string> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.config.mail.from, ...mail });
      return 'by SMTP';
    }
    const dir = path.join(this.config.varDir, 'mail');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`);
    const body = [
      `From: ${this.config.mail.from}`,
      `To: ${mail.to}`,
      `Subject: ${mail.subject}`,
      `Date: ${new Date().toUTCString()}`,
      '',
      mail.text,
      '',
    ];
    await writeFile(file, body.join('\r\n'), { mode: 0o600 });
    return `to ${file} (no SMTP_URL configured)`;
  }
}

/**
 * A refusal that the same mail would get again (a 5xx answer to the sender, the recipient or the
 * message). Sign-in failures are not: they are fixed in SMTP_URL, after which the mail still goes.
 */
export function isPermanentFailure(error: unknown): boolean {
  const e = error as { permanent?: boolean; code?: string };
  return e?.permanent === true && e.code !== 'EAUTH';
}
