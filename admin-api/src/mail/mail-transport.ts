import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

import { Inject, Injectable } from '@nestjs/common';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';

import { APP_CONFIG, type AppConfig } from '../config/config.js';

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

/** What the SMTP transaction logger hands over; only the server's answers are read. */
type LogEntry = { tnx?: string };

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
    if (mail.html || mail.headers) return this.toFile(await this.compose(mail));
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
   * Sends a mail whose end is withheld until `commit` has recorded it as sent (resolving true), so a
   * crash before that commit sends nothing and one after it does not send it again. SMTP takes a
   * message only when its DATA ends with CRLF.CRLF, which nodemailer writes when the message stream
   * ends (smtp-connection's DataStream, in _flush), and it reads the message only after the server
   * answered DATA with 354: the mail goes as `raw` through a stream that holds everything but its end;
   * on that 354 (seen in nodemailer's transaction log) `commit` runs, then the stream ends. If
   * `commit` resolves false (someone else holds the row now, or the reader left), the stream is
   * destroyed: the connection drops mid-DATA and the server discards the message
   * (DeliveryWithdrawn). A failure after the commit throws with `committed: true`, and `ended: true`
   * once the end went out: with the server's refusal (`responseCode`), or before the end, nothing
   * was taken and the caller undoes its commit; after the end without a refusal (a timeout, a
   * dropped connection) the server may have taken the mail.
   * Without SMTP_URL the file is written after the commit.
   */
  async deliverOnce(mail: Mail, commit: () => Promise<boolean>): Promise<OnceDelivery> {
    const message = await this.compose(mail);
    if (!this.config.mail.smtpUrl) {
      if (!(await commit())) throw new DeliveryWithdrawn();
      return { where: await this.toFile(message) };
    }
    const raw = new Readable({ read() {} });
    raw.push(message);
    let committing: Promise<void> | null = null;
    let failure: Error | null = null;
    let committed = false;
    let ended = false;
    let connectionFailed = false;
    const onServerAnswer = (entry: LogEntry, text: unknown) => {
      if (entry?.tnx !== 'server' || committing || !/^354/.test(String(text))) return;
      committing = commit().then(
        (ok) => {
          committed = ok;
          // A connection that failed while the commit ran never gets the end: the caller undoes its commit.
          if (ok && !connectionFailed) {
            ended = true;
            raw.push(null);
          } else if (ok) raw.destroy();
          else raw.destroy((failure = new DeliveryWithdrawn()));
        },
        (error: Error) => {
          raw.destroy((failure = error));
        },
      );
    };
    const quiet = () => undefined;
    const timeout = this.config.mail.timeoutMs;
    // One transport per mail (a connection per mail, as the shared one makes anyway), so its log is this mail's alone.
    const transport = nodemailer.createTransport({
      url: this.config.mail.smtpUrl,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      dnsTimeout: timeout,
      transactionLog: true,
      logger: { level: quiet, trace: quiet, info: quiet, warn: quiet, error: quiet, fatal: quiet, debug: onServerAnswer },
    } as Parameters<typeof nodemailer.createTransport>[0]);
    try {
      await transport.sendMail({ envelope: { from: this.envelopeFrom(mail), to: [mail.to] }, raw });
    } catch (error) {
      connectionFailed = true;
      await committing;
      // `ended`: the end of the message was handed over after the caller's commit, so the server may have it.
      throw Object.assign(failure ?? (error as Error), { committed, ended });
    } finally {
      transport.close();
    }
    return { where: 'by SMTP' };
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

  private envelopeFrom(mail: Mail): string {
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

export interface OnceDelivery {
  /** Where the mail went. */
  where: string;
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
