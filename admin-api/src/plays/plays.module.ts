import { kindFeature } from '../kinds/kind-feature.js';
import { CreatePlayDto } from './dto/create-play.dto.js';
import { Play } from './play.entity.js';
import { PlaysService } from './plays.service.js';

/** The kind 'plays' in the API (registered in src/kind-modules.ts). */
export const PLAYS = kindFeature('plays', { entity: Play, createDto: CreatePlayDto, service: PlaysService });
