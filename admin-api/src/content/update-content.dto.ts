import type { Type } from '@nestjs/common';
import { inheritTransformationMetadata, inheritValidationMetadata } from '@nestjs/mapped-types';
import { getMetadataStorage } from 'class-validator';

import { Bool, PresentOrAbsent } from '../common/validators.js';

/**
 * The PATCH body of a content type: every field of the create DTO may be left out, but a field
 * that is sent is validated as on create (so required columns cannot be nulled). Adds
 * `isDeleted`, the soft-delete switch, which must come alone.
 */
export function UpdateContentDto<T>(createDto: Type<T>): Type<Partial<T> & { isDeleted?: boolean }> {
  abstract class Update {
    @Bool({ optional: true })
    isDeleted?: boolean;
  }
  inheritValidationMetadata(createDto, Update);
  inheritTransformationMetadata(createDto, Update);
  const fields = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(createDto, '', true, false)
      .map((m) => m.propertyName),
  );
  for (const field of fields) PresentOrAbsent()(Update.prototype, field);
  Object.defineProperty(Update, 'name', { value: `Update${createDto.name.replace(/^Create/, '')}` });
  return Update as unknown as Type<Partial<T> & { isDeleted?: boolean }>;
}
