import { NotFoundException } from '@nestjs/common';
import type { EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';

export async function findOrFail<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  id: number,
  notFoundMessage: string,
  extraWhere: FindOptionsWhere<T> = {},
): Promise<T> {
  const found = await manager.findOneBy(entity, { ...extraWhere, id } as unknown as FindOptionsWhere<T>);
  if (!found) throw new NotFoundException(notFoundMessage);
  return found;
}
