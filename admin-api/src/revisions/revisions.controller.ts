import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CONTENT_KINDS, type ContentKind } from '@portfolio/contract/types';

import { type AuthContext, CurrentAuth } from '../auth/auth-context.js';
import { IdPipe } from '../common/id.pipe.js';
import { ContentKindPipe } from './content-kind.pipe.js';
import { RevisionListQuery } from './dto/revision-list-query.dto.js';
import { RevisionHistory } from './revision-history.service.js';
import { revisionResponse } from './revisions.openapi.js';

const kindParam = ApiParam({ name: 'kind', enum: CONTENT_KINDS, description: 'The content collection, as in /api/{kind}.' });

/** The saved versions of content items (admins only). */
@ApiTags('revisions')
@ApiBearerAuth()
@Controller('admin/revisions')
export class RevisionsController {
  constructor(private readonly history: RevisionHistory) {}

  @Get(':kind/removed')
  @kindParam
  @ApiOperation({ summary: 'Items removed for good (plays) whose history is kept, newest removal first.' })
  @ApiOkResponse(revisionResponse('RemovedItem', true))
  removed(@Param('kind', ContentKindPipe) kind: ContentKind) {
    return this.history.removed(kind);
  }

  @Get(':kind/:id')
  @kindParam
  @ApiOperation({ summary: "An item's revisions, newest first; also for an item removed for good." })
  @ApiOkResponse(revisionResponse('RevisionList'))
  list(@Param('kind', ContentKindPipe) kind: ContentKind, @Param('id', IdPipe) id: number, @Query() query: RevisionListQuery) {
    return this.history.list(kind, id, query);
  }

  @Get(':kind/:id/:revision')
  @kindParam
  @ApiOperation({ summary: 'One revision with the snapshot of the item after that save.' })
  @ApiOkResponse(revisionResponse('Revision'))
  get(@Param('kind', ContentKindPipe) kind: ContentKind, @Param('id', IdPipe) id: number, @Param('revision', IdPipe) revision: number) {
    return this.history.get(kind, id, revision);
  }

  @Post(':kind/:id/:revision/restore')
  @HttpCode(200)
  @kindParam
  @ApiOperation({
    summary:
      'Restores a revision as a new save (a new revision and a publish, like any change); brings an item removed for good back with its old id.',
  })
  @ApiOkResponse(revisionResponse('RevisionRestoreResponse'))
  restore(
    @Param('kind', ContentKindPipe) kind: ContentKind,
    @Param('id', IdPipe) id: number,
    @Param('revision', IdPipe) revision: number,
    @CurrentAuth() auth: AuthContext,
  ) {
    return this.history.restore(kind, id, revision, auth);
  }
}
