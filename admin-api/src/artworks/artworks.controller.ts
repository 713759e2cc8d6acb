import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type AuthContext, CurrentAuth, Public, type Viewer } from '../auth/auth-context.js';
import { IdPipe } from '../common/id.pipe.js';
import { IncludeDeletedQuery } from '../common/include-deleted-query.dto.js';
import { ArtworksService } from './artworks.service.js';
import { CreateArtworkDto } from './dto/create-artwork.dto.js';
import { UpdateArtworkDto } from './dto/update-artwork.dto.js';

@ApiTags('artworks')
@ApiBearerAuth()
@Controller('artworks')
export class ArtworksController {
  constructor(private readonly service: ArtworksService) {}

  @Public()
  @Get()
  list(@Query() query: IncludeDeletedQuery, @CurrentAuth() viewer: Viewer) {
    return this.service.list(viewer, query);
  }

  @Public()
  @Get(':id')
  get(@Param('id', IdPipe) id: number, @CurrentAuth() viewer: Viewer) {
    return this.service.get(id, viewer);
  }

  @Post()
  create(@Body() dto: CreateArtworkDto, @CurrentAuth() auth: AuthContext) {
    return this.service.create(dto, auth);
  }

  @Patch(':id')
  update(@Param('id', IdPipe) id: number, @Body() dto: UpdateArtworkDto, @CurrentAuth() auth: AuthContext) {
    return this.service.update(id, dto, auth);
  }
}
