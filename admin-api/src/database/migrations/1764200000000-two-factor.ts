import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';

/**
 * Two-factor sign-in: admin_totp (encrypted secret per admin), admin_recovery_codes (hashes) and
 * admin_login_challenges (password step passed, code awaited). QueryRunner table API: runs on
 * SQLite and MySQL/MariaDB.
 */
export class TwoFactor1764200000000 implements MigrationInterface {
  name = 'TwoFactor1764200000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    const datetime = (name: string, isNullable = false) => ({ name, type: 'datetime', isNullable, ...(mysql ? { precision: 3 } : {}) });
    const engine = mysql ? { engine: 'InnoDB' } : {};
    const userFk = (table: string) =>
      qr.createForeignKey(
        table,
        new TableForeignKey({
          name: `FK_${table}_userId`,
          columnNames: ['userId'],
          referencedTableName: 'admin_users',
          referencedColumnNames: ['id'],
          onDelete: 'CASCADE',
        }),
      );

    await qr.createTable(
      new Table({
        name: 'admin_totp',
        columns: [
          { name: 'userId', type: 'int', isPrimary: true },
          { name: 'totpSecret', type: 'varchar', length: '255' },
          datetime('enabledAt', true),
          { name: 'lastUsedStep', type: 'int', isNullable: true },
          datetime('createdAt'),
          datetime('updatedAt'),
        ],
        ...engine,
      }),
    );
    await userFk('admin_totp');

    await qr.createTable(
      new Table({
        name: 'admin_recovery_codes',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'userId', type: 'int' },
          { name: 'codeHash', type: 'varchar', length: '64' },
          datetime('usedAt', true),
          datetime('createdAt'),
        ],
        indices: [{ name: 'IDX_admin_recovery_codes_userId_codeHash', columnNames: ['userId', 'codeHash'] }],
        ...engine,
      }),
    );
    await userFk('admin_recovery_codes');

    await qr.createTable(
      new Table({
        name: 'admin_login_challenges',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'userId', type: 'int' },
          datetime('expiresAt'),
          datetime('createdAt'),
        ],
        indices: [
          { name: 'IDX_admin_login_challenges_userId', columnNames: ['userId'] },
          { name: 'IDX_admin_login_challenges_expiresAt', columnNames: ['expiresAt'] },
        ],
        ...engine,
      }),
    );
    await userFk('admin_login_challenges');
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('admin_login_challenges');
    await qr.dropTable('admin_recovery_codes');
    await qr.dropTable('admin_totp');
  }
}
