import type { EssayInput } from '@portfolio/contract/types';

import type { AssertSame, Serialized } from '../../common/json-shape.js';
import { Bool, OptionalFilePath, OptionalIsoDate, OptionalLink, OptionalText, RequiredText } from '../../common/validators.js';
import { EssayTranslations } from '../../content/translated-text.dto.js';
import { ContentLanguage, type Lang, type TextFormat, TextFormatOf, TranslationsOf } from '../../content/translations.js';

export class CreateEssayDto {
  @RequiredText(300, 'validation.titleRequired')
  title: string;

  @RequiredText(5000, 'validation.excerptRequired')
  excerpt: string;

  @RequiredText(500_000, 'validation.contentRequired')
  content: string;

  @OptionalText(300)
  publication?: string | null;

  @OptionalFilePath()
  publicationLogoUrl?: string | null;

  @OptionalIsoDate()
  publishedDate?: Date | null;

  @OptionalLink()
  essayUrl?: string | null;

  @OptionalFilePath()
  imageUrl?: string | null;

  @OptionalText(100)
  category?: string | null;

  @Bool({ optional: true })
  featured?: boolean;

  @Bool({ optional: true })
  published?: boolean;

  @ContentLanguage()
  contentLanguage?: Lang | null;

  @TranslationsOf(EssayTranslations)
  translations?: EssayTranslations;

  /** A future time (ISO 8601, UTC) before which anonymous visitors do not see the item; null clears it. */
  @OptionalIsoDate()
  publishAt?: Date | null;

  /** 'plain' (the default: paragraphs as typed, the specification's text) or 'markdown' (CommonMark: emphasis, links, headings, quotes, lists, footnotes, upload images). */
  @TextFormatOf()
  textFormat?: TextFormat;
}

/** The body a client sends is the contract's EssayInput: a field renamed on one side only fails tsc. */
type BodyIsContract = AssertSame<Serialized<CreateEssayDto>, EssayInput>;
