import type { BookText, Lang, Translations } from '@portfolio/contract/translations';
import type * as Contract from '@portfolio/contract/types';
import { Column, Entity } from 'typeorm';

import type { AssertSame, Serialized } from '../common/json-shape.js';
import { ContentEntity } from '../content/content.entity.js';
import { ContentLanguageColumn, type TextFormat, TextFormatColumn, TranslationsColumn } from '../content/translations.js';

@Entity('books')
export class Book extends ContentEntity {
  @Column({ type: 'varchar', length: 300 })
  title: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'int' })
  year: number;

  @Column({ type: 'varchar', length: 300 })
  publisher: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  isbn: string | null;

  @Column({ type: 'int', nullable: true })
  pages: number | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  genre: string | null;

  @Column({ type: 'varchar', length: 50, default: 'Arabic' })
  language: string = 'Arabic';

  @Column({ type: 'simple-json' })
  awards: string[] = [];

  @Column({ type: 'varchar', length: 2000, nullable: true })
  goodreadsUrl: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  purchaseUrl: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  youtubeUrl: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  googleDriveUrl: string | null;

  @Column({ type: 'int', default: 0 })
  downloadCount: number = 0;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  coverImage: string | null;

  @Column({ type: 'simple-json' })
  documents: string[] = [];

  @Column({ type: 'simple-json' })
  reviews: string[] = [];

  @Column({ type: 'simple-json' })
  readingMaterials: string[] = [];

  @Column({ type: 'boolean', default: true })
  published: boolean = true;

  @ContentLanguageColumn()
  contentLanguage: Lang | null = null;

  @TranslationsColumn()
  translations: Translations<BookText> = {};

  /** When anonymous visitors start to see it (UTC); null: as soon as it is published. */
  @Column({ type: 'datetime', nullable: true })
  publishAt: Date | null = null;

  /** How its long texts are written (plain paragraphs, or Markdown). */
  @TextFormatColumn()
  textFormat: TextFormat = 'plain';
}

/** A Book as the API answers it is the contract's Book: a column renamed on one side only fails tsc. */
type AnswerIsContract = AssertSame<Serialized<Book>, Contract.Book>;
