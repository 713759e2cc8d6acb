import type { ArtworkInput } from '@portfolio/contract/types';

import type { AssertSame, Serialized } from '../../common/json-shape.js';
import { Bool, OptionalText, RequiredInt, RequiredText } from '../../common/validators.js';
import { ArtworkTranslations } from '../../content/translated-text.dto.js';
import { ContentLanguage, type Lang, TranslationsOf } from '../../content/translations.js';

export class CreateArtworkDto {
  @RequiredText(300, 'validation.titleRequired')
  title: string;

  @RequiredText(200, 'validation.mediumRequired')
  medium: string;

  @RequiredInt(1, 9999, 'label.year', 'validation.yearRequired')
  year: number;

  @RequiredText(2000, 'validation.imageRequired')
  image: string;

  @OptionalText(20000)
  description?: string | null;

  @Bool({ optional: true })
  featured?: boolean;

  @ContentLanguage()
  contentLanguage?: Lang | null;

  @TranslationsOf(ArtworkTranslations)
  translations?: ArtworkTranslations;
}

/** The body a client sends is the contract's ArtworkInput: a field renamed on one side only fails tsc. */
type BodyIsContract = AssertSame<Serialized<CreateArtworkDto>, ArtworkInput>;
