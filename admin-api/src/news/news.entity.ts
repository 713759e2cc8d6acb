import type { Lang, NewsText, Translations } from '@portfolio/contract/translations';
import type * as Contract from '@portfolio/contract/types';
import { Column, Entity } from 'typeorm';

import type { AssertSame, Serialized } from '../common/json-shape.js';
import { ContentEntity } from '../content/content.entity.js';
import { ContentLanguageColumn, type TextFormat, TextFormatColumn, TranslationsColumn } from '../content/translations.js';

export const NEWS_CATEGORIES = ['exhibition', 'publication', 'award', 'other'] as const;
export type NewsCategory = (typeof NEWS_CATEGORIES)[number];

@Entity('news')
export class News extends ContentEntity {
  @Column({ type: 'varchar', length: 300 })
  title: string;

  @Column({ type: 'text' })
  excerpt: string;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'varchar', length: 20 })
  category: NewsCategory;

  @Column({ type: 'boolean', default: true })
  published: boolean = true;

  @Column({ type: 'datetime' })
  publishedDate: Date;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  imageUrl: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  newsUrl: string | null;

  @ContentLanguageColumn()
  contentLanguage: Lang | null = null;

  @TranslationsColumn()
  translations: Translations<NewsText> = {};

  /** When anonymous visitors start to see it (UTC); null: as soon as it is published. */
  @Column({ type: 'datetime', nullable: true })
  publishAt: Date | null = null;

  /** How its long texts are written (plain paragraphs, or Markdown). */
  @TextFormatColumn()
  textFormat: TextFormat = 'plain';
}

/** A News item as the API answers it is the contract's News: a column renamed on one side only fails tsc. */
type AnswerIsContract = AssertSame<Serialized<News>, Contract.News>;
