import type { Artwork, ArtworkInput } from '@portfolio/admin-api/contract';
import { contentApi } from './content';

export const artworksApi = contentApi<Artwork, ArtworkInput>('/api/artworks');
