import { UpdateContentDto } from '../../content/update-content.dto.js';
import { CreateNewsDto } from './create-news.dto.js';

export class UpdateNewsDto extends UpdateContentDto(CreateNewsDto) {}
