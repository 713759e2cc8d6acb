import { UpdateContentDto } from '../../content/update-content.dto.js';
import { CreateBookDto } from './create-book.dto.js';

export class UpdateBookDto extends UpdateContentDto(CreateBookDto) {}
