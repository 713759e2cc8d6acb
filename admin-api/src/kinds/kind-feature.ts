import type { Type } from '@nestjs/common';

/** The API side of a content kind: its Nest module, its table's entity and the body that creates an item (see src/kind-modules.ts). */
export interface KindFeature {
  module: Type;
  entity: Type;
  createDto: new () => object;
}
