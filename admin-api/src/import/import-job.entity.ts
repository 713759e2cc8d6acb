import type { ImportFormat, ImportMapping, ImportReport, ImportResult, ImportState, ImportWarning } from '@portfolio/contract/imports';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One import: the uploaded export (kept in $VAR_DIR/imports until the job is deleted), the author's
 * mapping, the dry run's report, and while it applies its progress, so the author can leave and come
 * back, and a restart picks it up where it was.
 */
@Entity('import_jobs')
export class ImportJobRow {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 20 })
  state: ImportState;

  @Column({ type: 'varchar', length: 20 })
  format: ImportFormat;

  /** The name the author's file had (shown, and the source's identity when the export does not name its site). */
  @Column({ type: 'varchar', length: 255 })
  fileName: string;

  /** The kept file's name inside the imports folder (server-made). */
  @Column({ type: 'varchar', length: 255 })
  storedName: string;

  @Column({ type: 'datetime' })
  createdAt: Date;

  @Column({ type: 'datetime', nullable: true })
  finishedAt: Date | null = null;

  @Column({ type: 'int', nullable: true })
  createdByUserId: number | null;

  @Column({ type: 'simple-json' })
  mapping: ImportMapping;

  @Column({ type: 'simple-json' })
  report: ImportReport;

  @Column({ type: 'int', default: 0 })
  itemsDone: number = 0;

  @Column({ type: 'int', default: 0 })
  itemsTotal: number = 0;

  @Column({ type: 'int', default: 0 })
  imagesDone: number = 0;

  @Column({ type: 'int', default: 0 })
  imagesTotal: number = 0;

  @Column({ type: 'simple-json' })
  applyWarnings: ImportWarning[] = [];

  /** Each image reference already stored by this job → its /uploads path (null: could not be fetched), so a resumed job fetches none twice. */
  @Column({ type: 'simple-json' })
  images: Record<string, string | null> = {};

  /** What the apply saved (null on jobs from before this column). */
  @Column({ type: 'simple-json', nullable: true })
  results: ImportResult[] | null = [];

  /** Runs of this apply that started and have not ended (a crash leaves its count): at the limit the job fails instead of resuming. */
  @Column({ type: 'int', default: 0 })
  attempts: number = 0;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  error: string | null = null;
}
