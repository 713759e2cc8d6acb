import type { NewsInput } from '@portfolio/contract/types';

import type { AssertSame, Serialized } from '../../common/json-shape.js';
import { Bool, OneOf, OptionalFilePath, OptionalIsoDate, OptionalLink, RequiredText } from '../../common/validators.js';
import { NewsTranslations } from '../../content/translated-text.dto.js';
import { ContentLanguage, type Lang, type TextFormat, TextFormatOf, TranslationsOf } from '../../content/translations.js';
import { NEWS_CATEGORIES, type NewsCategory } from '../news.entity.js';

export class CreateNewsDto {
  @RequiredText(300, 'validation.required')
  title: string;

  @RequiredText(5000, 'validation.required')
  excerpt: string;

  @RequiredText(200_000, 'validation.required')
  content: string;

  @OneOf(NEWS_CATEGORIES)
  category: NewsCategory;

  @Bool({ optional: true })
  published?: boolean;

  @OptionalIsoDate()
  publishedDate?: Date | null;

  @OptionalFilePath()
  imageUrl?: string | null;

  @OptionalLink()
  newsUrl?: string | null;

  @ContentLanguage()
  contentLanguage?: Lang | null;

  @TranslationsOf(NewsTranslations)
  translations?: NewsTranslations;

  /** A future time (ISO 8601, UTC) before which anonymous visitors do not see the item; null clears it. */
  @OptionalIsoDate()
  publishAt?: Date | null;

  /** 'plain' (the default: paragraphs as typed, the specification's text) or 'markdown' (CommonMark: emphasis, links, headings, quotes, lists, footnotes, upload images). */
  @TextFormatOf()
  textFormat?: TextFormat;
}

/** The body a client sends is the contract's NewsInput: a field renamed on one side only fails tsc. */
type BodyIsContract = AssertSame<Serialized<CreateNewsDto>, NewsInput>;
