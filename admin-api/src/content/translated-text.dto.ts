import type * as T from '@portfolio/contract/translations';

import type { AssertSame, Serialized } from '../common/json-shape.js';
import { TranslatedText, VersionOf } from './translations.js';

/*
 * The `translations` bodies of the five kinds: `{ en?: {...}, ar?: {...} }`, each version with the
 * kind's translated fields (TRANSLATED_FIELDS in @portfolio/contract/translations), same limits as
 * the fields themselves. Unknown fields are refused like anywhere else ('Unknown field').
 */

export class BookTextVersion {
  @TranslatedText(300)
  title?: string | null;

  @TranslatedText(20000)
  description?: string | null;

  @TranslatedText(300)
  publisher?: string | null;

  @TranslatedText(100)
  genre?: string | null;
}
export class BookTranslations {
  @VersionOf(BookTextVersion)
  en?: BookTextVersion;

  @VersionOf(BookTextVersion)
  ar?: BookTextVersion;
}
type BookIsContract = AssertSame<Serialized<BookTranslations>, T.Translations<T.BookText>>;

export class EssayTextVersion {
  @TranslatedText(300)
  title?: string | null;

  @TranslatedText(5000)
  excerpt?: string | null;

  @TranslatedText(500_000)
  content?: string | null;

  @TranslatedText(300)
  publication?: string | null;

  @TranslatedText(100)
  category?: string | null;
}
export class EssayTranslations {
  @VersionOf(EssayTextVersion)
  en?: EssayTextVersion;

  @VersionOf(EssayTextVersion)
  ar?: EssayTextVersion;
}
type EssayIsContract = AssertSame<Serialized<EssayTranslations>, T.Translations<T.EssayText>>;

export class ArtworkTextVersion {
  @TranslatedText(300)
  title?: string | null;

  @TranslatedText(200)
  medium?: string | null;

  @TranslatedText(20000)
  description?: string | null;
}
export class ArtworkTranslations {
  @VersionOf(ArtworkTextVersion)
  en?: ArtworkTextVersion;

  @VersionOf(ArtworkTextVersion)
  ar?: ArtworkTextVersion;
}
type ArtworkIsContract = AssertSame<Serialized<ArtworkTranslations>, T.Translations<T.ArtworkText>>;

export class NewsTextVersion {
  @TranslatedText(300)
  title?: string | null;

  @TranslatedText(5000)
  excerpt?: string | null;

  @TranslatedText(200_000)
  content?: string | null;
}
export class NewsTranslations {
  @VersionOf(NewsTextVersion)
  en?: NewsTextVersion;

  @VersionOf(NewsTextVersion)
  ar?: NewsTextVersion;
}
type NewsIsContract = AssertSame<Serialized<NewsTranslations>, T.Translations<T.NewsText>>;

export class PlayTextVersion {
  @TranslatedText(300)
  title?: string | null;

  @TranslatedText(20000)
  description?: string | null;

  @TranslatedText(1_000_000)
  content?: string | null;

  @TranslatedText(100)
  genre?: string | null;
}
export class PlayTranslations {
  @VersionOf(PlayTextVersion)
  en?: PlayTextVersion;

  @VersionOf(PlayTextVersion)
  ar?: PlayTextVersion;
}
type PlayIsContract = AssertSame<Serialized<PlayTranslations>, T.Translations<T.PlayText>>;
