import type { ContentKind } from '@portfolio/contract/kinds';

import { ARTWORKS } from './artworks/artworks.module.js';
import { BOOKS } from './books/books.module.js';
import { ESSAYS } from './essays/essays.module.js';
import type { KindFeature } from './kinds/kind-feature.js';
import { NEWS } from './news/news.module.js';
import { PLAYS } from './plays/plays.module.js';

/**
 * Each content kind of @portfolio/contract/kinds with its module, entity and create DTO: the one
 * list of them in the API. A kind added to the contract fails to compile here until it has these.
 */
export const KIND_FEATURES: Record<ContentKind, KindFeature> = {
  books: BOOKS,
  essays: ESSAYS,
  artworks: ARTWORKS,
  news: NEWS,
  plays: PLAYS,
};
