import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type AuthContext, CurrentAuth, Public, type Viewer } from '../auth/auth-context.js';
import { IdPipe } from '../common/id.pipe.js';
import { IncludeDeletedQuery } from '../common/include-deleted-query.dto.js';
import { CreateEssayDto } from './dto/create-essay.dto.js';
import { UpdateEssayDto } from './dto/update-essay.dto.js';
import { EssaysService } from './essays.service.js';

@ApiTags('essays')
@ApiBearerAuth()
@Controller('essays')
export class EssaysController {
  constructor(private readonly service: EssaysService) {}

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
  create(@Body() dto: CreateEssayDto, @CurrentAuth() auth: AuthContext) {
    return this.service.create(dto, auth);
  }

  @Patch(':id')
  update(@Param('id', IdPipe) id: number, @Body() dto: UpdateEssayDto, @CurrentAuth() auth: AuthContext) {
    return this.service.update(id, dto, auth);
  }
}
