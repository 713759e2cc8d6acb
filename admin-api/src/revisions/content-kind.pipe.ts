import { Injectable, NotFoundException, PipeTransform } from '@nestjs/common';
import { CONTENT_KINDS, type ContentKind } from '@portfolio/contract/types';

import { refusal } from '../common/api-message.js';

/** A `{kind}` route parameter: one of the content collections (books, essays, artworks, news, plays), else 404. */
@Injectable()
export class ContentKindPipe implements PipeTransform<string, ContentKind> {
  transform(value: string): ContentKind {
    if (!(CONTENT_KINDS as readonly string[]).includes(value)) throw new NotFoundException(refusal('error.notFound'));
    return value as ContentKind;
  }
}
