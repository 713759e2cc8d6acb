import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type AuthContext, CurrentAuth, Public, type Viewer } from '../auth/auth-context.js';
import { IdPipe } from '../common/id.pipe.js';
import { IncludeDeletedQuery } from '../common/include-deleted-query.dto.js';
import { BooksService } from './books.service.js';
import { CreateBookDto } from './dto/create-book.dto.js';
import { UpdateBookDto } from './dto/update-book.dto.js';

@ApiTags('books')
@ApiBearerAuth()
@Controller('books')
export class BooksController {
  constructor(private readonly service: BooksService) {}

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
  create(@Body() dto: CreateBookDto, @CurrentAuth() auth: AuthContext) {
    return this.service.create(dto, auth);
  }

  @Patch(':id')
  update(@Param('id', IdPipe) id: number, @Body() dto: UpdateBookDto, @CurrentAuth() auth: AuthContext) {
    return this.service.update(id, dto, auth);
  }

  @Public()
  @Post(':id/download')
  @HttpCode(200)
  download(@Param('id', IdPipe) id: number) {
    return this.service.countDownload(id);
  }
}
