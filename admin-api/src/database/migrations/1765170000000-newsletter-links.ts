import { randomBytes } from 'node:crypto';

import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';

/**
 * Issue 32: newsletter links are bound to a random nonce kept in the reader's row (a new row, even
 * one that takes an old id after a restore, never shares it), and mails queued for a reader carry the
 * newsletter's sender. QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class NewsletterLinks1765170000000 implements MigrationInterface {
  name = 'NewsletterLinks1765170000000';

  async up(qr: QueryRunner): Promise<void> {
    // Nullable so that rows of an older backup load; the restore gives them a nonce (fillLinkNonces).
    await qr.addColumn('newsletter_subscribers', new TableColumn({ name: 'linkNonce', type: 'varchar', length: '32', isNullable: true }));
    await fillLinkNonces(qr);
    await qr.addColumns('mail_queue', [
      new TableColumn({ name: 'fromName', type: 'varchar', length: '200', isNullable: true }),
      new TableColumn({ name: 'fromAddress', type: 'varchar', length: '254', isNullable: true }),
    ]);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn('mail_queue', 'fromAddress');
    await qr.dropColumn('mail_queue', 'fromName');
    await qr.dropColumn('newsletter_subscribers', 'linkNonce');
  }
}

/** Every reader without a link nonce gets one (rows from before this migration, or from an older backup). */
export async function fillLinkNonces(runner: { query: (sql: string, params?: unknown[]) => Promise<unknown> }): Promise<void> {
  const rows = (await runner.query('SELECT id FROM newsletter_subscribers WHERE linkNonce IS NULL')) as { id: number | string }[];
  for (const row of rows)
    await runner.query('UPDATE newsletter_subscribers SET linkNonce = ? WHERE id = ? AND linkNonce IS NULL', [
      randomBytes(16).toString('base64url'),
      Number(row.id),
    ]);
}
