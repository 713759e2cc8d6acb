import type { BookInput } from '@portfolio/contract/types';

import type { AssertSame, Serialized } from '../../common/json-shape.js';
import {
  Bool,
  OptionalFilePath,
  OptionalInt,
  OptionalIsoDate,
  OptionalLink,
  OptionalText,
  RequiredInt,
  RequiredText,
  TextList,
} from '../../common/validators.js';
import { BookTranslations } from '../../content/translated-text.dto.js';
import { ContentLanguage, type Lang, type TextFormat, TextFormatOf, TranslationsOf } from '../../content/translations.js';

export class CreateBookDto {
  @RequiredText(300, 'validation.titleRequired')
  title: string;

  @RequiredText(20000, 'validation.descriptionRequired')
  description: string;

  @RequiredInt(1, 9999, 'label.year', 'validation.yearRequired')
  year: number;

  @RequiredText(300, 'validation.publisherRequired')
  publisher: string;

  @OptionalText(32)
  isbn?: string | null;

  @OptionalInt(1, 100000, 'label.pages')
  pages?: number | null;

  @OptionalText(100)
  genre?: string | null;

  @OptionalText(50)
  language?: string;

  @TextList()
  awards?: string[];

  @OptionalLink()
  goodreadsUrl?: string | null;

  @OptionalLink()
  purchaseUrl?: string | null;

  @OptionalLink()
  youtubeUrl?: string | null;

  @OptionalLink()
  googleDriveUrl?: string | null;

  @OptionalInt(0, 2_000_000_000, 'label.downloadCount')
  downloadCount?: number;

  @OptionalFilePath()
  coverImage?: string | null;

  @TextList()
  documents?: string[];

  @TextList()
  reviews?: string[];

  @TextList()
  readingMaterials?: string[];

  @Bool({ optional: true })
  published?: boolean;

  @ContentLanguage()
  contentLanguage?: Lang | null;

  @TranslationsOf(BookTranslations)
  translations?: BookTranslations;

  /** A future time (ISO 8601, UTC) before which anonymous visitors do not see the item; null clears it. */
  @OptionalIsoDate()
  publishAt?: Date | null;

  /** 'plain' (the default: paragraphs as typed, the specification's text) or 'markdown' (CommonMark: emphasis, links, headings, quotes, lists, footnotes, upload images). */
  @TextFormatOf()
  textFormat?: TextFormat;
}

/** The body a client sends is the contract's BookInput: a field renamed on one side only fails tsc. */
type BodyIsContract = AssertSame<Serialized<CreateBookDto>, BookInput>;
