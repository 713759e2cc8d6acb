import { CONTENT_KINDS, type ContentKind, type PreviewRequest } from '@portfolio/contract/types';
import { IsDefined, IsInt, IsObject, IsOptional, Max, Min } from 'class-validator';

import { messageOption } from '../common/api-message.js';
import type { AssertSame, Serialized } from '../common/json-shape.js';
import { OneOf } from '../common/validators.js';

export class PreviewRequestDto {
  @OneOf(CONTENT_KINDS)
  kind: ContentKind;

  /** The saved item the form edits; absent or null for a new one. */
  @IsOptional()
  @IsInt(messageOption('validation.invalidBody'))
  @Min(1, messageOption('validation.invalidBody'))
  @Max(2_147_483_647, messageOption('validation.invalidBody'))
  id?: number | null;

  /** The form's fields, checked by the rules of the kind's create call (POST /api/{kind}). */
  @IsDefined(messageOption('validation.required'))
  @IsObject(messageOption('validation.invalidBody'))
  item: Record<string, unknown>;
}

type BodyIsContract = AssertSame<Serialized<PreviewRequestDto>, PreviewRequest>;
