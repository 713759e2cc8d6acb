import { EventEmitter, once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

import { stopOnce } from './harness.js';

/** The token of the reset link in a mail's text. */
export function resetTokenIn(text: string): string {
  const match = text.match(/#reset-password=([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no reset link in the mail:\n${text}`);
  return match[1];
}

/** The mails an API without SMTP_URL writes to $VAR_DIR/mail/, each read once, in order; waits for the next. */
export function mailFolder(varDir: string) {
  const dir = path.join(varDir, 'mail');
  const seen = new Set<string>();
  return {
    async next(timeoutMs = 15_000): Promise<string> {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
        const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => !seen.has(f)).sort();
        if (!files.length) continue;
        const text = await readFile(path.join(dir, files[0]), 'utf8');
        // Written in one go, but seen possibly before the write ended.
        if (!text.endsWith('\r\n')) continue;
        seen.add(files[0]);
        return text;
      }
      throw new Error(`no new mail in ${dir} within ${timeoutMs} ms`);
    },
  };
}

/** What the test SMTP server answers to a message: nothing to accept it, or a refusal. */
export type SmtpAnswer = void | { code: number; message: string };

export interface SmtpServer {
  url: string;
  /** Every message the server received in full, accepted or not, in order. */
  received: ParsedMail[];
  /** The messages it accepted (250), in order. */
  accepted: ParsedMail[];
  /** How many connections clients opened to it. */
  readonly connections: number;
  /** Resolves once `condition` holds, checked after every message received or answered. */
  until(condition: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback (no TLS, no sign-in). Each message is read in full and parsed,
 * then `answer` decides (and may take its time, like a real server: 0.4 s by default).
 */
export async function startSmtp(
  answer: (mail: ParsedMail, index: number) => Promise<SmtpAnswer> = () => new Promise((r) => setTimeout(r, 400)),
): Promise<SmtpServer> {
  const received: ParsedMail[] = [];
  const accepted: ParsedMail[] = [];
  const events = new EventEmitter();
  let connections = 0;
  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    // A reverse DNS lookup per connection takes up to 1.5 s where no resolver answers for loopback.
    disableReverseLookup: true,
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        async (mail) => {
          const index = received.push(mail) - 1;
          events.emit('change');
          const refusal = await answer(mail, index);
          if (refusal) {
            callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
          } else {
            accepted.push(mail);
            callback(null, 'Queued');
          }
          events.emit('change');
        },
        (error) => callback(error),
      );
    },
  });
  server.on('error', () => undefined);
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  const close = stopOnce(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    accepted,
    get connections() {
      return connections;
    },
    until(condition, what, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          events.off('change', check);
        };
        const check = () => {
          if (!condition()) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${what} (received ${received.length}, accepted ${accepted.length})`));
        }, timeoutMs);
        events.on('change', check);
        check();
      });
    },
    close,
  };
}
