import { UpdateContentDto } from '../../content/update-content.dto.js';
import { CreateArtworkDto } from './create-artwork.dto.js';

export class UpdateArtworkDto extends UpdateContentDto(CreateArtworkDto) {}
