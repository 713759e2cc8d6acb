import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import nodemailer from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends through SMTP when SMTP_URL is set; otherwise writes the message to $VAR_DIR/mail/. */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');
  private readonly transport;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.transport = config.mail.smtpUrl ? nodemailer.createTransport(config.mail.smtpUrl) : null;
  }

  async send(mail: Mail): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.config.mail.from, ...mail });
      this.logger.log(`Sent "${mail.subject}" by SMTP`);
      return;
    }
    const dir = path.join(this.config.varDir, 'mail');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`);
    const body = [`From: ${this.config.mail.from}`, `To: ${mail.to}`, `Subject: ${mail.subject}`, `Date: ${new Date().toUTCString()}`, '', mail.text, ''];
    await writeFile(file, body.join('\r\n'), { mode: 0o600 });
    this.logger.log(`No SMTP_URL configured: wrote "${mail.subject}" to ${file}`);
  }
}
