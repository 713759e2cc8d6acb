import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { type Lang, LANGUAGES } from '@portfolio/contract/languages';
import { messageText } from '@portfolio/contract/messages';
import {
  NEWSLETTER_TOPICS,
  type NewsletterTopic,
  type Subscriber as SubscriberAnswer,
  type SubscriberImportResult,
  type SubscriberList,
  type SubscriberState,
} from '@portfolio/contract/newsletter';
import { parse as parseCsv } from 'csv-parse/sync';
import { type FindOptionsWhere, In, Like, Raw } from 'typeorm';

import { refusal } from '../common/api-message.js';
import { portable, run } from '../common/lease.js';
import { Db, insertRows } from '../database/db.service.js';
import { Subscriber } from './entities.js';
import { NewsletterContext } from './newsletter-context.js';
import { checkEmail, checkLanguage, checkTopics } from './public.service.js';
import { newLinkNonce } from './tokens.js';

const STATES: SubscriberState[] = ['pending', 'confirmed', 'unsubscribed', 'paused'];
/** Addresses looked up and inserted at once by the CSV import. */
const IMPORT_CHUNK = 500;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const subscriberAnswer = (row: Subscriber): SubscriberAnswer => ({
  id: row.id,
  email: row.email,
  language: row.language,
  topics: row.topics,
  state: row.state,
  createdAt: iso(row.createdAt)!,
  confirmedAt: iso(row.confirmedAt),
  unsubscribedAt: iso(row.unsubscribedAt),
  permanentFailures: row.permanentFailures,
});

/** A CSV field: quoted when it must be, and never read as a formula by a spreadsheet. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Whether a URL names this computer: links to it in a mail lead nowhere for readers. */
export function isLocalAddress(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return true;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1' || host === '0.0.0.0';
}

/** The file's rows with their line numbers (RFC 4180: quoted fields may hold commas, quotes, line breaks), or a 400. */
function readCsv(file: Buffer | undefined): { cells: string[]; line: number }[] {
  if (!file) return [];
  try {
    return (
      parseCsv(file, {
        bom: true,
        info: true,
        relax_column_count: true,
        skip_empty_lines: true,
        record_delimiter: ['\r\n', '\n', '\r'],
      }) as unknown as { record: string[]; info: { lines: number } }[]
    ).map(({ record, info }) => ({ cells: record, line: info.lines }));
  } catch (error) {
    const line = Number((error as { lines?: number }).lines) || 1;
    throw new BadRequestException(refusal('error.newsletterCsvInvalid', { params: { line }, field: 'file' }));
  }
}

/** The admin's side of the subscribers: the list, removal on request, and CSV out and in. */
@Injectable()
export class SubscribersService {
  constructor(
    private readonly db: Db,
    private readonly context: NewsletterContext,
  ) {}

  async list(query: {
    search?: string;
    state?: string;
    language?: string;
    topic?: string;
    page?: number;
    pageSize?: number;
  }): Promise<SubscriberList> {
    const page = Math.max(1, Math.floor(Number(query.page) || 1));
    const pageSize = Math.min(200, Math.max(1, Math.floor(Number(query.pageSize) || 50)));
    const where: FindOptionsWhere<Subscriber> = {};
    if (query.search?.trim())
      where.email = Like(
        `%${query.search
          .trim()
          .toLowerCase()
          .replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      );
    if (query.state) {
      if (!STATES.includes(query.state as SubscriberState))
        throw new BadRequestException(refusal('validation.invalidBody', { field: 'state' }));
      where.state = query.state as SubscriberState;
    }
    if (query.language) where.language = checkLanguage(query.language, null);
    if (query.topic) {
      if (!NEWSLETTER_TOPICS.includes(query.topic as NewsletterTopic))
        throw new BadRequestException(refusal('validation.invalidBody', { field: 'topic' }));
      // Topics are stored as 'essays,news,books'; no topic's name is part of another's, so a substring match is exact.
      where.topics = Raw((column) => `${column} LIKE :topic`, { topic: `%${query.topic}%` });
    }
    const [rows, total] = await this.db.manager.findAndCount(Subscriber, {
      where,
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
    const byState = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<SubscriberState, number>;
    const byLanguage = Object.fromEntries(LANGUAGES.map((l) => [l, 0])) as Record<Lang, number>;
    const q = (sql: string) => portable(this.db, sql);
    for (const r of (await this.db.manager.query(q('SELECT "state", COUNT(*) AS "n" FROM "newsletter_subscribers" GROUP BY "state"'))) as {
      state: SubscriberState;
      n: string | number;
    }[]) {
      if (r.state in byState) byState[r.state] = Number(r.n);
    }
    for (const r of (await this.db.manager.query(
      q(`SELECT "language", COUNT(*) AS "n" FROM "newsletter_subscribers" WHERE "state" = 'confirmed' GROUP BY "language"`),
    )) as { language: Lang; n: string | number }[]) {
      if (r.language in byLanguage) byLanguage[r.language] = Number(r.n);
    }
    const { siteUrl } = await this.context.mailSettings();
    return {
      items: rows.map(subscriberAnswer),
      total,
      page,
      pageSize,
      counts: { byState, byLanguage },
      mailLinks: { base: siteUrl, local: isLocalAddress(siteUrl) },
    };
  }

  /** Removal on request: the row and every delivery row naming it (their links then lead nowhere). */
  async remove(id: number): Promise<void> {
    const removed = await this.db.write(async (m) => {
      await run(m, portable(this.db, 'DELETE FROM "newsletter_deliveries" WHERE "subscriberId" = ?'), [id]);
      return run(m, portable(this.db, 'DELETE FROM "newsletter_subscribers" WHERE "id" = ?'), [id]);
    });
    if (!removed) throw new NotFoundException(refusal('error.subscriberNotFound'));
  }

  async exportCsv(): Promise<string> {
    const rows = await this.db.manager.find(Subscriber, { order: { id: 'ASC' } });
    const lines = ['email,language,topics,state,createdAt,confirmedAt'];
    for (const row of rows) {
      const a = subscriberAnswer(row);
      lines.push([a.email, a.language, a.topics.join(' '), a.state, a.createdAt, a.confirmedAt ?? ''].map(csvField).join(','));
    }
    return `${lines.join('\r\n')}\r\n`;
  }

  /**
   * Imported addresses are confirmed (the admin vouches for everyone's consent); an address already
   * there is confirmed, not duplicated, and keeps the language and topics its reader chose (the file's
   * are for new readers only); a reader who unsubscribed stays unsubscribed.
   */
  async importCsv(file: Buffer | undefined, consent: unknown): Promise<SubscriberImportResult> {
    if (consent !== 'true' && consent !== true)
      throw new BadRequestException(refusal('error.newsletterConsentRequired', { field: 'consent' }));
    const rows = readCsv(file);
    const header = (rows[0]?.cells ?? []).map((h) => h.trim().toLowerCase());
    const col = { email: header.indexOf('email'), language: header.indexOf('language'), topics: header.indexOf('topics') };
    if (col.email < 0) throw new BadRequestException(refusal('error.newsletterFileRequired', { field: 'file' }));
    const result: SubscriberImportResult = { created: 0, updated: 0, skipped: 0, errors: [] };
    const wanted = new Map<string, { language?: Lang; topics?: NewsletterTopic[] }>();
    for (let i = 1; i < rows.length; i++) {
      const { cells, line } = rows[i];
      if (cells.every((c) => !c.trim())) continue;
      try {
        const email = checkEmail(cells[col.email]);
        if (wanted.has(email)) {
          result.skipped++;
          continue;
        }
        wanted.set(email, {
          ...(col.language >= 0 && cells[col.language]?.trim() ? { language: checkLanguage(cells[col.language].trim(), null) } : {}),
          ...(col.topics >= 0 && cells[col.topics]?.trim()
            ? {
                topics: checkTopics(
                  cells[col.topics]
                    .trim()
                    .split(/[\s,;|]+/)
                    .filter(Boolean),
                  [...NEWSLETTER_TOPICS],
                ),
              }
            : {}),
        });
      } catch (error) {
        const answer = (error as BadRequestException).getResponse() as { message: string };
        result.errors.push({ line, message: answer.message ?? messageText('validation.emailInvalid', 'en') });
        result.skipped++;
      }
    }
    // One transaction (all or nothing), a chunk of addresses at a time: one lookup and one INSERT per chunk.
    const emails = [...wanted.keys()];
    await this.db.write(async (m) => {
      const now = Date.now();
      for (let i = 0; i < emails.length; i += IMPORT_CHUNK) {
        const chunk = emails.slice(i, i + IMPORT_CHUNK);
        const known = new Map((await m.findBy(Subscriber, { email: In(chunk) })).map((row) => [row.email, row]));
        const fresh: Partial<Subscriber>[] = [];
        for (const email of chunk) {
          const { language, topics } = wanted.get(email)!;
          const row = known.get(email);
          if (row?.state === 'unsubscribed') result.skipped++;
          else if (row) {
            await m.update(Subscriber, { id: row.id }, { state: 'confirmed', pendingSince: null, confirmedAt: row.confirmedAt ?? now });
            result.updated++;
          } else {
            fresh.push({
              email,
              language: language ?? 'en',
              topics: topics ?? [...NEWSLETTER_TOPICS],
              state: 'confirmed',
              createdAt: now,
              confirmedAt: now,
              pendingSince: null,
              confirmMailAt: null,
              unsubscribedAt: null,
              permanentFailures: 0,
              linkGeneration: 1,
              linkNonce: newLinkNonce(),
            });
            result.created++;
          }
        }
        await insertRows(m, Subscriber, fresh);
      }
    });
    return result;
  }
}
