import type { EssayText, Lang, Translations } from '@portfolio/contract/translations';
import type * as Contract from '@portfolio/contract/types';
import { Column, Entity } from 'typeorm';

import type { AssertSame, Serialized } from '../common/json-shape.js';
import { ContentEntity } from '../content/content.entity.js';
import { ContentLanguageColumn, type TextFormat, TextFormatColumn, TranslationsColumn } from '../content/translations.js';

@Entity('essays')
export class Essay extends ContentEntity {
  @Column({ type: 'varchar', length: 300 })
  title: string;

  @Column({ type: 'text' })
  excerpt: string;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'varchar', length: 300, nullable: true })
  publication: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  publicationLogoUrl: string | null;

  @Column({ type: 'datetime', nullable: true })
  publishedDate: Date | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  essayUrl: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  imageUrl: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  category: string | null;

  @Column({ type: 'boolean', default: false })
  featured: boolean = false;

  @Column({ type: 'boolean', default: true })
  published: boolean = true;

  @ContentLanguageColumn()
  contentLanguage: Lang | null = null;

  @TranslationsColumn()
  translations: Translations<EssayText> = {};

  /** When anonymous visitors start to see it (UTC); null: as soon as it is published. */
  @Column({ type: 'datetime', nullable: true })
  publishAt: Date | null = null;

  /** How its long texts are written (plain paragraphs, or Markdown). */
  @TextFormatColumn()
  textFormat: TextFormat = 'plain';
}

/** An Essay as the API answers it is the contract's Essay: a column renamed on one side only fails tsc. */
type AnswerIsContract = AssertSame<Serialized<Essay>, Contract.Essay>;
