import { UpdateDto } from '../../common/update-dto.js';
import { CreateNewsDto } from './create-news.dto.js';

export class UpdateNewsDto extends UpdateDto(CreateNewsDto) {}
