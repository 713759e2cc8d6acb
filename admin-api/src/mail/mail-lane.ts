import { Readable } from 'node:stream';

import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

import type { AppConfig } from '../config/config.js';
import { DeliveryWithdrawn } from './mail-transport.js';

/** A composed message and its envelope. */
export interface OutgoingMessage {
  from: string;
  to: string;
  message: Buffer;
}

type Options = ReturnType<typeof parseConnectionUrl> & Record<string, unknown>;

/**
 * One SMTP connection kept open while mails go out on it one after another (the newsletter's
 * sender holds NEWSLETTER_CONCURRENCY of them), opened again when it drops or idles out. Without
 * SMTP_URL each mail becomes a file in $VAR_DIR/mail/.
 */
export class MailLane {
  private connection: SMTPConnection | null = null;
  /** After a refusal the server's transaction may still be open: RSET before the next mail. */
  private needsReset = false;

  constructor(
    private readonly config: AppConfig,
    private readonly toFile: (message: Buffer) => Promise<string>,
  ) {}

  /**
   * Sends a mail whose end is withheld until `commit` has confirmed it may go (the sender checks its
   * claim on the row and that the reader is still subscribed, resolving true), and resolves once the
   * server has accepted it. SMTP takes a
   * message only when its DATA ends with CRLF.CRLF, which nodemailer's SMTPConnection writes when the
   * message stream ends (DataStream's _flush), and it starts reading that stream only once the server
   * answered DATA with 354 (send → _setEnvelope → _actionDATA → pipe): the stream's first read is
   * the signal. The bytes go out, `commit` runs, then the stream ends. If `commit` resolves false
   * (someone else holds the row now, or the reader left), the stream is destroyed and the connection
   * dropped mid-DATA: the server discards the message (DeliveryWithdrawn). A failure after the
   * commit throws with `committed: true`, and `ended: true` once the end went out: with the server's
   * refusal (`responseCode`), or before the end, nothing was taken; after the end without a refusal
   * (a timeout, a dropped connection) the server may have taken it.
   */
  async deliverOnce(out: OutgoingMessage, commit: () => Promise<boolean>): Promise<string> {
    if (!this.config.mail.smtpUrl) {
      if (!(await commit())) throw new DeliveryWithdrawn();
      return this.toFile(out.message);
    }
    const connection = await this.ready();
    let committing: Promise<void> | null = null;
    let failure: Error | null = null;
    let committed = false;
    let ended = false;
    let connectionFailed = false;
    const raw = new Readable({
      read() {
        if (committing) return;
        raw.push(out.message);
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
      },
    });
    try {
      await new Promise<void>((resolve, reject) =>
        connection.send({ from: out.from, to: [out.to] }, raw, (error) => (error ? reject(error) : resolve())),
      );
    } catch (error) {
      connectionFailed = true;
      await committing;
      // A refusal leaves the session usable; anything else mid-DATA must drop it so the server discards the message.
      if (
        !failure &&
        (!committing || ended) &&
        typeof (error as { responseCode?: unknown }).responseCode === 'number' &&
        !connection.destroyed
      )
        this.needsReset = true;
      else this.drop(connection);
      throw Object.assign(failure ?? (error as Error), { committed, ended });
    }
    return 'by SMTP';
  }

  /** Says goodbye to the server (the lane opens a new connection if used again). */
  close() {
    const connection = this.connection;
    this.connection = null;
    if (connection && !connection.destroyed) connection.quit();
  }

  private drop(connection: SMTPConnection) {
    if (this.connection === connection) this.connection = null;
    connection.close();
  }

  private async ready(): Promise<SMTPConnection> {
    const current = this.connection;
    if (current && !current.destroyed && this.needsReset) {
      this.needsReset = false;
      const reset = await new Promise<boolean>((resolve) => current.reset((error) => resolve(!error)));
      if (reset) return current;
      this.drop(current);
    } else if (current && !current.destroyed) return current;
    this.needsReset = false;
    this.connection = await this.connect();
    return this.connection;
  }

  /** Connects as nodemailer's SMTP transport does from SMTP_URL: TLS, STARTTLS and credentials from the URL. */
  private connect(): Promise<SMTPConnection> {
    const timeout = this.config.mail.timeoutMs;
    const options: Options = {
      // Bounded steps, so a hung server cannot outlast the sender's claim on the mail.
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      dnsTimeout: timeout,
      ...parseConnectionUrl(this.config.mail.smtpUrl!),
    };
    const connection = new SMTPConnection(options);
    // Errors also reach the callback of the step in progress; a dead connection is replaced on next use.
    connection.on('error', () => undefined);
    connection.once('end', () => {
      if (this.connection === connection) this.connection = null;
    });
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => {
        connection.close();
        reject(error);
      };
      connection.once('error', fail);
      connection.connect((error) => {
        if (error) return fail(error);
        const auth = options.auth as { user: string; pass: string } | undefined;
        const done = (error?: Error | null) => {
          connection.off('error', fail);
          if (error) fail(error);
          else resolve(connection);
        };
        if (auth && (connection.allowsAuth || options.forceAuth)) connection.login(auth, (e) => done(e));
        else done();
      });
    });
  }
}
