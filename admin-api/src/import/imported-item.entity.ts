import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * What an import saved, per source item: so importing the same export again finds each item
 * (source + sourceId) and knows from the digest whether it changed since.
 */
@Entity('imported_items')
export class ImportedItem {
  @PrimaryGeneratedColumn()
  id: number;

  /** The format and the site's identity (the export's site address, or its file name). */
  @Column({ type: 'varchar', length: 255 })
  source: string;

  @Column({ type: 'varchar', length: 255 })
  sourceId: string;

  @Column({ type: 'varchar', length: 20 })
  kind: 'essays' | 'news';

  @Column({ type: 'int' })
  itemId: number;

  /** SHA-256 of what was imported (the source item as parsed). */
  @Column({ type: 'varchar', length: 64 })
  digest: string;

  @Column({ type: 'datetime' })
  importedAt: Date;
}
