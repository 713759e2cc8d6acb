import type { ArtworkText, Lang, Translations } from '@portfolio/contract/translations';
import type * as Contract from '@portfolio/contract/types';
import { Column, Entity } from 'typeorm';

import type { AssertSame, Serialized } from '../common/json-shape.js';
import { ContentEntity } from '../content/content.entity.js';
import { ContentLanguageColumn, TranslationsColumn } from '../content/translations.js';

@Entity('artworks')
export class Artwork extends ContentEntity {
  @Column({ type: 'varchar', length: 300 })
  title: string;

  @Column({ type: 'varchar', length: 200 })
  medium: string;

  @Column({ type: 'int' })
  year: number;

  @Column({ type: 'varchar', length: 2000 })
  image: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: false })
  featured: boolean = false;

  @ContentLanguageColumn()
  contentLanguage: Lang | null = null;

  @TranslationsColumn()
  translations: Translations<ArtworkText> = {};
}

/** An Artwork as the API answers it is the contract's Artwork: a column renamed on one side only fails tsc. */
type AnswerIsContract = AssertSame<Serialized<Artwork>, Contract.Artwork>;
