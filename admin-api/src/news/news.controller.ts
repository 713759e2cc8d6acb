import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type AuthContext, CurrentAuth, Public, type Viewer } from '../auth/auth-context.js';
import { IdPipe } from '../common/id.pipe.js';
import { IncludeDeletedQuery } from '../common/include-deleted-query.dto.js';
import { CreateNewsDto } from './dto/create-news.dto.js';
import { UpdateNewsDto } from './dto/update-news.dto.js';
import { NewsService } from './news.service.js';

@ApiTags('news')
@ApiBearerAuth()
@Controller('news')
export class NewsController {
  constructor(private readonly service: NewsService) {}

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
  create(@Body() dto: CreateNewsDto, @CurrentAuth() auth: AuthContext) {
    return this.service.create(dto, auth);
  }

  @Patch(':id')
  update(@Param('id', IdPipe) id: number, @Body() dto: UpdateNewsDto, @CurrentAuth() auth: AuthContext) {
    return this.service.update(id, dto, auth);
  }
}
