import type { Lang, PlayText, Translations } from '@portfolio/contract/translations';
import type * as Contract from '@portfolio/contract/types';
import { Column, Entity } from 'typeorm';

import type { AssertSame, Serialized } from '../common/json-shape.js';
import { ContentEntity } from '../content/content.entity.js';
import { ContentLanguageColumn, type TextFormat, TextFormatColumn, TranslationsColumn } from '../content/translations.js';

export const PLAY_TYPES = ['original', 'translated'] as const;
export const PLAY_STATUSES = ['draft', 'published', 'performed'] as const;
export type PlayType = (typeof PLAY_TYPES)[number];
export type PlayStatus = (typeof PLAY_STATUSES)[number];

@Entity('plays')
export class Play extends ContentEntity {
  @Column({ type: 'varchar', length: 300 })
  title: string;

  @Column({ type: 'varchar', length: 300, nullable: true })
  arabicTitle: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', nullable: true })
  content: string | null;

  @Column({ type: 'int', nullable: true })
  year: number | null;

  @Column({ type: 'varchar', length: 20, default: 'original' })
  type: PlayType = 'original';

  @Column({ type: 'varchar', length: 100, nullable: true })
  genre: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  image: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  pdfUrl: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  youtubeUrl: string | null;

  @Column({ type: 'varchar', length: 20, default: 'draft' })
  status: PlayStatus = 'draft';

  @ContentLanguageColumn()
  contentLanguage: Lang | null = null;

  @TranslationsColumn()
  translations: Translations<PlayText> = {};

  /** When anonymous visitors start to see it (UTC); null: as soon as it is published. */
  @Column({ type: 'datetime', nullable: true })
  publishAt: Date | null = null;

  /** How its long texts are written (plain paragraphs, or Markdown). */
  @TextFormatColumn()
  textFormat: TextFormat = 'plain';
}

/** A Play as the API answers it is the contract's Play: a column renamed on one side only fails tsc. */
type AnswerIsContract = AssertSame<Serialized<Play>, Contract.Play>;
