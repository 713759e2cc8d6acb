import { ApiPropertyOptional } from '@nestjs/swagger';

import { OptionalInt } from '../../common/validators.js';

/** `?limit=&offset=`: a page of an item's revisions, newest first (50 by default, at most 200). */
export class RevisionListQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'How many revisions to answer.' })
  @OptionalInt(1, 200, 'label.limit')
  limit?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0, description: 'How many of the newest to skip.' })
  @OptionalInt(0, 1_000_000_000, 'label.offset')
  offset?: number;
}
