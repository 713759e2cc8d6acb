import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** bigint columns come back as strings from MySQL. */
const epochMs = { to: (value: number | null) => value, from: (value: string | number | null) => (value === null ? null : Number(value)) };

export type ImageVariantJobState = 'pending' | 'done' | 'failed';

/**
 * The variants of one uploaded image (ImageVariantJobs): pending until every variant of its set is
 * in the uploads storage. Times are epoch milliseconds, so the claim is one conditional UPDATE
 * binding plain numbers on both databases.
 */
@Entity('image_variant_jobs')
export class ImageVariantJob {
  @PrimaryGeneratedColumn()
  id: number;

  /** The original, `/uploads/<folder>/<name>`. */
  @Column({ type: 'varchar', length: 255, unique: true })
  path: string;

  /** The recipes and widths (IMAGE_VARIANTS_RECIPE) the job makes, or made, its variants by. */
  @Column({ type: 'varchar', length: 100 })
  recipe: string;

  @Column({ type: 'varchar', length: 10 })
  state: ImageVariantJobState;

  /** Attempts started, counted when claimed (so a maker that dies mid-encode counts too). */
  @Column({ type: 'int' })
  attempts: number;

  /** When a maker may take it: at once, after a retry wait, or when a maker's claim runs out. */
  @Column({ type: 'bigint', transformer: epochMs })
  dueAt: number;

  /** The process making it now (or last); NULL when nobody holds it. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  claimedBy: string | null = null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null = null;

  @Column({ type: 'bigint', transformer: epochMs })
  createdAt: number;

  @Column({ type: 'bigint', transformer: epochMs })
  updatedAt: number;
}
