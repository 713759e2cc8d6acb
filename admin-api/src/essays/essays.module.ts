import { kindFeature } from '../kinds/kind-feature.js';
import { CreateEssayDto } from './dto/create-essay.dto.js';
import { Essay } from './essay.entity.js';

/** The kind 'essays' in the API (registered in src/kind-modules.ts). */
export const ESSAYS = kindFeature('essays', { entity: Essay, createDto: CreateEssayDto });
