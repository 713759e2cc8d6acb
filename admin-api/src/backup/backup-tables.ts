import { CONTENT_KINDS } from '@portfolio/contract/kinds';
import type { DataSource } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata.js';

/**
 * What a backup takes from each table of the schema (TypeORM's entity metadata, i.e. ENTITIES in
 * database/data-source.ts). Every table must be named here, either kept or left out with a reason:
 * a new entity nobody classified makes backups fail (and test/backup.spec.ts fails first), so a
 * table of secrets can never slip into an archive by default, nor a table of content out of it.
 */
export type TablePolicy =
  | {
      keep: true;
      /** Columns left out (what signs in). */
      secretColumns?: string[];
      /**
       * A table that holds sign-in material: only these columns are taken, any other one is left
       * out (a column added later is treated as secret until it is listed here).
       */
      onlyColumns?: string[];
    }
  | { keep: false; why: string };

export const BACKUP_TABLES: Record<string, TablePolicy> = {
  admin_users: {
    keep: true,
    onlyColumns: ['id', 'username', 'email', 'name', 'isActive', 'isSuperadmin', 'createdAt', 'updatedAt'],
    secretColumns: ['passwordHash'],
  },
  // Each content kind's table is named as the kind.
  ...Object.fromEntries(CONTENT_KINDS.map((kind) => [kind, { keep: true }])),
  contacts: { keep: true },
  content_revisions: { keep: true },
  /** The author's details shown on the site (name, biography, portrait, links). */
  site_settings: { keep: true },
  /** Readers of the newsletter and what was sent to them; their links are HMACs, so no token is stored anywhere. */
  newsletter_subscribers: { keep: true },
  newsletter_campaigns: { keep: true },
  newsletter_deliveries: { keep: true },
  newsletter_offers: { keep: true },
  /** Which imported item came from which source item: a re-import after a restore still updates, never duplicates. */
  imported_items: { keep: true },
  admin_sessions: { keep: false, why: 'sign-in sessions' },
  password_reset_tokens: { keep: false, why: 'password reset tokens' },
  admin_totp: { keep: false, why: 'two-factor secrets' },
  admin_recovery_codes: { keep: false, why: 'two-factor recovery codes' },
  admin_login_challenges: { keep: false, why: 'sign-in challenges between the password and the code' },
  outbox_events: { keep: false, why: 'the publishing queue: a restore queues its own rebuild' },
  publish_attempts: { keep: false, why: 'the log of rebuild requests of this installation' },
  backup_state: { keep: false, why: 'the schedule and lease of backups of this installation' },
  mail_queue: { keep: false, why: 'mails waiting to be sent, reset links included' },
  image_variant_jobs: { keep: false, why: 'derived files being made; a restore queues its images again, so their variants are made anew' },
  import_jobs: { keep: false, why: 'imports in progress; their uploaded files stay in $VAR_DIR/imports of this installation' },
};

/** Column names that look like sign-in material: a kept table may not hold one unless it is listed. */
export const SECRET_LOOKING = /password|secret|token|totp|recovery|otp|hash/i;

export interface TablePlan {
  table: string;
  metadata: EntityMetadata;
  columns: ColumnMetadata[];
}

export class UnclassifiedTableError extends Error {
  constructor(readonly tables: string[]) {
    super(
      `The table(s) ${tables.join(', ')} are neither backed up nor left out deliberately: add them to BACKUP_TABLES in admin-api/src/backup/backup-tables.ts`,
    );
    this.name = 'UnclassifiedTableError';
  }
}

/** The tables a backup takes, in an order that inserts referenced rows first, with their columns. */
export function backupPlan(dataSource: DataSource): TablePlan[] {
  const metas = dataSource.entityMetadatas.filter((m) => m.tableType !== 'view');
  const unknown = metas.map((m) => m.tableName).filter((t) => !BACKUP_TABLES[t]);
  if (unknown.length) throw new UnclassifiedTableError(unknown);
  // In the order of BACKUP_TABLES (not the order TypeORM happened to load the entities in), so every
  // archive and every message lists the tables alike.
  const order = Object.keys(BACKUP_TABLES);
  const kept = metas.filter((m) => BACKUP_TABLES[m.tableName].keep).sort((a, b) => order.indexOf(a.tableName) - order.indexOf(b.tableName));
  const ordered: EntityMetadata[] = [];
  const visit = (m: EntityMetadata, seen: Set<EntityMetadata>) => {
    if (ordered.includes(m) || seen.has(m)) return;
    seen.add(m);
    for (const fk of m.foreignKeys) if (kept.includes(fk.referencedEntityMetadata)) visit(fk.referencedEntityMetadata, seen);
    ordered.push(m);
  };
  for (const m of kept) visit(m, new Set());
  return ordered.map((metadata) => ({ table: metadata.tableName, metadata, columns: keptColumns(metadata) }));
}

export function keptColumns(metadata: EntityMetadata): ColumnMetadata[] {
  const policy = BACKUP_TABLES[metadata.tableName];
  if (!policy?.keep) return [];
  return metadata.columns.filter((c) => {
    if (policy.secretColumns?.includes(c.propertyName)) return false;
    if (policy.onlyColumns) return policy.onlyColumns.includes(c.propertyName);
    return true;
  });
}

/** What archives leave out, for the manifest and the README. */
export function excludedSummary(dataSource: DataSource) {
  const tables: Record<string, string> = {};
  const columns: Record<string, string[]> = {};
  for (const m of dataSource.entityMetadatas) {
    const policy = BACKUP_TABLES[m.tableName];
    if (!policy) continue;
    if (!policy.keep) tables[m.tableName] = policy.why;
    else {
      const kept = new Set(keptColumns(m));
      const dropped = m.columns.filter((c) => !kept.has(c)).map((c) => c.propertyName);
      if (dropped.length) columns[m.tableName] = dropped;
    }
  }
  return { tables, columns };
}
