import type { ImportMapping } from '@portfolio/contract/imports';
import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';

import type { AssertSame, Serialized } from '../../common/json-shape.js';

export class ImportMappingDto {
  /** Source categories whose posts become news. */
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(300, { each: true })
  newsCategories: string[];

  /** Source tags whose posts become news. */
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(300, { each: true })
  newsTags: string[];
}

/** The body a client sends is the contract's ImportMapping. */
type BodyIsContract = AssertSame<Serialized<ImportMappingDto>, ImportMapping>;
