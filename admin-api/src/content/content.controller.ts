import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { type ContentKind, KINDS } from '@portfolio/contract/kinds';

import { type AuthContext, CurrentAuth, Public, type Viewer } from '../auth/auth-context.js';
import { IdPipe } from '../common/id.pipe.js';
import { IncludeDeletedQuery } from '../common/include-deleted-query.dto.js';
import type { ContentEntity } from './content.entity.js';
import type { ContentService } from './content.service.js';
import { UpdateContentDto } from './update-content.dto.js';

/** The decorators when `on`, else none. */
const when = (on: boolean, ...decorators: MethodDecorator[]): MethodDecorator => (on ? applyDecorators(...decorators) : () => {});

/**
 * The routes every content kind has, at /api/<kind>: the public list and item, create, edit (PATCH,
 * also to and from the trash) and, for kinds whose registry entry says `removable`, DELETE for good.
 * A kind's own routes go in a subclass (books: download). The class is named `<Kind>Controller`,
 * which names the operations in the OpenAPI document (`BooksController_list`).
 */
export function ContentController<S extends ContentService<ContentEntity>>(kind: ContentKind, service: Type<S>, createDto: Type<object>) {
  const updateDto = UpdateContentDto(createDto);

  @ApiTags(kind)
  @ApiBearerAuth()
  @Controller(kind)
  class KindController {
    constructor(@Inject(service) readonly service: S) {}

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
    create(@Body() dto: object, @CurrentAuth() auth: AuthContext) {
      return this.service.create(dto, auth);
    }

    @Patch(':id')
    update(@Param('id', IdPipe) id: number, @Body() dto: object, @CurrentAuth() auth: AuthContext) {
      return this.service.update(id, dto, auth);
    }

    @when(KINDS[kind].softDelete.removable, Delete(':id'), HttpCode(204))
    remove(@Param('id', IdPipe) id: number, @CurrentAuth() auth: AuthContext) {
      return this.service.remove(id, auth);
    }
  }
  // The bodies' classes, which TypeScript cannot write for a parameter typed by a variable: the
  // validation pipe checks a body against them and the OpenAPI document describes them from here.
  Reflect.defineMetadata('design:paramtypes', [createDto, Object], KindController.prototype, 'create');
  Reflect.defineMetadata('design:paramtypes', [Number, updateDto, Object], KindController.prototype, 'update');
  Object.defineProperty(KindController, 'name', { value: `${kind[0].toUpperCase()}${kind.slice(1)}Controller` });
  return KindController;
}
