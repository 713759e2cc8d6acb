import { UpdateDto } from '../../common/update-dto.js';
import { CreateEssayDto } from './create-essay.dto.js';

export class UpdateEssayDto extends UpdateDto(CreateEssayDto) {}
