import { Module } from '@nestjs/common';

import type { KindFeature } from '../kinds/kind-feature.js';
import { KindsModule } from '../kinds/kinds.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { RevisionsModule } from '../revisions/revisions.module.js';
import { Artwork } from './artwork.entity.js';
import { ArtworksController } from './artworks.controller.js';
import { ArtworksService } from './artworks.service.js';
import { CreateArtworkDto } from './dto/create-artwork.dto.js';

@Module({ imports: [KindsModule, RevisionsModule, PublishingModule], controllers: [ArtworksController], providers: [ArtworksService] })
export class ArtworksModule {}

/** The kind 'artworks' in the API (registered in src/kind-modules.ts). */
export const ARTWORKS: KindFeature = { module: ArtworksModule, entity: Artwork, createDto: CreateArtworkDto };
