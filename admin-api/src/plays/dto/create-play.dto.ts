import type { PlayInput } from '@portfolio/contract/types';

import type { AssertSame, Serialized } from '../../common/json-shape.js';
import {
  OneOf,
  OptionalFilePath,
  OptionalInt,
  OptionalIsoDate,
  OptionalLink,
  OptionalText,
  RequiredText,
} from '../../common/validators.js';
import { PlayTranslations } from '../../content/translated-text.dto.js';
import { ContentLanguage, type Lang, type TextFormat, TextFormatOf, TranslationsOf } from '../../content/translations.js';
import { PLAY_STATUSES, PLAY_TYPES, type PlayStatus, type PlayType } from '../play.entity.js';

export class CreatePlayDto {
  @RequiredText(300, 'validation.titleRequired')
  title: string;

  @OptionalText(300)
  arabicTitle?: string | null;

  @OptionalText(20000)
  description?: string | null;

  @OptionalText(1_000_000)
  content?: string | null;

  @OptionalInt(1, 9999, 'label.year')
  year?: number | null;

  @OneOf(PLAY_TYPES, { optional: true })
  type?: PlayType;

  @OptionalText(100)
  genre?: string | null;

  @OptionalFilePath()
  image?: string | null;

  @OptionalFilePath()
  pdfUrl?: string | null;

  @OptionalLink()
  youtubeUrl?: string | null;

  @OneOf(PLAY_STATUSES, { optional: true })
  status?: PlayStatus;

  @ContentLanguage()
  contentLanguage?: Lang | null;

  @TranslationsOf(PlayTranslations)
  translations?: PlayTranslations;

  /** A future time (ISO 8601, UTC) before which anonymous visitors do not see the item; null clears it. */
  @OptionalIsoDate()
  publishAt?: Date | null;

  /** 'plain' (the default: paragraphs as typed, the specification's text) or 'markdown' (CommonMark: emphasis, links, headings, quotes, lists, footnotes, upload images). */
  @TextFormatOf()
  textFormat?: TextFormat;
}

/** The body a client sends is the contract's PlayInput: a field renamed on one side only fails tsc. */
type BodyIsContract = AssertSame<Serialized<CreatePlayDto>, PlayInput>;
