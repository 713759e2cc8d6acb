import { UpdateContentDto } from '../../content/update-content.dto.js';
import { CreatePlayDto } from './create-play.dto.js';

export class UpdatePlayDto extends UpdateContentDto(CreatePlayDto) {}
