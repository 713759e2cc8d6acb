import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { Inject, Injectable } from '@nestjs/common';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';

import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MailLane } from './mail-lane.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to the text. */
  html?: string;
  /** A From other than MAIL_FROM (the newsletter's sender): `{name, address}`, encoded by nodemailer, never pasted into a header. */
  from?: { name: string; address: string };
  headers?: Record<string, string>;
  messageId?: string;
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
      await this.transport.sendMail({ ...mail, from: mail.from ?? this.config.mail.from });
      return 'by SMTP';
    }
    if (mail.html || mail.headers || mail.from) return this.toFile(await this.compose(mail));
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

  /**
   * A long-lived SMTP connection (without SMTP_URL: the mail folder) on which mails go one after
   * another; each sender worker holds one. See MailLane.deliverOnce for how a mail is withheld until the sender confirms it.
   */
  openLane(): MailLane {
    return new MailLane(this.config, (message) => this.toFile(message));
  }

  /** The whole message as it goes out: headers, text and HTML parts. */
  compose(mail: Mail): Promise<Buffer> {
    return new MailComposer({
      from: mail.from ?? this.config.mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      ...(mail.headers ? { headers: mail.headers } : {}),
      ...(mail.messageId ? { messageId: mail.messageId } : {}),
      date: new Date(),
    })
      .compile()
      .build();
  }

  envelopeFrom(mail: Mail): string {
    if (mail.from) return mail.from.address;
    const configured = this.config.mail.from;
    return /<([^>]+)>/.exec(configured)?.[1] ?? configured;
  }

  private async toFile(message: Buffer): Promise<string> {
    const dir = path.join(this.config.varDir, 'mail');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`);
    await writeFile(file, message, { mode: 0o600 });
    return `to ${file} (no SMTP_URL configured)`;
  }
}

export class DeliveryWithdrawn extends Error {
  constructor() {
    super('the mail was withdrawn before its end was sent');
    this.name = 'DeliveryWithdrawn';
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
