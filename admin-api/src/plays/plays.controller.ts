import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type AuthContext, CurrentAuth, Public, type Viewer } from '../auth/auth-context.js';
import { IdPipe } from '../common/id.pipe.js';
import { IncludeDeletedQuery } from '../common/include-deleted-query.dto.js';
import { CreatePlayDto } from './dto/create-play.dto.js';
import { UpdatePlayDto } from './dto/update-play.dto.js';
import { PlaysService } from './plays.service.js';

@ApiTags('plays')
@ApiBearerAuth()
@Controller('plays')
export class PlaysController {
  constructor(private readonly service: PlaysService) {}

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
  create(@Body() dto: CreatePlayDto, @CurrentAuth() auth: AuthContext) {
    return this.service.create(dto, auth);
  }

  @Patch(':id')
  update(@Param('id', IdPipe) id: number, @Body() dto: UpdatePlayDto, @CurrentAuth() auth: AuthContext) {
    return this.service.update(id, dto, auth);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@Param('id', IdPipe) id: number, @CurrentAuth() auth: AuthContext) {
    return this.service.remove(id, auth);
  }
}
