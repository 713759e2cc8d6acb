import { UpdateDto } from '../../common/update-dto.js';
import { CreatePlayDto } from './create-play.dto.js';

export class UpdatePlayDto extends UpdateDto(CreatePlayDto) {}
