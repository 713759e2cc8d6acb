import { UpdateDto } from '../../common/update-dto.js';
import { CreateArtworkDto } from './create-artwork.dto.js';

export class UpdateArtworkDto extends UpdateDto(CreateArtworkDto) {}
