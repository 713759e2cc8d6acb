import { Injectable } from '@nestjs/common';
import type * as Contract from '@portfolio/contract/types';
import type { ContentKind } from '@portfolio/contract/types';

import type { AuthContext } from '../auth/auth-context.js';
import { ContentKinds } from '../kinds/content-kinds.js';
import type { RevisionListQuery } from './dto/revision-list-query.dto.js';
import { RevisionsService } from './revisions.service.js';

/** What the revisions routes answer: histories read from RevisionsService, restores saved through each kind's ContentService. */
@Injectable()
export class RevisionHistory {
  constructor(
    private readonly revisions: RevisionsService,
    private readonly kinds: ContentKinds,
  ) {}

  async list(kind: ContentKind, id: number, query: RevisionListQuery): Promise<Contract.RevisionList> {
    const service = this.kinds.service(kind);
    const page = await this.revisions.list(kind, id, query.limit ?? 50, query.offset ?? 0);
    const exists = await service.exists(id);
    // Neither the item nor a history of it: the kind's own not-found answer ('Book Not Found').
    if (!exists && !page.total) await service.get(id, null);
    return { kind, entityId: id, ...page, exists };
  }

  get(kind: ContentKind, id: number, revision: number): Promise<Contract.Revision> {
    return this.revisions.get(kind, id, revision);
  }

  removed(kind: ContentKind): Promise<Contract.RemovedItem[]> {
    return this.revisions.removed(kind);
  }

  async restore(kind: ContentKind, id: number, revision: number, auth: AuthContext): Promise<Contract.RevisionRestoreResponse> {
    const item = await this.kinds.service(kind).restoreRevision(id, revision, auth);
    const { revisions } = await this.revisions.list(kind, id, 1, 0);
    return { item: JSON.parse(JSON.stringify(item)) as Contract.ContentItem, revision: revisions[0] };
  }
}
