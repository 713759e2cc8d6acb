import { OptionalInt } from '../../common/validators.js';

/** `?limit=&offset=`: a page of an item's revisions, newest first (50 by default, at most 200). */
export class RevisionListQuery {
  @OptionalInt(1, 200, 'label.limit')
  limit?: number;

  @OptionalInt(0, 1_000_000_000, 'label.offset')
  offset?: number;
}
