import type { Artwork, ArtworkInput } from '@portfolio/contract/types';

import { contentApi } from './content';

export const artworksApi = contentApi<Artwork, ArtworkInput>('artworks');
