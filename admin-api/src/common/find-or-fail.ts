import { NotFoundException } from '@nestjs/common';
import type { MessageKey } from '@portfolio/contract/messages';
import type { EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';

import { refusal } from './api-message.js';

export async function findOrFail<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  id: number,
  notFound: MessageKey,
  extraWhere: FindOptionsWhere<T> = {},
): Promise<T> {
  const found = await manager.findOneBy(entity, { ...extraWhere, id } as unknown as FindOptionsWhere<T>);
  if (!found) throw new NotFoundException(refusal(notFound));
  return found;
}
