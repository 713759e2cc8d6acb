import { kindFeature } from '../kinds/kind-feature.js';
import { Artwork } from './artwork.entity.js';
import { CreateArtworkDto } from './dto/create-artwork.dto.js';

/** The kind 'artworks' in the API (registered in src/kind-modules.ts). */
export const ARTWORKS = kindFeature('artworks', { entity: Artwork, createDto: CreateArtworkDto });
