import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * The newsletter (issue 25): subscribers, campaigns with one delivery row per recipient, the offers
 * of items that went live, the sender's settings, and an HTML part for queued mails. No tokens are
 * stored: links carry an HMAC (newsletter/tokens.ts). QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class Newsletter1764900000000 implements MigrationInterface {
  name = 'Newsletter1764900000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    const engine = mysql ? { engine: 'InnoDB' } : {};
    const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };
    await qr.createTable(
      new Table({
        name: 'newsletter_subscribers',
        columns: [
          id,
          { name: 'email', type: 'varchar', length: '254' },
          { name: 'language', type: 'varchar', length: '8' },
          { name: 'topics', type: 'varchar', length: '200' },
          { name: 'state', type: 'varchar', length: '20' },
          { name: 'createdAt', type: 'bigint' },
          { name: 'pendingSince', type: 'bigint', isNullable: true },
          { name: 'confirmMailAt', type: 'bigint', isNullable: true },
          { name: 'confirmedAt', type: 'bigint', isNullable: true },
          { name: 'unsubscribedAt', type: 'bigint', isNullable: true },
          { name: 'permanentFailures', type: 'int', default: 0 },
          { name: 'linkGeneration', type: 'int', default: 0 },
        ],
        uniques: [{ name: 'UQ_newsletter_subscribers_email', columnNames: ['email'] }],
        indices: [{ name: 'IDX_newsletter_subscribers_state', columnNames: ['state'] }],
        ...engine,
      }),
    );
    await qr.createTable(
      new Table({
        name: 'newsletter_campaigns',
        columns: [
          id,
          { name: 'kind', type: 'varchar', length: '20' },
          { name: 'itemId', type: 'int' },
          { name: 'title', type: 'varchar', length: '500' },
          { name: 'state', type: 'varchar', length: '20' },
          { name: 'createdAt', type: 'bigint' },
          { name: 'createdByUserId', type: 'int', isNullable: true },
          { name: 'finishedAt', type: 'bigint', isNullable: true },
          { name: 'total', type: 'int' },
          { name: 'nextSlotAt', type: 'bigint', default: 0 },
        ],
        uniques: [{ name: 'UQ_newsletter_campaigns_item', columnNames: ['kind', 'itemId'] }],
        ...engine,
      }),
    );
    await qr.createTable(
      new Table({
        name: 'newsletter_deliveries',
        columns: [
          id,
          { name: 'campaignId', type: 'int' },
          { name: 'subscriberId', type: 'int' },
          { name: 'state', type: 'varchar', length: '20' },
          { name: 'dueAt', type: 'bigint' },
          { name: 'claimedBy', type: 'varchar', length: '100', isNullable: true },
          { name: 'attempts', type: 'int', default: 0 },
          { name: 'sentAt', type: 'bigint', isNullable: true },
          { name: 'lastError', type: 'varchar', length: '500', isNullable: true },
        ],
        uniques: [{ name: 'UQ_newsletter_deliveries_one', columnNames: ['campaignId', 'subscriberId'] }],
        indices: [
          { name: 'IDX_newsletter_deliveries_state_due', columnNames: ['state', 'dueAt'] },
          { name: 'IDX_newsletter_deliveries_subscriber', columnNames: ['subscriberId'] },
          { name: 'IDX_newsletter_deliveries_campaign_state', columnNames: ['campaignId', 'state'] },
        ],
        ...engine,
      }),
    );
    await qr.createTable(
      new Table({
        name: 'newsletter_offers',
        columns: [
          id,
          { name: 'kind', type: 'varchar', length: '20' },
          { name: 'itemId', type: 'int' },
          { name: 'liveAt', type: 'bigint' },
          { name: 'state', type: 'varchar', length: '20' },
        ],
        uniques: [{ name: 'UQ_newsletter_offers_item', columnNames: ['kind', 'itemId'] }],
        ...engine,
      }),
    );
    await qr.addColumns('site_settings', [
      new TableColumn({ name: 'newsletterSenderName', type: 'varchar', length: '200', isNullable: true }),
      new TableColumn({ name: 'newsletterSenderAddress', type: 'varchar', length: '254', isNullable: true }),
      new TableColumn({ name: 'newsletterFooterEn', type: 'varchar', length: '1000', isNullable: true }),
      new TableColumn({ name: 'newsletterFooterAr', type: 'varchar', length: '1000', isNullable: true }),
    ]);
    await qr.addColumn('mail_queue', new TableColumn({ name: 'html', type: mysql ? 'mediumtext' : 'text', isNullable: true }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn('mail_queue', 'html');
    for (const c of ['newsletterSenderName', 'newsletterSenderAddress', 'newsletterFooterEn', 'newsletterFooterAr'])
      await qr.dropColumn('site_settings', c);
    for (const t of ['newsletter_offers', 'newsletter_deliveries', 'newsletter_campaigns', 'newsletter_subscribers']) await qr.dropTable(t);
  }
}
