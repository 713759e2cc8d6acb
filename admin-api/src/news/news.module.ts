import { kindFeature } from '../kinds/kind-feature.js';
import { CreateNewsDto } from './dto/create-news.dto.js';
import { News } from './news.entity.js';
import { NewsService } from './news.service.js';

/** The kind 'news' in the API (registered in src/kind-modules.ts). */
export const NEWS = kindFeature('news', { entity: News, createDto: CreateNewsDto, service: NewsService });
