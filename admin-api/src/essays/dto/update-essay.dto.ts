import { UpdateContentDto } from '../../content/update-content.dto.js';
import { CreateEssayDto } from './create-essay.dto.js';

export class UpdateEssayDto extends UpdateContentDto(CreateEssayDto) {}
